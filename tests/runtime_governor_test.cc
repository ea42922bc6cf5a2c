// The latency governor on synthetic latencies: no clocks, every step is deterministic.

#include "runtime/latency_governor.h"

#include <gtest/gtest.h>

namespace keydecide {
namespace {

constexpr float kBudget = 1000;  // µs
constexpr float kSlow = 3000;    // breaks the budget
constexpr float kFast = 100;     // well inside step_up_fraction * budget
constexpr float kMiddle = 800;   // inside the budget, but not enough room to step up

GovernorOptions Options(int window = 8) {
  GovernorOptions o;
  o.budget_us = kBudget;
  o.window = window;
  o.step_up_fraction = 0.5f;
  return o;
}

const std::vector<Tier> kLadder = {Tier::kFullModel, Tier::kNoVocabProposals, Tier::kLexiconOnly};

// Records `us` until the tier changes; returns how many samples that took (or -1).
int RecordUntilChange(LatencyGovernor* g, float us, int limit = 10000) {
  for (int i = 1; i <= limit; ++i) {
    if (g->Record(us)) return i;
  }
  return -1;
}

TEST(LatencyGovernorTest, StepsDownOneRungAtATimeWhenTheBudgetIsBroken) {
  LatencyGovernor g(Options(), kLadder);
  EXPECT_EQ(g.tier(), Tier::kFullModel);
  EXPECT_EQ(RecordUntilChange(&g, kSlow), 2);  // window / 4 samples are enough to judge
  EXPECT_EQ(g.tier(), Tier::kNoVocabProposals);
  EXPECT_EQ(RecordUntilChange(&g, kSlow), 2);
  EXPECT_EQ(g.tier(), Tier::kLexiconOnly);
  EXPECT_EQ(RecordUntilChange(&g, kSlow, 100), -1);  // the bottom rung is the floor
  EXPECT_EQ(g.tier(), Tier::kLexiconOnly);
}

TEST(LatencyGovernorTest, StepsBackUpAfterAFullFastWindow) {
  LatencyGovernor g(Options(), kLadder);
  RecordUntilChange(&g, kSlow);
  ASSERT_EQ(g.tier(), Tier::kNoVocabProposals);
  EXPECT_EQ(RecordUntilChange(&g, kFast), 8);
  EXPECT_EQ(g.tier(), Tier::kFullModel);
  EXPECT_EQ(RecordUntilChange(&g, kFast, 100), -1);  // the top rung is the ceiling
}

TEST(LatencyGovernorTest, StaysWhenInsideTheBudgetWithoutRoomToSpare) {
  LatencyGovernor g(Options(), kLadder);
  RecordUntilChange(&g, kSlow);
  ASSERT_EQ(g.tier(), Tier::kNoVocabProposals);
  EXPECT_EQ(RecordUntilChange(&g, kMiddle, 200), -1);
  EXPECT_EQ(g.tier(), Tier::kNoVocabProposals);
}

TEST(LatencyGovernorTest, OneOutlierDoesNotMoveIt) {
  LatencyGovernor g(Options(/*window=*/20), kLadder);
  for (int i = 0; i < 100; ++i) {
    EXPECT_FALSE(g.Record(i % 20 == 10 ? kSlow : kFast)) << i;  // 5% slow: P90 is fast
  }
  EXPECT_EQ(g.tier(), Tier::kFullModel);
}

TEST(LatencyGovernorTest, AFailedStepUpDoublesTheWait) {
  LatencyGovernor g(Options(), kLadder);
  RecordUntilChange(&g, kSlow);
  ASSERT_EQ(g.tier(), Tier::kNoVocabProposals);
  EXPECT_EQ(g.backoff_windows(), 1);
  // The lower rung is fast, the upper one slow: each retry waits twice as long.
  for (int expected_wait : {8, 16, 32, 64}) {
    EXPECT_EQ(RecordUntilChange(&g, kFast), expected_wait);
    ASSERT_EQ(g.tier(), Tier::kFullModel);
    EXPECT_EQ(RecordUntilChange(&g, kSlow), 2);
    ASSERT_EQ(g.tier(), Tier::kNoVocabProposals);
  }
  EXPECT_EQ(g.backoff_windows(), 16);
  // Once the upper rung holds for a full window the wait is back to one window.
  EXPECT_EQ(RecordUntilChange(&g, kFast), 8 * 16);
  EXPECT_EQ(RecordUntilChange(&g, kFast, 8), -1);
  EXPECT_EQ(g.backoff_windows(), 1);
}

TEST(LatencyGovernorTest, ABudgetOfZeroTurnsItOff) {
  GovernorOptions o = Options();
  o.budget_us = 0;
  LatencyGovernor g(o, kLadder);
  EXPECT_EQ(RecordUntilChange(&g, 1e9f, 100), -1);
  EXPECT_EQ(g.tier(), Tier::kFullModel);
}

TEST(LatencyGovernorTest, ASingleRungLadderNeverMoves) {
  LatencyGovernor g(Options(), {Tier::kLexiconOnly});
  EXPECT_EQ(RecordUntilChange(&g, kSlow, 100), -1);
  EXPECT_EQ(g.tier(), Tier::kLexiconOnly);
}

TEST(LatencyGovernorTest, WindowQuantileSeesOnlyTheCurrentRung) {
  LatencyGovernor g(Options(), kLadder);
  EXPECT_EQ(g.WindowQuantile(0.5f), 0);
  g.Record(kFast);
  EXPECT_EQ(g.WindowQuantile(0.5f), kFast);
  RecordUntilChange(&g, kSlow);
  EXPECT_EQ(g.WindowQuantile(0.9f), 0);  // a new rung starts with an empty window
}

}  // namespace
}  // namespace keydecide
