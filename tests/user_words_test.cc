// UserWords (src/personal/user_words.h): the snapshot sessions rank with. Spellings of one key
// merge, the most used one kept; prefixes, pairs and weights are found; the offer rule.

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "personal/user_words.h"

namespace keydecide {
namespace {

LearnedWord W(std::string word, uint32_t count, uint32_t picks = 0, uint64_t last_tick = 10) {
  return {"en", std::move(word), count, picks, static_cast<double>(count), last_tick, 0, 0, ""};
}

LearnedPair P(std::string previous, std::string word, uint32_t count) {
  return {"en", std::move(previous), std::move(word), count, static_cast<double>(count), 10, 0};
}

TEST(UserWordsTest, MergesSpellingsFindsPrefixesAndPairs) {
  const UserWords u = UserWords::Build(
      {W("Darcy", 3), W("darcy", 1), W("dance", 1), W("danced", 1, 1), W("tea", 5)},
      {P("Mr", "Darcy", 2), P("mr", "darcy", 1), P("mr", "Bingley", 4), P("a", "dance", 1)}, 10);
  ASSERT_EQ(u.size(), 4u);
  const UserWords::Word* darcy = u.Find("darcy");
  ASSERT_NE(darcy, nullptr);
  EXPECT_EQ(darcy->spelling, "Darcy");
  EXPECT_EQ(darcy->count, 4u);
  EXPECT_FLOAT_EQ(darcy->weight, 4);
  EXPECT_TRUE(darcy->offered());
  EXPECT_EQ(u.Find("Darcy"), nullptr);       // keys are lower-cased
  EXPECT_FALSE(u.Find("dance")->offered());  // seen once
  EXPECT_TRUE(u.Find("danced")->offered());  // picked once

  std::vector<std::string> keys;
  for (const UserWords::Word& w : u.WithPrefix("da")) keys.push_back(w.key);
  EXPECT_EQ(keys, (std::vector<std::string>{"dance", "danced", "darcy"}));
  EXPECT_TRUE(u.WithPrefix("x").empty());
  EXPECT_EQ(u.WithPrefix("").size(), 4u);

  EXPECT_FLOAT_EQ(u.PairWeight("mr", "darcy"), 3);
  EXPECT_FLOAT_EQ(u.PairWeight("mr", "bingley"), 4);
  EXPECT_EQ(u.PairWeight("mr", "dance"), 0);
  EXPECT_EQ(u.PairWeight("zz", "darcy"), 0);
  const auto after_mr = u.Following("mr");
  ASSERT_EQ(after_mr.size(), 2u);
  EXPECT_EQ(after_mr[0].word, "bingley");  // heaviest first
  EXPECT_EQ(after_mr[1].word, "darcy");
}

TEST(UserWordsTest, WeightsDecayToTheSnapshotsTick) {
  const UserWords u = UserWords::Build({W("old", 2, 0, 0)}, {}, 20000);
  EXPECT_NEAR(u.Find("old")->weight, 2 * std::exp(-1.0), 1e-5);
}

}  // namespace
}  // namespace keydecide
