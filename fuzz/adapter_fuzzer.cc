// libFuzzer target for the fine-tuning adapter's blob (src/model/logit_adapter.h), which the
// user store keeps: the first input byte picks the case:
//   0 the rest as a whole blob;
//   1 a valid small adapter with the rest's edits (fuzz_util.h Poke) in it, so that the
//     checks behind the magic and the length (dimensions, finite weights) are reached.
// A blob that parses must serialise back to the same bytes and apply without overflowing
// its arrays (under the sanitizers).
//
//   build-fuzz/bin/adapter_fuzzer -max_total_time=15 NEW_CORPUS_DIR fuzz/corpus/adapter

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/fuzz_util.h"
#include "model/logit_adapter.h"

namespace {

using namespace keydecide;

const std::string& ValidBlob() {
  static const std::string blob = [] {
    LogitAdapter a = LogitAdapter::Zero(2, 4, 6, "0123abcd", 1);
    for (size_t i = 0; i < a.u.size(); ++i) a.u[i] = 0.1f * static_cast<float>(i);
    return a.Serialize();
  }();
  return blob;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::string blob;
  if (data[0] % 2 == 0) {
    blob.assign(rest);
  } else {
    blob = ValidBlob();
    fuzz::Poke(rest, 0, blob.size(), &blob);
  }
  LogitAdapter a;
  if (!LogitAdapter::Parse(blob, &a).ok()) return 0;
  FUZZ_CHECK(a.Serialize() == blob);
  std::vector<float> y(a.d_model, 1.0f), z(a.rank);
  a.Project(y.data(), z.data());
  for (int w = 0; w < a.n_words; w += 1 + a.n_words / 64) (void)a.Delta(z.data(), w);
  return 0;
}
