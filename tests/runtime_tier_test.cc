// Session::SetTier, the hook the latency governor drives: each rung does what it says and
// reports itself, and a session that spent time on a cheap rung decides exactly like one
// that never left the full model once it is back.

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "keydecide/engine.h"
#include "model_fixture.h"
#include "test_util.h"

namespace keydecide {
namespace {

std::vector<std::string> Texts(const Decision& d) {
  std::vector<std::string> out;
  for (const Candidate& c : d.candidates) out.push_back(c.text);
  return out;
}

class TierTest : public ::testing::Test {
 protected:
  void SetUp() override {
    engine_ = testing::FixtureEngine(testing::TinyModelBytes());
    ASSERT_NE(engine_, nullptr);
    ASSERT_EQ(engine_->info().scorer, "model");
  }
  std::unique_ptr<Engine> engine_;
};

TEST_F(TierTest, EachRungReportsItselfAndUsesTheModelOrNot) {
  auto s = engine_->NewSession({});
  ASSERT_TRUE(s->Type("we will ").ok());
  Decision d;
  ASSERT_TRUE(s->Decide(5, &d).ok());
  EXPECT_EQ(d.tier, Tier::kFullModel);
  EXPECT_TRUE(d.has_model);

  s->SetTier(Tier::kNoVocabProposals);
  ASSERT_TRUE(s->Decide(5, &d).ok());
  EXPECT_EQ(d.tier, Tier::kNoVocabProposals);
  EXPECT_TRUE(d.has_model);  // the heads still come from the model

  s->SetTier(Tier::kLexiconOnly);
  ASSERT_TRUE(s->Decide(5, &d).ok());
  EXPECT_EQ(d.tier, Tier::kLexiconOnly);
  EXPECT_FALSE(d.has_model);
  EXPECT_TRUE(d.intent.label.empty());

  s->SetTier(Tier::kSmallModel);  // no smaller model is loaded: the next cheaper rung
  ASSERT_TRUE(s->Decide(5, &d).ok());
  EXPECT_EQ(d.tier, Tier::kLexiconOnly);
}

TEST_F(TierTest, TheLexiconRungMatchesTheCountBaseline) {
  auto baseline = testing::FixtureEngine();  // same lexicon, no model
  auto a = engine_->NewSession({});
  auto b = baseline->NewSession({});
  a->SetTier(Tier::kLexiconOnly);
  Decision da, db;
  for (const char* key : {"t", "h", "e", " ", "d", "o"}) {
    ASSERT_TRUE(a->Type(key).ok());
    ASSERT_TRUE(b->Type(key).ok());
    ASSERT_TRUE(a->Decide(5, &da).ok());
    ASSERT_TRUE(b->Decide(5, &db).ok());
    EXPECT_EQ(Texts(da), Texts(db)) << key;
  }
}

TEST_F(TierTest, BackOnTheFullModelTheSessionCatchesUp) {
  auto a = engine_->NewSession({});
  auto b = engine_->NewSession({});
  Decision da, db;
  const std::string text = "we will meet the dog at the station ca";
  for (size_t i = 0; i < text.size(); ++i) {
    // a spends the middle of the text on the cheap rungs; b never leaves the full model.
    a->SetTier(i < 8 ? Tier::kFullModel : i < 20 ? Tier::kLexiconOnly : Tier::kNoVocabProposals);
    ASSERT_TRUE(a->Type(text.substr(i, 1)).ok());
    ASSERT_TRUE(b->Type(text.substr(i, 1)).ok());
    ASSERT_TRUE(a->Decide(5, &da).ok());
  }
  a->SetTier(Tier::kFullModel);
  ASSERT_TRUE(a->Decide(5, &da).ok());
  ASSERT_TRUE(b->Decide(5, &db).ok());
  EXPECT_EQ(da.tier, Tier::kFullModel);
  EXPECT_EQ(Texts(da), Texts(db));
  ASSERT_EQ(da.candidates.size(), db.candidates.size());
  for (size_t i = 0; i < da.candidates.size(); ++i) {
    EXPECT_FLOAT_EQ(da.candidates[i].score, db.candidates[i].score) << i;
  }
  EXPECT_FLOAT_EQ(da.popup.probability, db.popup.probability);
}

// An engine with the fixture model and a smaller one of the same words (one layer, d = 8)
// as its small-model rung; `small_spec` may differ to test the refusal.
Status OpenWithSmallModel(const testing::TinyModelSpec& small_spec,
                          std::unique_ptr<Engine>* engine) {
  const std::string lexicon = testing::TempPath("tier.kdlex"),
                    model = testing::TempPath("tier.safetensors"),
                    small = testing::TempPath("tier_small.safetensors");
  testing::WriteFile(lexicon, testing::FixtureLexiconBytes());
  testing::WriteFile(model, testing::TinyModelBytes());
  testing::WriteFile(small, testing::TinyModelBytes(small_spec));
  EngineOptions options;
  options.model_dir = KD_MODELS_DIR;
  options.lexicon_path = lexicon;
  options.model_path = model;
  options.small_model_path = small;
  const Status s = Engine::Open(options, engine);
  for (const std::string& p : {lexicon, model, small}) std::remove(p.c_str());
  return s;
}

testing::TinyModelSpec SmallSpec() {
  testing::TinyModelSpec spec;
  spec.n_layers = 1, spec.d_model = 8, spec.d_ff = 16, spec.seed = 11;
  return spec;
}

TEST(SmallModelTierTest, TheSmallRungRunsTheSmallModel) {
  std::unique_ptr<Engine> engine;
  ASSERT_TRUE(OpenWithSmallModel(SmallSpec(), &engine).ok());
  EXPECT_FALSE(engine->info().small_model_path.empty());
  auto full = engine->NewSession({});
  auto small = engine->NewSession({});
  small->SetTier(Tier::kSmallModel);
  Decision df, ds;
  for (const char* keys : {"we will ", "the d"}) {
    ASSERT_TRUE(full->Type(keys).ok());
    ASSERT_TRUE(small->Type(keys).ok());
    ASSERT_TRUE(full->Decide(5, &df).ok());
    ASSERT_TRUE(small->Decide(5, &ds).ok());
    EXPECT_EQ(ds.tier, Tier::kSmallModel);
    EXPECT_TRUE(ds.has_model);  // the heads come from the small model
    EXPECT_FALSE(ds.intent.label.empty());
    ASSERT_FALSE(ds.candidates.empty());
    // Another model scores them: some score differs from the full model's.
    bool differs = ds.candidates.size() != df.candidates.size();
    for (size_t i = 0; !differs && i < ds.candidates.size(); ++i) {
      differs = ds.candidates[i].score != df.candidates[i].score;
    }
    EXPECT_TRUE(differs) << keys;
  }
  // Back on the full model, the session decides as one that never left it.
  small->SetTier(Tier::kFullModel);
  ASSERT_TRUE(small->Decide(5, &ds).ok());
  EXPECT_EQ(ds.tier, Tier::kFullModel);
  EXPECT_EQ(Texts(ds), Texts(df));
  for (size_t i = 0; i < ds.candidates.size(); ++i) {
    EXPECT_FLOAT_EQ(ds.candidates[i].score, df.candidates[i].score) << i;
  }
}

TEST(SmallModelTierTest, ASmallModelOfOtherWordsIsRefused) {
  testing::TinyModelSpec spec = SmallSpec();
  spec.words.back() = "would";  // one word differs
  std::unique_ptr<Engine> engine;
  const Status s = OpenWithSmallModel(spec, &engine);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.ToString().find("vocabulary"), std::string::npos) << s.ToString();
}

TEST(SmallModelTierTest, TheBundledPackHasItsSmallModel) {
  // The shipped English pack: the small model loads beside the typing model (same words).
  EngineOptions options;
  options.model_dir = KD_MODELS_DIR;
  std::unique_ptr<Engine> engine;
  ASSERT_TRUE(Engine::Open(options, &engine).ok());
  EXPECT_NE(engine->info().small_model_path.find("model.small.q8.safetensors"), std::string::npos);
  auto s = engine->NewSession({});
  s->SetTier(Tier::kSmallModel);
  ASSERT_TRUE(s->Type("see you tomo").ok());
  Decision d;
  ASSERT_TRUE(s->Decide(3, &d).ok());
  EXPECT_EQ(d.tier, Tier::kSmallModel);
  ASSERT_FALSE(d.candidates.empty());
  EXPECT_EQ(d.candidates[0].text, "tomorrow");
}

}  // namespace
}  // namespace keydecide
