// PinyinSession through Engine::Open with language "zh" on a small pinyin-keyed fixture
// lexicon: conversion, the whole sentence first, syllable breaks in the preedit, Accept keeping
// the rest of the composition, Backspace, characters that commit as typed, refused input, no
// allocation once warm, with a word bigram beside the lexicon the context of the word just
// committed and 联想, and models/zh/lexicon.kdlex when it is there.

#include "decide/zh/zh_session.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "allocation_hook.h"
#include "keydecide/engine.h"
#include "lexicon/lexicon.h"
#include "lexicon/word_bigram_builder.h"
#include "test_util.h"

namespace keydecide {
namespace {

std::string FixtureLexiconBytes() {
  return testing::PinyinLexiconBytes({{"zhongguo", "中国", 5000},
                                      {"zhongguoren", "中国人", 2000},
                                      {"zhong", "中", 8000},
                                      {"zhong", "种", 3000},
                                      {"guo", "过", 6000},
                                      {"guo", "国", 3000},
                                      {"ren", "人", 9000},
                                      {"nihao", "你好", 4000},
                                      {"ni", "你", 7000},
                                      {"hao", "好", 6000},
                                      {"xian", "先", 4000},
                                      {"xi", "西", 2000},
                                      {"an", "安", 1500}});
}

// The fixture engine with extra options (fuzzy pinyin, typos, beam, a model), or its error. The
// lexicon file is removed once open: mapped, the engine keeps it alive.
Status OpenZh(void (*configure)(EngineOptions*), std::unique_ptr<Engine>* engine) {
  const std::string path = testing::TempPath("pinyin_fixture.kdlex");
  testing::WriteFile(path, FixtureLexiconBytes());
  EngineOptions options;
  options.model_dir = KD_MODELS_DIR;
  options.language = "zh";
  options.lexicon_path = path;
  options.model_path = "none";  // the shipped zh model is for the shipped lexicon
  configure(&options);
  const Status s = Engine::Open(options, engine);
  std::remove(path.c_str());
  return s;
}

std::unique_ptr<Engine> ZhEngine() {
  std::unique_ptr<Engine> engine;
  const Status s = OpenZh([](EngineOptions*) {}, &engine);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return engine;
}

class PinyinSessionTest : public ::testing::Test {
 protected:
  PinyinSessionTest() : engine_(ZhEngine()) {
    if (engine_) session_ = engine_->NewSession({});
  }

  void SetUp() override { ASSERT_NE(session_, nullptr); }

  Decision Decide(int k = 10) {
    Decision d;
    const Status s = session_->Decide(k, &d);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return d;
  }

  std::unique_ptr<Engine> engine_;
  std::unique_ptr<Session> session_;
};

TEST_F(PinyinSessionTest, EngineInfo) {
  const Engine::Info info = engine_->info();
  EXPECT_EQ(info.language, "zh");
  EXPECT_TRUE(info.model_path.empty());
  EXPECT_GT(info.lexicon_words, 0u);
}

TEST_F(PinyinSessionTest, ZhongguoOffersZhongguoFirst) {
  ASSERT_TRUE(session_->Type("zhongguo").ok());
  EXPECT_EQ(session_->composition(), "zhongguo");
  const Decision d = Decide();
  ASSERT_FALSE(d.candidates.empty());
  EXPECT_EQ(d.candidates[0].text, "中国");
  EXPECT_EQ(d.candidates[0].kind, CandidateKind::kCompletion);
  EXPECT_EQ(d.composition, "zhongguo");
  EXPECT_FALSE(d.has_model);
  EXPECT_EQ(d.tier, Tier::kLexiconOnly);
  EXPECT_TRUE(d.popup.show);
  EXPECT_GE(d.timings.total_us, 0.0f);
}

TEST_F(PinyinSessionTest, AcceptWholeComposition) {
  ASSERT_TRUE(session_->Type("zhongguo").ok());
  Decide();
  ASSERT_TRUE(session_->Accept("中国").ok());
  EXPECT_EQ(session_->text(), "中国");
  EXPECT_EQ(session_->composition(), "");
  const Decision d = Decide();
  EXPECT_TRUE(d.candidates.empty());
  EXPECT_EQ(d.composition, "");
  EXPECT_FALSE(d.popup.show);
}

TEST_F(PinyinSessionTest, AcceptPrefixKeepsTheRest) {
  ASSERT_TRUE(session_->Type("zhongguoren").ok());
  const Decision d = Decide(20);
  ASSERT_FALSE(d.candidates.empty());
  EXPECT_EQ(d.candidates[0].text, "中国人");
  ASSERT_TRUE(session_->Accept("中国").ok());
  EXPECT_EQ(session_->text(), "中国ren");
  EXPECT_EQ(session_->composition(), "ren");
  const Decision next = Decide();
  ASSERT_FALSE(next.candidates.empty());
  EXPECT_EQ(next.candidates[0].text, "人");
  ASSERT_TRUE(session_->Accept("人").ok());
  EXPECT_EQ(session_->text(), "中国人");
  EXPECT_EQ(session_->composition(), "");
}

TEST_F(PinyinSessionTest, SentenceFirstThenTheWordsThatStartIt) {
  ASSERT_TRUE(session_->Type("nihaozhongguo").ok());
  const Decision d = Decide(10);
  ASSERT_GE(d.candidates.size(), 2u);
  EXPECT_EQ(d.candidates[0].text, "你好中国");
  EXPECT_EQ(d.candidates[0].kind, CandidateKind::kSentence);
  // At most two sentences, then the words, the longest that starts the sentence first.
  size_t words = 1;
  while (words < d.candidates.size() && d.candidates[words].kind == CandidateKind::kSentence) {
    ++words;
  }
  EXPECT_LE(words, 2u);
  ASSERT_LT(words, d.candidates.size());
  EXPECT_EQ(d.candidates[words].text, "你好");
  EXPECT_EQ(d.candidates[words].kind, CandidateKind::kCompletion);
  for (size_t i = 1; i < d.candidates.size(); ++i) EXPECT_NE(d.candidates[i].text, "你好中国");
  EXPECT_EQ(d.composition, "nihaozhongguo");
  EXPECT_EQ(d.preedit, "ni'hao'zhong'guo");

  // One word is not offered twice: "nihao" is the word 你好, no sentence candidate.
  ASSERT_TRUE(session_->SetContext("").ok());
  ASSERT_TRUE(session_->Type("nihao").ok());
  const Decision one = Decide(10);
  ASSERT_FALSE(one.candidates.empty());
  EXPECT_EQ(one.candidates[0].text, "你好");
  EXPECT_EQ(one.candidates[0].kind, CandidateKind::kCompletion);
  EXPECT_EQ(one.preedit, "ni'hao");
}

TEST_F(PinyinSessionTest, AcceptSentenceOrFirstWord) {
  ASSERT_TRUE(session_->Type("nihaozhongguo").ok());
  ASSERT_TRUE(session_->Accept("你好中国").ok());
  EXPECT_EQ(session_->text(), "你好中国");
  EXPECT_EQ(session_->composition(), "");

  // Picking a word commits its letters and re-converts the rest.
  ASSERT_TRUE(session_->SetContext("").ok());
  ASSERT_TRUE(session_->Type("nihaozhongguo").ok());
  ASSERT_TRUE(session_->Accept("你好").ok());
  EXPECT_EQ(session_->text(), "你好zhongguo");
  const Decision rest = Decide(10);
  ASSERT_FALSE(rest.candidates.empty());
  EXPECT_EQ(rest.candidates[0].text, "中国");
  EXPECT_EQ(rest.preedit, "zhong'guo");
}

TEST_F(PinyinSessionTest, AcceptWithoutDecideAndApostrophe) {
  ASSERT_TRUE(session_->Type("xi'an").ok());
  EXPECT_EQ(session_->composition(), "xi'an");
  ASSERT_TRUE(session_->Accept("西").ok());  // no Decide in between: searched on demand
  EXPECT_EQ(session_->text(), "西an");
  EXPECT_EQ(session_->composition(), "an");
}

TEST_F(PinyinSessionTest, AcceptUnknownWordReplacesComposition) {
  ASSERT_TRUE(session_->Type("nihao").ok());
  ASSERT_TRUE(session_->Accept("您好").ok());
  EXPECT_EQ(session_->text(), "您好");
  EXPECT_EQ(session_->composition(), "");
}

TEST_F(PinyinSessionTest, Backspace) {
  ASSERT_TRUE(session_->Type("nihaoo").ok());
  ASSERT_TRUE(session_->Backspace().ok());
  EXPECT_EQ(session_->composition(), "nihao");
  Decision d = Decide();
  ASSERT_FALSE(d.candidates.empty());
  EXPECT_EQ(d.candidates[0].text, "你好");
  ASSERT_TRUE(session_->Accept("你好").ok());
  ASSERT_TRUE(session_->Backspace().ok());  // empty composition: edits the text
  EXPECT_EQ(session_->text(), "你");
  EXPECT_EQ(session_->composition(), "");
  ASSERT_TRUE(session_->Backspace().ok());
  ASSERT_TRUE(session_->Backspace().ok());  // nothing left: no-op
  EXPECT_EQ(session_->text(), "");
}

TEST_F(PinyinSessionTest, SpaceAndPunctuationCommitAsTyped) {
  ASSERT_TRUE(session_->Type("nihao ").ok());
  EXPECT_EQ(session_->text(), "nihao ");
  EXPECT_EQ(session_->composition(), "");
  EXPECT_TRUE(Decide().candidates.empty());
  ASSERT_TRUE(session_->Type("zhong，").ok());
  EXPECT_EQ(session_->text(), "nihao zhong，");
  EXPECT_EQ(session_->composition(), "");
  ASSERT_TRUE(session_->Type("ni.").ok());
  EXPECT_EQ(session_->text(), "nihao zhong，ni.");
  ASSERT_TRUE(session_->Type("'A").ok());  // an apostrophe starts no composition
  EXPECT_EQ(session_->composition(), "");
  ASSERT_TRUE(session_->Type("hao").ok());
  EXPECT_EQ(session_->composition(), "hao");
}

TEST_F(PinyinSessionTest, InvalidInputRefused) {
  ASSERT_TRUE(session_->Type("ni").ok());
  EXPECT_FALSE(session_->Type("\xff").ok());
  EXPECT_FALSE(session_->Type("a\xc3").ok());
  EXPECT_EQ(session_->text(), "ni");
  EXPECT_FALSE(session_->Accept("\xe4\xbd").ok());
  EXPECT_FALSE(session_->Accept("你 好").ok());
  EXPECT_FALSE(session_->SetContext("\xff").ok());
  EXPECT_EQ(session_->text(), "ni");
  Decision d;
  EXPECT_FALSE(session_->Decide(-1, &d).ok());
}

TEST_F(PinyinSessionTest, SetContext) {
  ASSERT_TRUE(session_->Type("ni").ok());
  ASSERT_TRUE(session_->SetContext("你好").ok());
  EXPECT_EQ(session_->text(), "你好");
  EXPECT_EQ(session_->composition(), "");
}

std::string Repeat(std::string_view s, size_t n) {
  std::string out;
  for (size_t i = 0; i < n; ++i) out += s;
  return out;
}

std::string WithoutApostrophes(std::string_view s) {
  std::string out;
  for (const char c : s) {
    if (c != '\'') out.push_back(c);
  }
  return out;
}

TEST_F(PinyinSessionTest, LongCompositionConverts) {
  // 256 and 608 letters typed one at a time without a pause: the whole sentence first, the
  // words that start it after, the preedit's breaks over every letter; accepting the sentence
  // replaces every letter.
  for (const size_t repeats : {16, 38}) {
    const std::string typed = Repeat("nihaozhongguoren", repeats);
    const std::string expected = Repeat("你好中国人", repeats);
    ASSERT_TRUE(session_->SetContext("").ok());
    Decision d;
    for (const char c : typed) {
      ASSERT_TRUE(session_->Type(std::string(1, c)).ok());
      ASSERT_TRUE(session_->Decide(10, &d).ok());
    }
    EXPECT_EQ(session_->composition(), typed);
    ASSERT_GE(d.candidates.size(), 2u);
    EXPECT_EQ(d.candidates[0].text, expected) << typed.size() << " letters";
    EXPECT_EQ(d.candidates[0].kind, CandidateKind::kSentence);
    bool starts = false;
    for (const Candidate& c : d.candidates) starts = starts || c.text == "你好";
    EXPECT_TRUE(starts);
    EXPECT_EQ(WithoutApostrophes(d.preedit), typed);
    EXPECT_EQ(d.preedit.substr(0, 20), "ni'hao'zhong'guo'ren");
    // Typed at once, the same.
    auto other = engine_->NewSession({});
    ASSERT_TRUE(other->Type(typed).ok());
    Decision at_once;
    ASSERT_TRUE(other->Decide(10, &at_once).ok());
    ASSERT_FALSE(at_once.candidates.empty());
    EXPECT_EQ(at_once.candidates[0].text, expected);
    ASSERT_TRUE(session_->Accept(d.candidates[0].text).ok());
    EXPECT_EQ(session_->text(), expected);
    EXPECT_EQ(session_->composition(), "");
  }
}

TEST_F(PinyinSessionTest, LongCompositionFirstWordKeepsTheRest) {
  const std::string typed = Repeat("nihaozhongguoren", 10);
  ASSERT_TRUE(session_->Type(typed).ok());
  Decision d = Decide();
  ASSERT_TRUE(session_->Accept("你好").ok());
  EXPECT_EQ(session_->text(), "你好" + typed.substr(5));
  EXPECT_EQ(session_->composition(), typed.substr(5));
  d = Decide();
  ASSERT_FALSE(d.candidates.empty());
  EXPECT_EQ(d.candidates[0].text, "中国人" + Repeat("你好中国人", 9));
  // Deleting back under the window converts what is left.
  for (size_t i = 0; i < 112; ++i) ASSERT_TRUE(session_->Backspace().ok());
  EXPECT_EQ(session_->composition(), "zhongguoren" + Repeat("nihaozhongguoren", 2));
  d = Decide();
  ASSERT_FALSE(d.candidates.empty());
  EXPECT_EQ(d.candidates[0].text, "中国人" + Repeat("你好中国人", 2));
}

TEST_F(PinyinSessionTest, LongCompositionCommitsAsTypedPastTheCap) {
  const std::string many(PinyinWindow::kMaxComposition, 'a');
  ASSERT_TRUE(session_->Type(many).ok());
  EXPECT_EQ(session_->composition().size(), PinyinWindow::kMaxComposition);
  Decide();  // no crash; whatever it finds
  ASSERT_TRUE(session_->Type("ni").ok());
  EXPECT_EQ(session_->composition(), "ni");
  EXPECT_EQ(session_->text(), many + "ni");
}

TEST_F(PinyinSessionTest, NoAllocationOnceWarm) {
  Decision d;
  for (const char* keys : {"zhongguoren", " ", "nihaozhongguo", " ", "nihao"}) {
    ASSERT_TRUE(session_->Type(keys).ok());
    ASSERT_TRUE(session_->Decide(10, &d).ok());
  }
  ASSERT_TRUE(session_->SetContext("").ok());
  ASSERT_TRUE(session_->Decide(10, &d).ok());
  const long before = testing::Allocations();
  for (int round = 0; round < 3; ++round) {
    for (const char* keys : {"z", "h", "o", "n", "g", "g", "u", "o", "r", "e", "n"}) {
      ASSERT_TRUE(session_->Type(keys).ok());
      ASSERT_TRUE(session_->Decide(10, &d).ok());
    }
    ASSERT_TRUE(session_->Accept("中国").ok());
    ASSERT_TRUE(session_->Decide(10, &d).ok());
    ASSERT_TRUE(session_->Type("nihaozhongguo").ok());
    ASSERT_TRUE(session_->Decide(10, &d).ok());
    ASSERT_TRUE(session_->Accept("你好").ok());
    ASSERT_TRUE(session_->Decide(10, &d).ok());
    ASSERT_TRUE(session_->Accept(d.candidates[0].text).ok());
    ASSERT_TRUE(session_->Decide(10, &d).ok());
    ASSERT_TRUE(session_->Backspace().ok());
    ASSERT_TRUE(session_->Decide(10, &d).ok());
    ASSERT_TRUE(session_->Type(" ").ok());
    ASSERT_TRUE(session_->Decide(10, &d).ok());
  }
  EXPECT_EQ(testing::Allocations() - before, 0);
}

// The fixture lexicon with a bigram beside it, trained on `text`; the engine's files are removed
// once mapped. No model unless `model` names one ("": the shipped zh model).
std::unique_ptr<Engine> ZhEngineWithBigram(std::string_view text, Status* status,
                                           const std::string& model = "none",
                                           float model_weight = 0.7f) {
  const std::string lexicon_path = testing::TempPath("pinyin_bigram.kdlex");
  const std::string bigram_path = testing::TempPath("pinyin_bigram.kdbg");
  const std::string lexicon_bytes = FixtureLexiconBytes();
  testing::WriteFile(lexicon_path, lexicon_bytes);
  std::unique_ptr<Lexicon> lexicon;
  EXPECT_TRUE(Lexicon::FromBytes(lexicon_bytes, &lexicon).ok());
  WordBigramBuilder::Options bigram_options;
  bigram_options.min_pair_count = 1;
  WordBigramBuilder builder(*lexicon, bigram_options);
  builder.AddText(text);
  std::string bigram_bytes;
  WordBigramBuilder::Stats stats;
  EXPECT_TRUE(builder.Finish(&bigram_bytes, &stats).ok());
  if (text.empty()) bigram_bytes = "not a bigram file";
  testing::WriteFile(bigram_path, bigram_bytes);
  EngineOptions options;
  options.model_dir = KD_MODELS_DIR;
  options.language = "zh";
  options.lexicon_path = lexicon_path;
  options.model_path = model;
  options.pinyin.model_weight = model_weight;
  std::unique_ptr<Engine> engine;
  *status = Engine::Open(options, &engine);
  std::remove(lexicon_path.c_str());
  std::remove(bigram_path.c_str());
  return engine;
}

TEST(PinyinBigramTest, NextWordsAfterACommit) {
  Status opened;
  const auto engine = ZhEngineWithBigram("你好中国过。你好中国过。你好中国", &opened);
  ASSERT_TRUE(opened.ok()) << opened.ToString();
  EXPECT_EQ(engine->info().scorer, "lexicon+bigram");
  auto session = engine->NewSession({});
  Decision d;
  ASSERT_TRUE(session->Type("nihao").ok());
  ASSERT_TRUE(session->Accept("你好").ok());
  ASSERT_TRUE(session->Decide(5, &d).ok());
  ASSERT_FALSE(d.candidates.empty());
  EXPECT_EQ(d.candidates[0].text, "中国");  // what followed 你好 every time
  EXPECT_EQ(d.candidates[0].kind, CandidateKind::kNextWord);
  EXPECT_LE(d.candidates[0].score, 0.0f);

  // Picking it goes on from it: 中国 was followed by 过.
  ASSERT_TRUE(session->Accept("中国").ok());
  EXPECT_EQ(session->text(), "你好中国");
  ASSERT_TRUE(session->Decide(5, &d).ok());
  ASSERT_FALSE(d.candidates.empty());
  EXPECT_EQ(d.candidates[0].text, "过");

  // Punctuation, SetContext and deleting into the text forget the word.
  ASSERT_TRUE(session->Type("。").ok());
  ASSERT_TRUE(session->Decide(5, &d).ok());
  EXPECT_TRUE(d.candidates.empty());
  ASSERT_TRUE(session->Type("nihao").ok());
  ASSERT_TRUE(session->Accept("你好").ok());
  ASSERT_TRUE(session->Backspace().ok());
  ASSERT_TRUE(session->Decide(5, &d).ok());
  EXPECT_TRUE(d.candidates.empty());

  // The sentence search still converts as before.
  ASSERT_TRUE(session->SetContext("").ok());
  ASSERT_TRUE(session->Type("nihaozhongguo").ok());
  ASSERT_TRUE(session->Decide(5, &d).ok());
  ASSERT_FALSE(d.candidates.empty());
  EXPECT_EQ(d.candidates[0].text, "你好中国");
}

// With the model, the 联想 words are the bigram's followers ranked by their bigram score plus
// pinyin.model_weight × the model's log P; weight 0 keeps the bigram's order and scores.
TEST(PinyinBigramTest, NextWordsRankedWithTheModel) {
  // After 你好: 中国 three times, 人 twice, 先 and 西 once.
  const std::string_view text = "你好中国。你好中国。你好中国。你好人。你好人。你好先。你好西";
  const auto next_words = [&](float weight) {
    Status opened;
    const auto engine = ZhEngineWithBigram(text, &opened, "", weight);
    EXPECT_TRUE(opened.ok()) << opened.ToString();
    auto session = engine->NewSession({});
    Decision d;
    EXPECT_TRUE(session->Type("nihao").ok());
    EXPECT_TRUE(session->Accept("你好").ok());
    EXPECT_TRUE(session->Decide(10, &d).ok());
    return d.candidates;
  };
  const std::vector<Candidate> counted = next_words(0.0f), ranked = next_words(0.7f);
  ASSERT_EQ(counted.size(), 4u);
  EXPECT_EQ(counted[0].text, "中国");
  EXPECT_EQ(counted[1].text, "人");
  EXPECT_NEAR(counted[0].score, std::log(3.0f / 7.0f), 1e-5f);
  EXPECT_NEAR(counted[1].score, std::log(2.0f / 7.0f), 1e-5f);
  // The same words, each below its bigram score by the model's share (log P < 0), best first.
  ASSERT_EQ(ranked.size(), counted.size());
  for (size_t i = 0; i < ranked.size(); ++i) {
    EXPECT_EQ(ranked[i].kind, CandidateKind::kNextWord);
    if (i > 0) {
      EXPECT_GE(ranked[i - 1].score, ranked[i].score);
    }
    const auto same = std::find_if(counted.begin(), counted.end(),
                                   [&](const Candidate& c) { return c.text == ranked[i].text; });
    ASSERT_NE(same, counted.end()) << ranked[i].text;
    EXPECT_LT(ranked[i].score, same->score) << ranked[i].text;
  }
}

TEST(PinyinBigramTest, NoAllocationOnceWarm) {
  Status opened;
  const auto engine = ZhEngineWithBigram("你好中国过。你好中国过。你好中国", &opened);
  ASSERT_TRUE(opened.ok()) << opened.ToString();
  auto session = engine->NewSession({});
  Decision d;
  const auto round = [&] {
    for (const char* keys : {"n", "i", "h", "a", "o", "z", "h", "o", "n", "g", "g", "u", "o"}) {
      ASSERT_TRUE(session->Type(keys).ok());
      ASSERT_TRUE(session->Decide(10, &d).ok());
    }
    ASSERT_TRUE(session->Accept("你好").ok());
    ASSERT_TRUE(session->Decide(10, &d).ok());
    ASSERT_TRUE(session->Accept("中国").ok());
    ASSERT_TRUE(session->Decide(10, &d).ok());  // 联想
    ASSERT_FALSE(d.candidates.empty());
    ASSERT_TRUE(session->Accept(d.candidates[0].text).ok());
    ASSERT_TRUE(session->Decide(10, &d).ok());
    ASSERT_TRUE(session->Type("。").ok());
  };
  round();
  const long before = testing::Allocations();
  for (int i = 0; i < 3; ++i) round();
  EXPECT_EQ(testing::Allocations() - before, 0);
}

// The same rounds with the shipped zh model: the sentences rescored, the keystrokes read, the
// committed text read as the model's context, and still no allocation once warm.
TEST(PinyinBigramTest, NoAllocationOnceWarmWithTheModel) {
  Status opened;
  const auto engine = ZhEngineWithBigram("你好中国过。你好中国过。你好中国", &opened, "");
  ASSERT_TRUE(opened.ok()) << opened.ToString();
  ASSERT_EQ(engine->info().scorer, "lexicon+bigram+model");
  auto session = engine->NewSession({});
  Decision d;
  const auto round = [&] {
    for (const char* keys : {"n", "i", "h", "a", "o", "z", "h", "o", "n", "g", "g", "u", "o"}) {
      ASSERT_TRUE(session->Type(keys).ok());
      ASSERT_TRUE(session->Decide(10, &d).ok());
      ASSERT_TRUE(d.has_model);
    }
    ASSERT_TRUE(session->Accept(d.candidates[0].text).ok());
    ASSERT_TRUE(session->Decide(10, &d).ok());
    ASSERT_TRUE(session->Type("。").ok());
  };
  for (int i = 0; i < 12; ++i) round();  // the paragraph grows past the context window
  const long before = testing::Allocations();
  for (int i = 0; i < 3; ++i) round();
  EXPECT_EQ(testing::Allocations() - before, 0);
}

TEST(PinyinBigramTest, LongCompositionWithTheModel) {
  Status opened;
  const auto engine = ZhEngineWithBigram("你好中国过。你好中国过。你好中国", &opened, "");
  ASSERT_TRUE(opened.ok()) << opened.ToString();
  ASSERT_EQ(engine->info().scorer, "lexicon+bigram+model");
  auto session = engine->NewSession({});
  const std::string typed = Repeat("nihaozhongguo", 24);  // 312 letters
  Decision d;
  for (const char c : typed) {
    ASSERT_TRUE(session->Type(std::string(1, c)).ok());
    ASSERT_TRUE(session->Decide(10, &d).ok());
  }
  ASSERT_FALSE(d.candidates.empty());
  EXPECT_EQ(d.candidates[0].text, Repeat("你好中国", 24));
  EXPECT_EQ(d.tier, Tier::kFullModel);
  for (const Candidate& c : d.candidates) EXPECT_TRUE(std::isfinite(c.score));
}

TEST(PinyinBigramTest, LongCompositionNoAllocationOnceWarm) {
  Status opened;
  const auto engine = ZhEngineWithBigram("你好中国过。你好中国过。你好中国", &opened, "");
  ASSERT_TRUE(opened.ok()) << opened.ToString();
  auto session = engine->NewSession({});
  const std::string typed = Repeat("nihaozhongguo", 24);  // 312 letters, windows fixed
  Decision d;
  const auto round = [&] {
    for (const char c : typed) {
      ASSERT_TRUE(session->Type(std::string(1, c)).ok());
      ASSERT_TRUE(session->Decide(10, &d).ok());
    }
    for (int i = 0; i < 40; ++i) {  // deleting back into fixed windows, and typing on again
      ASSERT_TRUE(session->Backspace().ok());
      ASSERT_TRUE(session->Decide(10, &d).ok());
    }
    ASSERT_TRUE(session->Type(std::string_view(typed).substr(typed.size() - 40)).ok());
    ASSERT_TRUE(session->Decide(10, &d).ok());
    ASSERT_FALSE(d.candidates.empty());
    ASSERT_TRUE(session->Accept(d.candidates[0].text).ok());
    ASSERT_TRUE(session->Decide(10, &d).ok());
    ASSERT_TRUE(session->Type("。").ok());
  };
  for (int i = 0; i < 16; ++i) round();  // the text grows past its trim, the context is full
  const long before = testing::Allocations();
  round();
  EXPECT_EQ(testing::Allocations() - before, 0);
}

TEST(PinyinBigramTest, MalformedBigramFailsTheOpen) {
  Status opened;
  const auto engine = ZhEngineWithBigram("", &opened);
  EXPECT_EQ(opened.code(), Status::Code::kCorruption) << opened.ToString();
  EXPECT_EQ(engine, nullptr);
}

std::string TopFor(const Engine& engine, std::string_view typed) {
  auto session = engine.NewSession({});
  Decision d;
  EXPECT_TRUE(session->Type(typed).ok());
  EXPECT_TRUE(session->Decide(5, &d).ok());
  return d.candidates.empty() ? "" : d.candidates[0].text;
}

TEST(PinyinEngineTest, FuzzyPinyinAndTyposAreSwitchable) {
  std::unique_ptr<Engine> plain, fuzzy, typos;
  ASSERT_TRUE(OpenZh([](EngineOptions*) {}, &plain).ok());
  ASSERT_TRUE(OpenZh([](EngineOptions* o) { o->pinyin.fuzzy = "z/zh,an/ang"; }, &fuzzy).ok());
  ASSERT_TRUE(OpenZh([](EngineOptions* o) { o->pinyin.typos = true; }, &typos).ok());
  // "zonguo": z for zh is a fuzzy pair; off by default.
  EXPECT_NE(TopFor(*plain, "zongguo"), "中国");
  EXPECT_EQ(TopFor(*fuzzy, "zongguo"), "中国");
  // "zhognguo": two letters swapped.
  EXPECT_NE(TopFor(*plain, "zhognguo"), "中国");
  EXPECT_EQ(TopFor(*typos, "zhognguo"), "中国");
  // What is typed right converts the same with them on.
  EXPECT_EQ(TopFor(*fuzzy, "zhongguo"), "中国");
  EXPECT_EQ(TopFor(*typos, "zhongguo"), "中国");
}

TEST(PinyinEngineTest, BadPinyinOptionsAreRefused) {
  std::unique_ptr<Engine> engine;
  EXPECT_EQ(OpenZh([](EngineOptions* o) { o->pinyin.fuzzy = "z/zh,q/x"; }, &engine).code(),
            Status::Code::kInvalidArgument);
  EXPECT_EQ(OpenZh([](EngineOptions* o) { o->pinyin.fuzzy = "z/zh,"; }, &engine).code(),
            Status::Code::kInvalidArgument);
  EXPECT_EQ(OpenZh([](EngineOptions* o) { o->pinyin.beam_width = 0; }, &engine).code(),
            Status::Code::kInvalidArgument);
  EXPECT_EQ(OpenZh([](EngineOptions* o) { o->pinyin.beam_width = 65; }, &engine).code(),
            Status::Code::kInvalidArgument);
  EXPECT_EQ(OpenZh(
                [](EngineOptions* o) {
                  o->pinyin.typos = true;
                  o->keyboard_layout = "no-such-layout";
                },
                &engine)
                .code(),
            Status::Code::kNotFound);
  EXPECT_EQ(engine, nullptr);
  EXPECT_TRUE(OpenZh([](EngineOptions* o) { o->pinyin.fuzzy = "all"; }, &engine).ok());
}

TEST(PinyinEngineTest, MissingModelIsNotFound) {
  std::unique_ptr<Engine> engine;
  const Status s =
      OpenZh([](EngineOptions* o) { o->model_path = "/nonexistent/model.safetensors"; }, &engine);
  EXPECT_EQ(s.code(), Status::Code::kNotFound) << s.ToString();
  EXPECT_EQ(engine, nullptr);
}

TEST(PinyinEngineTest, EnglishLexiconRefused) {
  const std::string path = testing::TempPath("pinyin_en_refused.kdlex");
  testing::WriteFile(path, testing::FixtureLexiconBytes());
  EngineOptions options;
  options.model_dir = KD_MODELS_DIR;
  options.language = "zh";
  options.lexicon_path = path;
  std::unique_ptr<Engine> engine;
  const Status s = Engine::Open(options, &engine);
  std::remove(path.c_str());
  EXPECT_FALSE(s.ok());
}

TEST(PinyinEngineTest, ShippedLexicon) {
  const std::string path = std::string(KD_MODELS_DIR) + "/zh/lexicon.kdlex";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " not built";
  EngineOptions options;
  options.model_dir = KD_MODELS_DIR;
  options.language = "zh";
  std::unique_ptr<Engine> engine;
  const Status s = Engine::Open(options, &engine);
  ASSERT_TRUE(s.ok()) << s.ToString();
  auto session = engine->NewSession({});
  ASSERT_TRUE(session->Type("nihao").ok());
  Decision d;
  ASSERT_TRUE(session->Decide(10, &d).ok());
  bool found = false;
  for (const Candidate& c : d.candidates) found = found || c.text == "你好";
  EXPECT_TRUE(found);
}

}  // namespace
}  // namespace keydecide
