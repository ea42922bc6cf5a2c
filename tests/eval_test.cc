#include "tools/eval.h"

#include <gtest/gtest.h>

#include "keydecide/engine.h"
#include "model_fixture.h"
#include "test_util.h"

namespace keydecide {
namespace {

TEST(EvalTest, ParsesTypoPairs) {
  std::unordered_map<std::string, std::string> typo_of;
  size_t skipped = 0;
  ASSERT_TRUE(ParseTypoPairs("teh\tthe\nstasion\tStation\r\nalot\ta lot\ndont\tdon't\n"
                             "teh2\tthe\nthe\tThe\nrecieve\treceive\nrecieev\treceive\n",
                             &typo_of, &skipped)
                  .ok());
  EXPECT_EQ(typo_of.size(), 4u);
  EXPECT_EQ(typo_of["the"], "teh");
  EXPECT_EQ(typo_of["station"], "stasion");
  EXPECT_EQ(typo_of["don't"], "dont");
  EXPECT_EQ(typo_of["receive"], "recieve");  // the first misspelling wins
  EXPECT_EQ(skipped, 3u);                    // "a lot", "teh2", "the"/"The"
  EXPECT_FALSE(ParseTypoPairs("no tab here\n", &typo_of, &skipped).ok());
}

TEST(EvalTest, AutocorrectCountsAndRestoresTheText) {
  auto engine = testing::FixtureEngine(testing::TinyModelBytes());
  ASSERT_NE(engine, nullptr);
  auto session = engine->NewSession(SessionOptions());
  const std::unordered_map<std::string, std::string> typo_of = {{"the", "teh"},
                                                                {"station", "stasion"}};
  const std::string text = "The meeting is at the station.\nWe go.";
  AutocorrectEvalResult r;
  ASSERT_TRUE(EvalAutocorrect(text, typo_of, session.get(), &r).ok());
  EXPECT_EQ(r.typos, 3u);
  EXPECT_EQ(r.correct_words, 8u);   // every word is typed as written too
  EXPECT_EQ(r.unpaired_words, 5u);  // "meeting is at We go"
  EXPECT_LE(r.corrected + r.wrongly_corrected, r.typos);
  EXPECT_LE(r.false_corrections, r.correct_words);
  EXPECT_LE(r.unpaired_false_corrections, r.unpaired_words);
  EXPECT_EQ(session->text(), text);  // every typo was put right again
}

TEST(EvalTest, AutocorrectTraceHasEveryTypoAndEveryFalseCorrection) {
  auto engine = testing::FixtureEngine(testing::TinyModelBytes());
  SessionOptions always;  // threshold 0: every decision applies its replacement
  always.autocorrect_threshold = 0;
  auto session = engine->NewSession(always);
  AutocorrectEvalResult r;
  std::vector<AutocorrectTrace> trace;
  ASSERT_TRUE(
      EvalAutocorrect("The cat and the dog", {{"the", "teh"}}, session.get(), &r, nullptr, &trace)
          .ok());
  std::vector<AutocorrectTrace> typos, changed;
  for (const AutocorrectTrace& t : trace) (t.misspelt ? typos : changed).push_back(t);
  ASSERT_EQ(typos.size(), 2u);
  EXPECT_EQ(typos[0].word, "The");
  EXPECT_EQ(typos[0].typed, "Teh");  // the first letter's case kept
  EXPECT_EQ(typos[1].word, "the");
  EXPECT_EQ(typos[1].typed, "teh");
  uint64_t applied = 0;
  for (const AutocorrectTrace& t : typos) {
    applied += t.applied;
    EXPECT_GE(t.confidence, 0.0f);
    EXPECT_LE(t.confidence, 1.0f);
  }
  EXPECT_EQ(applied, r.corrected + r.wrongly_corrected);
  EXPECT_EQ(changed.size(), r.false_corrections);
  for (const AutocorrectTrace& t : changed) {
    EXPECT_TRUE(t.applied);
    EXPECT_EQ(t.typed, t.word);
  }
}

TEST(EvalTest, AutocorrectWithoutAModelNeverCorrects) {
  auto engine = testing::FixtureEngine();
  auto session = engine->NewSession(SessionOptions());
  AutocorrectEvalResult r;
  ASSERT_TRUE(EvalAutocorrect("see teh dog", {{"the", "teh"}}, session.get(), &r).ok());
  EXPECT_EQ(r.typos, 0u);  // "teh" is not the correct side of a pair
  EXPECT_EQ(r.false_corrections, 0u);
}

TEST(EvalTest, Intent) {
  auto engine = testing::FixtureEngine(testing::TinyModelBytes());
  IntentEvalResult r;
  ASSERT_TRUE(
      EvalIntent("prose\tthe dog sleeps\ncode\tint main() {\n\nurl\twww.debian.org\n", *engine, &r)
          .ok());
  EXPECT_EQ(r.total, 3u);
  EXPECT_EQ(r.labels.size(), 3u);
  EXPECT_LE(r.correct, r.total);
  EXPECT_FALSE(EvalIntent("no label here\n", *engine, &r).ok());
  auto baseline = testing::FixtureEngine();
  EXPECT_EQ(EvalIntent("prose\tx\n", *baseline, &r).code(), Status::Code::kNotSupported);
}

}  // namespace
}  // namespace keydecide
