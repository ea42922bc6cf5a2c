// libFuzzer target for the popup network's file (src/model/popup_net.cc, models/en/popup.json).
// The first input byte picks the case:
//   0 the rest as a whole file;
//   1 a valid file with the rest's edits (fuzz_util.h Poke) anywhere in it, so that the checks
//     past the JSON syntax (names, sizes, finite numbers, scales) are reached.
// A file that parses must give a probability in [0, 1] (never NaN) for finite features built
// from the rest's bytes, and the same one twice.
//
//   build-fuzz/bin/popup_fuzzer -max_total_time=10 NEW_CORPUS_DIR fuzz/corpus/popup

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "fuzz/fuzz_util.h"
#include "model/popup_net.h"

namespace {

using namespace keydecide;

constexpr std::array<std::string_view, 3> kNames = {"a", "b", "c"};

const std::string& ValidFile() {
  static const std::string bytes =
      R"({"format": "keydecide-popup", "version": 1, "features": ["a", "b", "c"],)"
      R"( "mean": [0.5, -1, 2], "scale": [1, 0.25, 3],)"
      R"( "hidden_weight": [[1, -2, 0.5], [0.1, 0.2, -0.3]], "hidden_bias": [0.5, -1],)"
      R"( "output_weight": [2, -1], "output_bias": 0.25})";
  return bytes;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::string json;
  if (data[0] % 2 == 0) {
    json.assign(rest);
  } else {
    json = ValidFile();
    fuzz::Poke(rest, 0, json.size(), &json);
  }
  std::unique_ptr<PopupNet> net;
  if (!PopupNet::Parse(json, kNames, &net).ok()) return 0;
  FUZZ_CHECK(net != nullptr && net->feature_count() == kNames.size());
  std::array<float, kNames.size()> x{};
  for (size_t i = 0; i < x.size() && i < rest.size(); ++i) {
    x[i] = static_cast<float>(static_cast<int8_t>(rest[i])) / 8.0f;
  }
  const float p = net->Probability(x);
  FUZZ_CHECK(p >= 0 && p <= 1);
  FUZZ_CHECK(p == net->Probability(x));
  return 0;
}
