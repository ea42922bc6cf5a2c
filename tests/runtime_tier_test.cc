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

}  // namespace
}  // namespace keydecide
