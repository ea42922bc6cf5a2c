// ComputePopupFeatures: each feature of a worked example, and the absent slots.

#include "decide/popup_features.h"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <vector>

#include "lexicon/lexicon.h"
#include "test_util.h"

namespace keydecide {
namespace {

ScoredCandidate Word(std::string_view text, float score, uint16_t cost = 0, float cache = 0) {
  ScoredCandidate c{lexicon::kNoEntry, -1, text, cost, 0, score};
  c.cache = cache;
  return c;
}

size_t Index(std::string_view name) {
  for (size_t i = 0; i < kPopupFeatureNames.size(); ++i) {
    if (kPopupFeatureNames[i] == name) return i;
  }
  ADD_FAILURE() << name;
  return 0;
}

TEST(PopupFeaturesTest, AWorkedExample) {
  std::unique_ptr<Lexicon> lexicon;
  ASSERT_TRUE(Lexicon::FromBytes(testing::FixtureLexiconBytes(), &lexicon).ok());
  const float l1 = std::log(1.0f), l2 = std::log(2.0f), l3 = std::log(3.0f);
  // Typed "ca"; the bar offers camel, cat, cactus; castle is the best one not offered.
  const std::vector<ScoredCandidate> scored = {Word("camel", l3, 0, 0.5f), Word("cat", l3),
                                               Word("cactus", l2, 2), Word("castle", l1)};
  PopupFeatures f;
  ComputePopupFeatures({0.25f, scored, 3, 2, lexicon.get(), 0, true}, &f);
  EXPECT_NEAR(f[Index("head_logit")], std::log(0.25f / 0.75f), 1e-5f);
  EXPECT_NEAR(f[Index("share_logit")], std::log(5.0f / 4.0f), 1e-5f);  // share 5/9
  EXPECT_EQ(f[Index("typed_2")], 1.0f);
  EXPECT_EQ(
      f[Index("typed_0")] + f[Index("typed_1")] + f[Index("typed_3")] + f[Index("typed_4plus")],
      0.0f);
  EXPECT_NEAR(f[Index("best_log_share")], std::log(3.0f / 9.0f), 1e-5f);
  EXPECT_NEAR(f[Index("bar_log_share")], std::log(8.0f / 9.0f), 1e-5f);
  EXPECT_NEAR(f[Index("margin_1_2")], 0.0f, 1e-6f);
  EXPECT_NEAR(f[Index("margin_3_4")], l2 - l1, 1e-6f);
  EXPECT_EQ(f[Index("saves_1")], 1.0f);  // camel: three letters left
  EXPECT_EQ(f[Index("saves_2")], 0.0f);  // cat: one
  EXPECT_EQ(f[Index("saves_3")], 1.0f);
  EXPECT_EQ(f[Index("cost_3")], 2.0f);
  EXPECT_EQ(f[Index("session_1")], 1.0f);
  EXPECT_EQ(f[Index("session_2")], 0.0f);
  EXPECT_EQ(f[Index("typed_word_log_count")], 0.0f);  // "ca" is no word
  EXPECT_EQ(f[Index("capitalized")], 1.0f);
}

TEST(PopupFeaturesTest, SlotsWithoutACandidateHoldNothing) {
  std::unique_ptr<Lexicon> lexicon;
  ASSERT_TRUE(Lexicon::FromBytes(testing::FixtureLexiconBytes(), &lexicon).ok());
  const std::vector<ScoredCandidate> scored = {Word("camel", 2.0f)};
  PopupFeatures f;
  ComputePopupFeatures({0.5f, scored, 1, 7, lexicon.get(), 99, false}, &f);
  EXPECT_EQ(f[Index("typed_4plus")], 1.0f);
  EXPECT_NEAR(f[Index("typed_word_log_count")], std::log(100.0f), 1e-5f);
  EXPECT_EQ(f[Index("capitalized")], 0.0f);
  EXPECT_NEAR(f[Index("best_log_share")], 0.0f, 1e-6f);
  EXPECT_NEAR(f[Index("bar_log_share")], 0.0f, 1e-5f);
  EXPECT_EQ(f[Index("margin_1_2")], 10.0f);  // clamped
  EXPECT_EQ(f[Index("saves_1")], 0.0f);      // typed 7 letters: camel saves none
  EXPECT_EQ(f[Index("saves_2")] + f[Index("cost_2")] + f[Index("session_3")], 0.0f);
  for (float v : f) EXPECT_TRUE(std::isfinite(v));
  // Nothing scored at all: every feature finite.
  ComputePopupFeatures({0.5f, {}, 0, 0, lexicon.get(), 0, false}, &f);
  for (float v : f) EXPECT_TRUE(std::isfinite(v));
}

TEST(PopupFeaturesTest, IndicesNameTheirFeatures) {
  EXPECT_EQ(kPopupFeatureNames[kHeadLogit], "head_logit");
  EXPECT_EQ(kPopupFeatureNames[kShareLogit], "share_logit");
  EXPECT_EQ(kPopupFeatureNames[kTyped0 + 4], "typed_4plus");
  EXPECT_EQ(kPopupFeatureNames[kBestLogShare], "best_log_share");
  EXPECT_EQ(kPopupFeatureNames[kMargin34], "margin_3_4");
  EXPECT_EQ(kPopupFeatureNames[kSaves1 + 2], "saves_3");
  EXPECT_EQ(kPopupFeatureNames[kCost1], "cost_1");
  EXPECT_EQ(kPopupFeatureNames[kSession1 + 2], "session_3");
  EXPECT_EQ(kPopupFeatureNames[kTypedWordLogCount], "typed_word_log_count");
  EXPECT_EQ(kPopupFeatureNames[kCapitalized], "capitalized");
  EXPECT_EQ(kPopupFeatureNames.size(), size_t{kPopupFeatureCount});
}

}  // namespace
}  // namespace keydecide
