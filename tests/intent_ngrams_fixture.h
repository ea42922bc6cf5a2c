// A small intent n-grams file (model/intent_ngrams.h) built in memory, for tests and the
// fuzzer.

#ifndef KEYDECIDE_TESTS_INTENT_NGRAMS_FIXTURE_H_
#define KEYDECIDE_TESTS_INTENT_NGRAMS_FIXTURE_H_

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/weight_checksum.h"
#include "model/weight_format.h"

namespace keydecide::testing {

struct IntentNgramsSpec {
  std::vector<std::string> labels = {"prose", "code", "url", "command"};
  size_t buckets = 256;
  int max_order = 2;
  int max_bytes = 160;
  // [buckets][labels], each an integer in [-2047, 2047] (exact in F16); empty: weight[r][0] = r
  // and weight[r][c] = 1 for every other column c, so a logit counts the runs or sums buckets.
  std::vector<int> weight;
  std::vector<float> bias = {0.5f, -1.0f, 0.0f, 2.0f};
};

// F16 bits of an integer within +-2047 (exact).
inline uint16_t SmallIntHalf(int n) {
  if (n == 0) return 0;
  const uint16_t sign = n < 0 ? 0x8000 : 0;
  const unsigned v = static_cast<unsigned>(n < 0 ? -n : n);
  int e = 0;
  while ((v >> (e + 1)) != 0) ++e;
  return sign | static_cast<uint16_t>((e + 15) << 10) |
         static_cast<uint16_t>(((v - (1u << e)) << (10 - e)) & 0x3FF);
}

// The file's bytes as the Python writer lays them out (metadata, then weight, then bias).
inline std::string IntentNgramsBytes(const IntentNgramsSpec& spec = {}) {
  const size_t n = spec.labels.size();
  std::string weight(spec.buckets * n * 2, '\0');
  for (size_t r = 0; r < spec.buckets; ++r) {
    for (size_t c = 0; c < n; ++c) {
      const int v =
          spec.weight.empty() ? (c == 0 ? static_cast<int>(r % 2048) : 1) : spec.weight[r * n + c];
      const uint16_t h = SmallIntHalf(v);
      std::memcpy(&weight[(r * n + c) * 2], &h, 2);
    }
  }
  std::string bias(spec.bias.size() * 4, '\0');
  std::memcpy(bias.data(), spec.bias.data(), bias.size());
  nlohmann::json header;
  header["__metadata__"] = {{"format", "keydecide-intent-ngrams"},
                            {"format_version", "1"},
                            {"labels", nlohmann::json(spec.labels).dump()},
                            {"max_order", std::to_string(spec.max_order)},
                            {"max_bytes", std::to_string(spec.max_bytes)},
                            {std::string(weight_format::kMetaTensorCrc32),
                             FormatTensorCrc32(TensorDataCrc32(bias, TensorDataCrc32(weight)))}};
  header["weight"] = {
      {"dtype", "F16"}, {"shape", {spec.buckets, n}}, {"data_offsets", {0, weight.size()}}};
  header["bias"] = {{"dtype", "F32"},
                    {"shape", {spec.bias.size()}},
                    {"data_offsets", {weight.size(), weight.size() + bias.size()}}};
  std::string text = header.dump();
  text.resize((text.size() + 8 + 7) / 8 * 8 - 8, ' ');
  const uint64_t len = text.size();
  std::string out(8, '\0');
  std::memcpy(out.data(), &len, 8);
  return out + text + weight + bias;
}

}  // namespace keydecide::testing

#endif  // KEYDECIDE_TESTS_INTENT_NGRAMS_FIXTURE_H_
