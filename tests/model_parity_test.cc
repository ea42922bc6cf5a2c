// Parity with PyTorch: keydecide_train.make_parity_fixture trains a tiny model for a few steps,
// exports it, and records PyTorch's outputs at every position of a few sessions. The C++
// reference must give the same word logits and head outputs, by block encoding and by
// incremental steps. ctest runs the Python fixture first (KD_PARITY_DIR points at it).

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "model/transformer.h"

namespace keydecide {
namespace {

constexpr float kTolerance = 1e-4f;  // the issue's bound; float32 on both sides

struct Fixture {
  std::unique_ptr<Transformer> model;
  nlohmann::json parity;
};

Fixture LoadFixture() {
  Fixture f;
  const char* dir = std::getenv("KD_PARITY_DIR");
  if (dir == nullptr) return f;
  std::ifstream in(std::string(dir) + "/parity.json");
  std::stringstream s;
  s << in.rdbuf();
  f.parity = nlohmann::json::parse(s.str());
  const Status st =
      Transformer::Open(std::string(dir) + "/" + f.parity["model"].get<std::string>(), &f.model);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return f;
}

void ExpectOutputs(const Transformer& m, const float* y, const nlohmann::json& expected, size_t t,
                   const std::string& where) {
  std::vector<float> logits(m.n_words()), intent(m.config().intent_labels.size());
  m.WordLogits(y, logits.data());
  const auto& want_logits = expected["word_logits"][t];
  ASSERT_EQ(want_logits.size(), logits.size()) << where;
  float worst = 0;
  for (size_t w = 0; w < logits.size(); ++w) {
    worst = std::max(worst, std::abs(logits[w] - want_logits[w].get<float>()));
  }
  EXPECT_LE(worst, kTolerance) << where << " word logits";
  EXPECT_NEAR(m.Popup(y), expected["popup"][t].get<float>(), kTolerance) << where;
  EXPECT_NEAR(m.Autocorrect(y), expected["autocorrect"][t].get<float>(), kTolerance) << where;
  m.Intent(y, intent.data());
  for (size_t i = 0; i < intent.size(); ++i) {
    EXPECT_NEAR(intent[i], expected["intent"][t][i].get<float>(), kTolerance) << where;
  }
}

TEST(ModelParityTest, MatchesPyTorch) {
  Fixture f = LoadFixture();
  if (f.parity.is_null()) GTEST_SKIP() << "KD_PARITY_DIR not set (run through ctest)";
  ASSERT_NE(f.model, nullptr);
  const Transformer& m = *f.model;
  const int d = m.config().d_model;
  ASSERT_GE(f.parity["sequences"].size(), 3u);
  for (const auto& seq : f.parity["sequences"]) {
    const std::string name = seq["name"].get<std::string>();
    std::vector<TokenInput> tokens;
    for (size_t t = 0; t < seq["tokens"].size(); ++t) {
      tokens.push_back({seq["tokens"][t].get<int32_t>(), seq["intervals"][t].get<uint8_t>(),
                        seq["backspace"][t].get<uint8_t>()});
    }
    ASSERT_LE(static_cast<int>(tokens.size()), m.config().max_len) << name;
    // Full re-encode.
    KvCache block_cache(m.config());
    std::vector<float> block(tokens.size() * d);
    m.Encode(tokens, &block_cache, block.data());
    for (size_t t = 0; t < tokens.size(); ++t) {
      ExpectOutputs(m, &block[t * d], seq["expected"], t, name + " encode @" + std::to_string(t));
    }
    // Incremental steps, with a detour: two extra keys then two backspaces (truncation).
    KvCache cache(m.config());
    std::vector<float> y(d);
    for (size_t t = 0; t < tokens.size(); ++t) {
      if (t == tokens.size() / 2 && cache.length() + 2 < m.config().max_len) {
        m.Step({ModelConfig::kFirstChar, 3, 0}, &cache, y.data());
        m.Step({ModelConfig::kFirstChar + 1, 3, 1}, &cache, y.data());
        cache.Truncate(static_cast<int>(t));
      }
      m.Step(tokens[t], &cache, y.data());
      ExpectOutputs(m, y.data(), seq["expected"], t, name + " step @" + std::to_string(t));
    }
  }
}

}  // namespace
}  // namespace keydecide
