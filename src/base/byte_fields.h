// Fixed-size fields at byte offsets of a file header, copied with memcpy (no alignment or
// aliasing assumptions). The files are little-endian; their readers static_assert the host is.

#ifndef KEYDECIDE_BASE_BYTE_FIELDS_H_
#define KEYDECIDE_BASE_BYTE_FIELDS_H_

#include <cstddef>
#include <cstring>
#include <string>
#include <string_view>

namespace keydecide {

// REQUIRES: offset + sizeof(T) <= dst->size().
template <typename T>
void PutField(std::string* dst, size_t offset, T value) {
  std::memcpy(dst->data() + offset, &value, sizeof(T));
}

// REQUIRES: offset + sizeof(T) <= src.size().
template <typename T>
T GetField(std::string_view src, size_t offset) {
  T value;
  std::memcpy(&value, src.data() + offset, sizeof(T));
  return value;
}

}  // namespace keydecide

#endif  // KEYDECIDE_BASE_BYTE_FIELDS_H_
