#include "tools/eval.h"

#include <gtest/gtest.h>

#include "decide/en/context_state.h"
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

// A curly apostrophe between letters goes on with the word, as the engine reads it: "isn’t" is
// one word (not "isn" then "t"), paired by its straight spelling.
TEST(EvalTest, AutocorrectReadsCurlyApostrophesInsideWords) {
  auto engine = testing::FixtureEngine(testing::TinyModelBytes());
  auto session = engine->NewSession(SessionOptions());
  const std::string text = "It isn\u2019t here, it isn't there\u2019";
  AutocorrectEvalResult r;
  std::vector<AutocorrectTrace> trace;
  ASSERT_TRUE(EvalAutocorrect(text, {{"isn't", "isnt"}}, session.get(), &r, nullptr, &trace).ok());
  EXPECT_EQ(r.typos, 2u);
  EXPECT_EQ(r.correct_words, 6u);
  std::vector<AutocorrectTrace> typos;
  for (const AutocorrectTrace& t : trace) {
    if (t.misspelt) typos.push_back(t);
  }
  ASSERT_EQ(typos.size(), 2u);
  EXPECT_EQ(typos[0].word, "isn\u2019t");
  EXPECT_EQ(typos[0].typed, "isnt");
  EXPECT_EQ(typos[1].word, "isn't");
  EXPECT_EQ(session->text(), text);
}

TEST(EvalTest, AutocorrectWithoutAModelNeverCorrects) {
  auto engine = testing::FixtureEngine();
  auto session = engine->NewSession(SessionOptions());
  AutocorrectEvalResult r;
  ASSERT_TRUE(EvalAutocorrect("see teh dog", {{"the", "teh"}}, session.get(), &r).ok());
  EXPECT_EQ(r.typos, 0u);  // "teh" is not the correct side of a pair
  EXPECT_EQ(r.false_corrections, 0u);
}

// `eval context-states` reads each line as a session does: the intent it computes from the
// states it writes is the session's.
TEST(EvalTest, ContextStatesReadWhatASessionReads) {
  const std::string model_bytes = testing::TinyModelBytes();
  const std::string path = testing::TempPath("states.safetensors");
  testing::WriteFile(path, model_bytes);
  const std::vector<std::string_view> lines = {"the dog sleeps", "int main() {", "www.debian.org"};
  int d_model = 0;
  std::vector<float> states, intent;
  std::vector<std::string> labels;
  ASSERT_TRUE(ContextStates(path, AppType::kChat, lines, &d_model, &states, &labels, &intent).ok());
  ASSERT_GT(d_model, 0);
  ASSERT_FALSE(labels.empty());
  EXPECT_EQ(states.size(), lines.size() * d_model);
  ASSERT_EQ(intent.size(), lines.size() * labels.size());
  auto engine = testing::FixtureEngine(model_bytes);
  for (size_t i = 0; i < lines.size(); ++i) {
    auto session = engine->NewSession(SessionOptions());
    ASSERT_TRUE(session->SetContext(lines[i]).ok());
    Decision d;
    ASSERT_TRUE(session->Decide(1, &d).ok());
    ASSERT_EQ(d.intent.probabilities.size(), labels.size());
    for (size_t j = 0; j < labels.size(); ++j) {
      EXPECT_FLOAT_EQ(intent[i * labels.size() + j], d.intent.probabilities[j]) << lines[i];
    }
  }
  EXPECT_FALSE(ContextStates(testing::TempPath("missing.safetensors"), AppType::kChat, lines,
                             &d_model, &states, &labels, &intent)
                   .ok());
  const std::vector<std::string_view> broken = {"ok", "\xff\xfe"};
  EXPECT_FALSE(
      ContextStates(path, AppType::kChat, broken, &d_model, &states, &labels, &intent).ok());
  std::remove(path.c_str());
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
