// What the fuzzers share: a check that libFuzzer reports as a crash, and the edits that turn
// a valid file into a slightly broken one (so that the checks behind a file's checksum and
// magic are reached, which random bytes almost never do).

#ifndef KEYDECIDE_FUZZ_FUZZ_UTIL_H_
#define KEYDECIDE_FUZZ_FUZZ_UTIL_H_

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace keydecide::fuzz {

// Aborts (a finding) when an invariant does not hold, naming it.
#define FUZZ_CHECK(cond) ::keydecide::fuzz::CheckAt((cond), #cond, __FILE__, __LINE__)
inline void CheckAt(bool ok, const char* what, const char* file, int line) {
  if (ok) return;
  std::fprintf(stderr, "%s:%d: check failed: %s\n", file, line, what);
  std::abort();
}

// Writes the input's edits into bytes[begin, end): every 3 input bytes are a little-endian
// 16-bit position (taken modulo the range) and the byte to write there.
// REQUIRES: begin < end <= bytes->size().
inline void Poke(std::string_view edits, size_t begin, size_t end, std::string* bytes) {
  for (size_t i = 0; i + 2 < edits.size(); i += 3) {
    const size_t at = static_cast<uint8_t>(edits[i]) |
                      static_cast<size_t>(static_cast<uint8_t>(edits[i + 1])) << 8;
    (*bytes)[begin + at % (end - begin)] = edits[i + 2];
  }
}

}  // namespace keydecide::fuzz

#endif  // KEYDECIDE_FUZZ_FUZZ_UTIL_H_
