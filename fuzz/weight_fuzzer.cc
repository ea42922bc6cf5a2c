// libFuzzer target for the weight file: the safetensors reader (src/model/safetensors.cc),
// the checksum (weight_checksum.cc) and Transformer::Load with its weight reader, on a tiny
// random model (tests/model_fixture.h), fp32 and int8. The first input byte picks the case:
//   0 the rest as a whole file;
//   1 the fp32 model with the rest's edits (fuzz_util.h Poke) in its tensor data, checksum
//     made again, so that the checks behind it (finite weights, finite outputs) are reached;
//   2 the same over the int8 model (its int8 weights and fp32 scales);
//   3 the fp32 model with the edits in its JSON header (names, shapes, offsets, metadata);
//   4 the fp32 model with the rest as its whole JSON header, its tensor data kept;
//   5 the fp32 model with edits in its tensor data and no new checksum: refused whenever a
//     byte changed.
// A model that loads must run: a few tokens from the input are encoded and every head read,
// under the sanitizers (its outputs may overflow on other inputs than the load probe's: the
// sessions check those).
//
//   build-hfuzz/bin/weight_fuzzer -max_total_time=15 NEW_CORPUS_DIR fuzz/corpus/weight

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/fuzz_util.h"
#include "model/quantize.h"
#include "model/safetensors.h"
#include "model/transformer.h"
#include "model_fixture.h"

namespace {

using namespace keydecide;

struct Bases {
  std::string f32, q8;
};

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

Bases* MakeBases() {
  auto* b = new Bases;
  testing::TinyModelSpec spec;
  spec.n_layers = 1, spec.d_model = 32, spec.d_ff = 64, spec.max_len = 12;
  b->f32 = testing::TinyModelBytes(spec);
  const std::string in = "/tmp/kd_weight_fuzzer_" + std::to_string(::getpid()) + ".safetensors";
  const std::string out = in + ".q8";
  std::ofstream(in, std::ios::binary) << b->f32;
  QuantizeReport report;
  FUZZ_CHECK(QuantizeModel(in, out, QuantizeOptions(), &report).ok());
  b->q8 = ReadAll(out);
  std::remove(in.c_str());
  std::remove(out.c_str());
  return b;
}

size_t DataStart(const std::string& file) {
  uint64_t header_len;
  std::memcpy(&header_len, file.data(), 8);
  return 8 + header_len;
}

// The case's file (see the top of the file); *must_fail when it has to be refused.
std::string MakeFile(const Bases& b, uint8_t mode, std::string_view rest, bool* must_fail) {
  *must_fail = false;
  if (mode == 0) return std::string(rest);
  std::string bytes = mode == 2 ? b.q8 : b.f32;
  const size_t data = DataStart(bytes);
  if (mode == 1 || mode == 2) {
    fuzz::Poke(rest, data, bytes.size(), &bytes);
    testing::ResealTensorCrc32(&bytes);
  } else if (mode == 3) {
    fuzz::Poke(rest, 8, data, &bytes);
  } else if (mode == 4) {
    const uint64_t len = rest.size();
    std::string out(8, '\0');
    std::memcpy(out.data(), &len, 8);
    return out + std::string(rest) + bytes.substr(data);
  } else {
    fuzz::Poke(rest, data, bytes.size(), &bytes);
    *must_fail = bytes != b.f32;  // edits may write a byte back as it was
  }
  return bytes;
}

// Runs the model on tokens taken from the input (ids, intervals, backspace flags in range).
void Run(const Transformer& m, std::string_view rest) {
  const ModelConfig& c = m.config();
  std::vector<TokenInput> tokens = {{ModelConfig::kBos}};
  for (size_t i = 0; i < rest.size() && tokens.size() < static_cast<size_t>(c.max_len); ++i) {
    const uint8_t x = static_cast<uint8_t>(rest[i]);
    tokens.push_back({static_cast<int32_t>(x % c.vocab_size), static_cast<uint8_t>(x % 8),
                      static_cast<uint8_t>(x >> 7)});
  }
  KvCache cache(c);
  std::vector<float> y(c.d_model), logits(m.n_words()), intent(c.intent_labels.size());
  m.Extend(tokens, &cache, y.data());
  m.WordLogits(y.data(), logits.data());
  m.Intent(y.data(), intent.data());
  (void)m.Popup(y.data());
  (void)m.Autocorrect(y.data());
  if (cache.length() < c.max_len) m.Step({ModelConfig::kSep}, &cache, y.data());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const Bases* bases = MakeBases();
  if (size == 0) return 0;
  const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  bool must_fail;
  std::unique_ptr<SafetensorsFile> file;
  Status s = SafetensorsFile::FromBytes(MakeFile(*bases, data[0] % 6, rest, &must_fail), &file);
  std::unique_ptr<Transformer> model;
  if (s.ok()) s = Transformer::Load(std::move(file), &model);
  FUZZ_CHECK(s.ok() == (model != nullptr));
  if (must_fail) FUZZ_CHECK(!s.ok());
  if (!s.ok()) return 0;
  FUZZ_CHECK(model->config().d_model > 0 && model->n_words() > 0 &&
             !model->weight_format().empty());
  Run(*model, rest);
  return 0;
}
