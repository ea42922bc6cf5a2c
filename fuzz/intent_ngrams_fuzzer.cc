// libFuzzer target for the intent n-grams' file and features (src/model/intent_ngrams.cc,
// models/en/intent_ngrams.safetensors). The first input byte picks the case:
//   0 the rest as a whole file;
//   1 a valid file (tests/intent_ngrams_fixture.h) with the rest's edits (fuzz_util.h Poke) in
//     its JSON header (labels, orders, shapes, offsets);
//   2 the valid file with edits in its tensor data, checksum made again, so that the checks
//     behind it (finite, moderate weights) are reached.
// A file that loads must give finite logits and a blend that sums to 1 for the rest's bytes as
// the text before the cursor (any bytes: broken UTF-8, NULs, long lines), the same twice.
//
//   build-fuzz/bin/intent_ngrams_fuzzer -max_total_time=10 NEW_CORPUS_DIR fuzz/corpus/intent_ngrams

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/fuzz_util.h"
#include "intent_ngrams_fixture.h"
#include "model/intent_ngrams.h"
#include "model_fixture.h"

namespace {

using namespace keydecide;

const std::vector<std::string> kLabels = {"prose", "code", "url", "command"};

size_t DataStart(const std::string& file) {
  uint64_t header_len;
  std::memcpy(&header_len, file.data(), 8);
  return 8 + header_len;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string* valid = [] {
    testing::IntentNgramsSpec spec;
    spec.buckets = 64;
    spec.max_order = 3;
    spec.max_bytes = 40;
    return new std::string(testing::IntentNgramsBytes(spec));
  }();
  if (size == 0) return 0;
  const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::string bytes;
  if (data[0] % 3 == 0) {
    bytes.assign(rest);
  } else {
    bytes = *valid;
    const size_t start = DataStart(bytes);
    if (data[0] % 3 == 1) {
      fuzz::Poke(rest, 8, start, &bytes);
    } else {
      fuzz::Poke(rest, start, bytes.size(), &bytes);
      testing::ResealTensorCrc32(&bytes);
    }
  }
  std::unique_ptr<IntentNgrams> ngrams;
  const Status s = IntentNgrams::FromBytes(std::move(bytes), kLabels, &ngrams);
  FUZZ_CHECK(s.ok() == (ngrams != nullptr));
  if (!s.ok()) return 0;
  std::vector<float> z(kLabels.size(), 0.0f), again(kLabels.size(), 0.0f);
  ngrams->AddLogits(rest, z);
  ngrams->AddLogits(rest, again);
  FUZZ_CHECK(z == again);
  for (float v : z) FUZZ_CHECK(std::isfinite(v));
  std::vector<float> p = {0.7f, 0.1f, 0.2f, 0.0f};
  ngrams->Blend(rest, p);
  float total = 0;
  for (float v : p) {
    FUZZ_CHECK(v >= 0 && v <= 1);
    total += v;
  }
  FUZZ_CHECK(std::fabs(total - 1) < 1e-4f);
  FUZZ_CHECK(p[3] == 0.0f);
  return 0;
}
