#include "lexicon/word_set.h"

#include <algorithm>
#include <cstring>

#include "base/byte_fields.h"
#include "base/mapped_file.h"
#include "lexicon/lexicon_format.h"

namespace keydecide {

namespace {

constexpr char kMagic[8] = {'K', 'D', 'W', 'O', 'R', 'D', 'S', '1'};
constexpr uint32_t kVersion = 1;

// The two hashes of the double hashing (word_set.h). Written here, not taken from a library:
// the file's bits depend on them, so they must never change with a library's version.
uint64_t Fnv1a(std::string_view s) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (const char c : s) {
    h ^= static_cast<uint8_t>(c);
    h *= 0x100000001b3ull;
  }
  return h;
}

uint64_t SplitMix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// Calls f(bit) for each of the k bits of `word` in a filter of m bits.
template <typename F>
void ForEachBit(std::string_view word, uint32_t k, uint64_t m, F f) {
  const uint64_t h1 = Fnv1a(word);
  const uint64_t h2 = SplitMix64(h1) | 1;
  for (uint32_t j = 0; j < k; ++j) f((h1 + j * h2) % m);
}

}  // namespace

WordSet::~WordSet() = default;

Status WordSet::Open(const std::string& path, std::unique_ptr<WordSet>* out) {
  std::unique_ptr<WordSet> set(new WordSet());
  KD_RETURN_IF_ERROR(MappedFile::Open(path, &set->file_));
  const Status s = Init(set->file_->data(), set.get());
  if (!s.ok()) return s.Annotated(path);
  *out = std::move(set);
  return Status::OK();
}

Status WordSet::FromBytes(std::string bytes, std::unique_ptr<WordSet>* out) {
  std::unique_ptr<WordSet> set(new WordSet());
  set->bytes_ = std::move(bytes);
  KD_RETURN_IF_ERROR(Init(set->bytes_, set.get()));
  *out = std::move(set);
  return Status::OK();
}

Status WordSet::Init(std::string_view data, WordSet* set) {
  if (data.size() < kHeaderSize || std::memcmp(data.data(), kMagic, sizeof(kMagic)) != 0) {
    return Status::Corruption("not a keydecide word set file (bad magic or too short)");
  }
  if (const auto version = GetField<uint32_t>(data, 8); version != kVersion) {
    return Status::NotSupported("word set format version " + std::to_string(version));
  }
  if (GetField<uint32_t>(data, 12) != kHeaderSize) return Status::Corruption("bad header size");
  const auto hashes = GetField<uint32_t>(data, 16);
  const auto bits = GetField<uint64_t>(data, 24);
  if (hashes == 0 || hashes > kMaxHashes) return Status::Corruption("bad hash count");
  if (bits == 0 || bits % 64 != 0 || bits / 8 != data.size() - kHeaderSize) {
    return Status::Corruption("file size " + std::to_string(data.size()) +
                              " does not hold the header's bit count");
  }
  if (lexicon::FileCrc32(data) != GetField<uint32_t>(data, 48)) {
    return Status::Corruption("checksum mismatch");
  }
  set->bits_ = reinterpret_cast<const uint8_t*>(data.data() + kHeaderSize);
  set->bit_count_ = bits;
  set->hashes_ = hashes;
  set->words_ = GetField<uint64_t>(data, 32);
  return Status::OK();
}

Status WordSet::Build(std::span<const std::string_view> words, uint32_t bits_per_word,
                      uint32_t hashes, std::string* bytes) {
  if (bits_per_word == 0 || bits_per_word > 64 || hashes == 0 || hashes > kMaxHashes) {
    return Status::InvalidArgument("bits per word must be in 1..64 and hashes in 1..16");
  }
  const uint64_t m = std::max<uint64_t>(64, (words.size() * bits_per_word + 63) / 64 * 64);
  std::string out(kHeaderSize + m / 8, '\0');
  std::memcpy(out.data(), kMagic, sizeof(kMagic));
  PutField<uint32_t>(&out, 8, kVersion);
  PutField<uint32_t>(&out, 12, kHeaderSize);
  PutField<uint32_t>(&out, 16, hashes);
  PutField<uint64_t>(&out, 24, m);
  PutField<uint64_t>(&out, 32, words.size());
  for (const std::string_view w : words) {
    ForEachBit(w, hashes, m, [&](uint64_t bit) {
      out[kHeaderSize + bit / 8] =
          static_cast<char>(out[kHeaderSize + bit / 8] | (1u << (bit % 8)));
    });
  }
  lexicon::SealFile(&out);
  *bytes = std::move(out);
  return Status::OK();
}

bool WordSet::MayContain(std::string_view word) const {
  bool all = true;
  ForEachBit(word, hashes_, bit_count_,
             [&](uint64_t bit) { all = all && (bits_[bit / 8] >> (bit % 8) & 1) != 0; });
  return all;
}

}  // namespace keydecide
