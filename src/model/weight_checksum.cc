#include "model/weight_checksum.h"

#include <zlib.h>

#include <cstdio>

#include "model/weight_format.h"

namespace keydecide {

namespace {

constexpr size_t kHexDigits = 8;

bool ParseHex32(std::string_view s, uint32_t* out) {
  if (s.size() != kHexDigits) return false;
  uint32_t v = 0;
  for (const char c : s) {
    const int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    if (digit < 0) return false;  // lower case only: one spelling per value
    v = v << 4 | static_cast<uint32_t>(digit);
  }
  *out = v;
  return true;
}

}  // namespace

uint32_t TensorDataCrc32(std::string_view data, uint32_t start) {
  // zlib's crc32 takes a uInt length: feed large inputs in chunks.
  uLong crc = start;
  const auto* p = reinterpret_cast<const Bytef*>(data.data());
  size_t left = data.size();
  while (left > 0) {
    const uInt n = static_cast<uInt>(left < (1u << 30) ? left : (1u << 30));
    crc = crc32(crc, p, n);
    p += n;
    left -= n;
  }
  return static_cast<uint32_t>(crc);
}

std::string FormatTensorCrc32(uint32_t crc) {
  char buf[kHexDigits + 1];
  std::snprintf(buf, sizeof(buf), "%08x", crc);
  return std::string(buf, kHexDigits);
}

Status VerifyTensorChecksum(std::string_view stored, std::string_view tensor_data) {
  if (stored.empty()) return Status::OK();
  uint32_t want;
  if (!ParseHex32(stored, &want)) {
    return Status::Corruption("metadata '" + std::string(weight_format::kMetaTensorCrc32) +
                              "' is not 8 lower-case hex digits");
  }
  const uint32_t got = TensorDataCrc32(tensor_data);
  if (got != want) {
    return Status::Corruption("tensor data checksum mismatch (stored " + std::string(stored) +
                              ", computed " + FormatTensorCrc32(got) +
                              "): the weight file is damaged");
  }
  return Status::OK();
}

}  // namespace keydecide
