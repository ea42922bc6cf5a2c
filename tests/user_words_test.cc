// UserWords (src/personal/user_words.h): the snapshot sessions rank with. Spellings of one key
// merge, the most used one kept; prefixes, pairs and weights are found; the offer rule.

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "keydecide/options.h"
#include "personal/user_words.h"

namespace keydecide {
namespace {

LearnedWord W(std::string word, uint32_t count, uint32_t picks = 0, uint64_t last_tick = 10) {
  return {"en", std::move(word), count, picks, static_cast<double>(count), last_tick, 0, 0, "", {}};
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

// Find and PairWeight use hash indices: every word and pair of a store the size of a person's
// is found, with its weight, and a snapshot moved or copied still finds them; nothing else is.
std::string Key(uint32_t i) {
  std::string key = "w";  // appended, not "w" + ...: GCC 12 warns falsely (-Wrestrict) there
  key += std::to_string(i);
  return key;
}

TEST(UserWordsTest, EveryWordAndPairIsFoundInALargeSnapshot) {
  std::vector<LearnedWord> words;
  std::vector<LearnedPair> pairs;
  for (uint32_t i = 0; i < 5000; ++i) {
    words.push_back(W(Key(i), 1 + i % 7));
    if (i > 0) pairs.push_back(P(Key(i - 1), Key(i), 1 + i % 5));
  }
  const UserWords built = UserWords::Build(words, pairs, 10);
  UserWords moved = UserWords::Build(words, pairs, 10);
  const UserWords copied = moved;
  const UserWords taken = std::move(moved);
  for (const UserWords* u : {&built, &copied, &taken}) {
    for (uint32_t i = 0; i < 5000; ++i) {
      const std::string key = Key(i);
      const UserWords::Word* w = u->Find(key);
      ASSERT_NE(w, nullptr) << key;
      EXPECT_EQ(w->key, key);
      EXPECT_FLOAT_EQ(w->weight, static_cast<float>(1 + i % 7));
      if (i > 0) {
        EXPECT_FLOAT_EQ(u->PairWeight(Key(i - 1), key), static_cast<float>(1 + i % 5));
      }
      EXPECT_EQ(u->PairWeight(key, Key(i + 2)), 0);
    }
    EXPECT_EQ(u->Find("w5000"), nullptr);
    EXPECT_EQ(u->Find(""), nullptr);
  }
  const UserWords empty = UserWords::Build({}, {}, 10);
  EXPECT_EQ(empty.Find("w1"), nullptr);
  EXPECT_EQ(empty.PairWeight("w1", "w2"), 0);
}

// Per app type: each spelling's uses add up per app type, decayed as the word's are.
TEST(UserWordsTest, WeightsPerAppType) {
  LearnedWord lambda = W("lambda", 3);
  lambda.apps = {{static_cast<int>(AppType::kCode), 2, 2.0, 10}};
  LearnedWord upper = W("Lambda", 1);
  upper.apps = {{static_cast<int>(AppType::kCode), 1, 1.0, 10},
                {static_cast<int>(AppType::kChat), 1, 1.0, 10}};
  LearnedWord hello = W("hello", 4);
  hello.apps = {{static_cast<int>(AppType::kChat), 4, 4.0, 10}, {99, 1, 1.0, 10}};  // 99: ignored
  const UserWords u = UserWords::Build({lambda, upper, hello}, {}, 10);
  const UserWords::Word* w = u.Find("lambda");
  ASSERT_NE(w, nullptr);
  EXPECT_FLOAT_EQ(w->app_weight[static_cast<int>(AppType::kCode)], 3);
  EXPECT_FLOAT_EQ(w->app_weight[static_cast<int>(AppType::kChat)], 1);
  EXPECT_FLOAT_EQ(w->app_weight[static_cast<int>(AppType::kEditor)], 0);
  EXPECT_FLOAT_EQ(u.app_total_weight(static_cast<int>(AppType::kCode)), 3);
  EXPECT_FLOAT_EQ(u.app_total_weight(static_cast<int>(AppType::kChat)), 5);
  EXPECT_EQ(u.app_total_weight(99), 0);
  EXPECT_EQ(u.app_total_weight(-1), 0);
}

TEST(UserWordsTest, WeightsDecayToTheSnapshotsTick) {
  const UserWords u = UserWords::Build({W("old", 2, 0, 0)}, {}, 20000);
  EXPECT_NEAR(u.Find("old")->weight, 2 * std::exp(-1.0), 1e-5);
}

}  // namespace
}  // namespace keydecide
