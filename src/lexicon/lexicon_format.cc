#include "lexicon/lexicon_format.h"

#include <zlib.h>

#include <bit>
#include <cstring>

#include "base/byte_fields.h"

namespace keydecide::lexicon {

static_assert(std::endian::native == std::endian::little,
              "the lexicon is mapped in place and stored little-endian");

namespace {

// Header layout (byte offsets):
//   0 magic[8]  8 version  12 header_size  16 file_size(8)  24 node_count  28 entry_count
//   32 variant_count  36 pool_size  40 total_count(8)  48 file_crc32  52 language[8]
//   60 reserved(4)
constexpr size_t kCrcOffset = 48;

uint32_t Crc32(uLong crc, std::string_view bytes) {
  // zlib's crc32 takes a uInt length: feed large inputs in chunks.
  const auto* p = reinterpret_cast<const Bytef*>(bytes.data());
  size_t left = bytes.size();
  while (left > 0) {
    const uInt n = static_cast<uInt>(left < (1u << 30) ? left : (1u << 30));
    crc = crc32(crc, p, n);
    p += n;
    left -= n;
  }
  return static_cast<uint32_t>(crc);
}

}  // namespace

uint32_t FileCrc32(std::string_view file) {
  char header[kHeaderSize];
  std::memcpy(header, file.data(), kHeaderSize);
  std::memset(header + kCrcOffset, 0, sizeof(uint32_t));
  const uint32_t crc = Crc32(crc32(0L, Z_NULL, 0), std::string_view(header, kHeaderSize));
  return Crc32(crc, file.substr(kHeaderSize));
}

void SealFile(std::string* file) { PutField<uint32_t>(file, kCrcOffset, FileCrc32(*file)); }

void Header::EncodeTo(std::string* dst) const {
  dst->assign(kHeaderSize, '\0');
  std::memcpy(dst->data(), kMagic, sizeof(kMagic));
  PutField<uint32_t>(dst, 8, version);
  PutField<uint32_t>(dst, 12, kHeaderSize);
  PutField<uint64_t>(dst, 16, file_size);
  PutField<uint32_t>(dst, 24, node_count);
  PutField<uint32_t>(dst, 28, entry_count);
  PutField<uint32_t>(dst, 32, variant_count);
  PutField<uint32_t>(dst, 36, pool_size);
  PutField<uint64_t>(dst, 40, total_count);
  PutField<uint32_t>(dst, kCrcOffset, file_crc32);
  std::memcpy(dst->data() + 52, language.data(), std::min<size_t>(language.size(), 7));
}

Status Header::DecodeFrom(std::string_view file) {
  if (file.size() < kHeaderSize) {
    return Status::Corruption("lexicon file too short for its header (" +
                              std::to_string(file.size()) + " bytes)");
  }
  if (std::memcmp(file.data(), kMagic, sizeof(kMagic)) != 0) {
    return Status::Corruption("not a keydecide lexicon (bad magic)");
  }
  version = GetField<uint32_t>(file, 8);
  if (version > kFormatVersion) {
    return Status::NotSupported("lexicon format version " + std::to_string(version) +
                                " is newer than this build's " + std::to_string(kFormatVersion));
  }
  if (version == 0) return Status::Corruption("lexicon format version 0");
  if (GetField<uint32_t>(file, 12) != kHeaderSize)
    return Status::Corruption("bad lexicon header size");
  file_size = GetField<uint64_t>(file, 16);
  node_count = GetField<uint32_t>(file, 24);
  entry_count = GetField<uint32_t>(file, 28);
  variant_count = GetField<uint32_t>(file, 32);
  pool_size = GetField<uint32_t>(file, 36);
  total_count = GetField<uint64_t>(file, 40);
  file_crc32 = GetField<uint32_t>(file, kCrcOffset);
  const char* lang = file.data() + 52;
  language.assign(lang, strnlen(lang, 7));
  if (file_size != file.size()) {
    return Status::Corruption("lexicon file is " + std::to_string(file.size()) +
                              " bytes but its header says " + std::to_string(file_size) +
                              " (truncated or appended to)");
  }
  // Counts are 32-bit, so the section arithmetic in uint64 cannot overflow.
  if (expected_file_size() != file_size) {
    return Status::Corruption("lexicon section sizes do not add up to the file size");
  }
  if (node_count == 0) return Status::Corruption("lexicon has no root node");
  if (FileCrc32(file) != file_crc32) {
    return Status::Corruption("lexicon checksum mismatch");
  }
  return Status::OK();
}

}  // namespace keydecide::lexicon
