// SavingShare and MixPopup: which candidates count, the softmax share, the mix's end points.

#include "decide/popup_estimate.h"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <vector>

#include "lexicon/lexicon.h"
#include "test_util.h"

namespace keydecide {
namespace {

ScoredCandidate Word(std::string_view text, float score) {
  return {lexicon::kNoEntry, -1, text, 0, 0, score};
}

TEST(PopupEstimateTest, SavingShareCountsOfferedWordsThatSaveTwoLetters) {
  std::unique_ptr<Lexicon> lexicon;
  ASSERT_TRUE(Lexicon::FromBytes(testing::FixtureLexiconBytes(), &lexicon).ok());
  // Typed "ca": "cat" saves one letter (not counted), "camel" and "cactus" count; "castle" is
  // fourth, past the bar's three slots.
  const float l1 = std::log(1.0f), l2 = std::log(2.0f), l3 = std::log(3.0f);
  const std::vector<ScoredCandidate> scored = {Word("camel", l3), Word("cat", l3),
                                               Word("cactus", l2), Word("castle", l1)};
  EXPECT_NEAR(SavingShare(scored, 3, 2, *lexicon), (3.0f + 2.0f) / 9.0f, 1e-6f);
  EXPECT_NEAR(SavingShare(scored, 1, 2, *lexicon), 3.0f / 9.0f, 1e-6f);   // one offered
  EXPECT_NEAR(SavingShare(scored, 10, 2, *lexicon), 5.0f / 9.0f, 1e-6f);  // still three slots
  EXPECT_EQ(SavingShare({}, 3, 2, *lexicon), 0.0f);
  EXPECT_EQ(SavingShare(scored, 3, 5, *lexicon), 0.0f);  // nothing saves two more letters
}

TEST(PopupEstimateTest, MixPopupIsTheHeadOrTheShareAtTheEnds) {
  EXPECT_NEAR(MixPopup(0.3f, 0.9f, 1.0f), 0.3f, 1e-5f);
  EXPECT_NEAR(MixPopup(0.3f, 0.9f, 0.0f), 0.9f, 1e-5f);
  EXPECT_NEAR(MixPopup(0.5f, 0.5f), 0.5f, 1e-6f);
  // Monotone in both; finite at 0 and 1.
  EXPECT_LT(MixPopup(0.2f, 0.5f), MixPopup(0.4f, 0.5f));
  EXPECT_LT(MixPopup(0.5f, 0.2f), MixPopup(0.5f, 0.4f));
  EXPECT_GT(MixPopup(0.0f, 0.0f), 0.0f);
  EXPECT_LT(MixPopup(1.0f, 1.0f), 1.0f);
}

}  // namespace
}  // namespace keydecide
