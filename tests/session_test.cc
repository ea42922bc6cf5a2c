#include <gtest/gtest.h>

#include <cstdio>

#include "keydecide/engine.h"
#include "lexicon/lexicon.h"
#include "lexicon/lexicon_format.h"
#include "lexicon/lexicon_tool.h"
#include "test_util.h"

namespace keydecide {
namespace {

class SessionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    engine_ = testing::FixtureEngine();
    ASSERT_NE(engine_, nullptr);
    session_ = engine_->NewSession(SessionOptions());
  }

  std::vector<std::string> Top(int k) {
    Decision d;
    EXPECT_TRUE(session_->Decide(k, &d).ok());
    std::vector<std::string> out;
    for (const auto& c : d.candidates) out.push_back(c.text);
    return out;
  }

  std::unique_ptr<Engine> engine_;
  std::unique_ptr<Session> session_;
};

TEST_F(SessionTest, CompositionFollowsTyping) {
  ASSERT_TRUE(session_->Type("I don").ok());
  EXPECT_EQ(session_->composition(), "don");
  ASSERT_TRUE(session_->Type("'").ok());
  EXPECT_EQ(session_->composition(), "don'");
  ASSERT_TRUE(session_->Type("t ").ok());
  EXPECT_EQ(session_->composition(), "");
  ASSERT_TRUE(session_->Type("'qu").ok());  // an opening quote is not part of the word
  EXPECT_EQ(session_->composition(), "qu");
  EXPECT_EQ(session_->text(), "I don't 'qu");
}

TEST_F(SessionTest, BackspaceReturnsIntoTheWord) {
  ASSERT_TRUE(session_->Type("the dog ").ok());
  ASSERT_TRUE(session_->Backspace().ok());
  EXPECT_EQ(session_->composition(), "dog");
  ASSERT_TRUE(session_->Backspace().ok());
  EXPECT_EQ(session_->composition(), "do");
  ASSERT_TRUE(session_->Type("\xC3\xA9").ok());
  ASSERT_TRUE(session_->Backspace().ok());  // removes a whole code point
  EXPECT_EQ(session_->text(), "the do");
  for (int i = 0; i < 20; ++i) ASSERT_TRUE(session_->Backspace().ok());
  EXPECT_EQ(session_->text(), "");
}

TEST_F(SessionTest, InvalidUtf8LeavesStateUnchanged) {
  ASSERT_TRUE(session_->Type("good").ok());
  EXPECT_EQ(session_->Type("a\xFF").code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(session_->Accept("\xC0\x80").code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(session_->Accept("two words").code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(session_->SetContext("\xED\xA0\x80").code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(session_->Accept(std::string(300, 'a')).code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(session_->text(), "good");
  Decision d;
  EXPECT_EQ(session_->Decide(-1, &d).code(), Status::Code::kInvalidArgument);
}

TEST_F(SessionTest, CompletesAndCorrects) {
  ASSERT_TRUE(session_->Type("we will meet at the sta").ok());
  EXPECT_EQ(Top(1), std::vector<std::string>{"station"});
  ASSERT_TRUE(session_->SetContext("see you at the meetimg").ok());
  Decision d;
  ASSERT_TRUE(session_->Decide(3, &d).ok());
  ASSERT_FALSE(d.candidates.empty());
  EXPECT_EQ(d.candidates[0].text, "meeting");
  EXPECT_EQ(d.candidates[0].kind, CandidateKind::kCorrection);
  EXPECT_EQ(d.composition, "meetimg");
  EXPECT_GE(d.timings.total_us, d.timings.candidates_us);
}

TEST_F(SessionTest, CasingFollowsPositionAndTyping) {
  EXPECT_EQ(Top(1), std::vector<std::string>{"The"});  // start of text
  ASSERT_TRUE(session_->Type("and ").ok());
  EXPECT_EQ(Top(1), std::vector<std::string>{"the"});
  ASSERT_TRUE(session_->Type("so. ").ok());
  EXPECT_EQ(Top(1), std::vector<std::string>{"The"});
  ASSERT_TRUE(session_->Type("they went to lon").ok());
  EXPECT_EQ(Top(1), std::vector<std::string>{"London"});  // its usual spelling
  ASSERT_TRUE(session_->SetContext("and Sta").ok());
  EXPECT_EQ(Top(1), std::vector<std::string>{"Station"});  // typed with a capital
  ASSERT_TRUE(session_->SetContext("and STA").ok());
  EXPECT_EQ(Top(1), std::vector<std::string>{"STATION"});  // every letter a capital
  ASSERT_TRUE(session_->SetContext("and S").ok());
  EXPECT_EQ(Top(1), std::vector<std::string>{"So"});  // one capital: a capitalised word
  // A full stop right against the word is inside it (a domain, a file name), and the
  // sentence goes on.
  ASSERT_TRUE(session_->SetContext("see www.sta").ok());
  EXPECT_EQ(Top(1), std::vector<std::string>{"station"});
  ASSERT_TRUE(session_->SetContext("see it. sta").ok());
  EXPECT_EQ(Top(1), std::vector<std::string>{"Station"});
}

TEST_F(SessionTest, RemembersItsOwnWords) {
  ASSERT_TRUE(session_->Type("my cat zyzzyva likes zyzzyva and ").ok());
  ASSERT_TRUE(session_->Type("zyz").ok());
  EXPECT_EQ(Top(1), std::vector<std::string>{"zyzzyva"});
  // A word just used rises above equally likely ones.
  auto other = engine_->NewSession(SessionOptions());
  ASSERT_TRUE(other->Type("and zyz").ok());
  Decision d;
  ASSERT_TRUE(other->Decide(3, &d).ok());
  EXPECT_TRUE(d.candidates.empty());  // sessions do not share history
}

// A word the lexicon lacks comes back as the text wrote it: with its capital when every use
// had one (a name), else in lower case (one capital at a sentence start makes no name).
TEST_F(SessionTest, TheSessionsNamesKeepTheirCapital) {
  ASSERT_TRUE(session_->Type("we met Grobnak at noon and Grobnak ate. Zyzzyva and zyzzyva ").ok());
  ASSERT_TRUE(session_->Type("grob").ok());
  EXPECT_EQ(Top(1), std::vector<std::string>{"Grobnak"});
  ASSERT_TRUE(session_->Type(" zyz").ok());
  EXPECT_EQ(Top(1), std::vector<std::string>{"zyzzyva"});
}

TEST_F(SessionTest, ACorrectedTypoIsForgotten) {
  ASSERT_TRUE(session_->Type("I saw zzyzx ").ok());
  for (int i = 0; i < 6; ++i) ASSERT_TRUE(session_->Backspace().ok());  // back into "zzyzx"
  ASSERT_TRUE(session_->Type("the ").ok());
  ASSERT_TRUE(session_->Type("zz").ok());
  Decision d;
  ASSERT_TRUE(session_->Decide(3, &d).ok());
  EXPECT_TRUE(d.candidates.empty());  // "zzyzx" was deleted, so it is not remembered
}

TEST_F(SessionTest, AcceptReplacesTheComposition) {
  ASSERT_TRUE(session_->Type("see you tomo").ok());
  ASSERT_TRUE(session_->Accept("tomorrow").ok());
  EXPECT_EQ(session_->text(), "see you tomorrow");
  EXPECT_EQ(session_->composition(), "tomorrow");
  ASSERT_TRUE(session_->Type(" ").ok());
  EXPECT_EQ(session_->composition(), "");
}

TEST_F(SessionTest, LongTextIsBounded) {
  std::string line = "the quick brown fox jumps over the lazy dog ";
  for (int i = 0; i < 500; ++i) ASSERT_TRUE(session_->Type(line).ok());
  EXPECT_LE(session_->text().size(), 4096u + 64u);
  ASSERT_TRUE(session_->Type("sta").ok());
  EXPECT_EQ(session_->composition(), "sta");
  std::string huge(100000, 'a');
  ASSERT_TRUE(session_->SetContext(huge).ok());
  EXPECT_LE(session_->text().size(), 4096u);
  Decision d;
  EXPECT_TRUE(session_->Decide(3, &d).ok());  // a composition too long to search
  EXPECT_TRUE(d.candidates.empty());
}

TEST(EngineTest, BadOptionsAndMissingFiles) {
  std::unique_ptr<Engine> engine;
  EngineOptions options;
  options.model_dir = KD_MODELS_DIR;
  options.lexicon_path = "/nonexistent.kdlex";
  EXPECT_EQ(Engine::Open(options, &engine).code(), Status::Code::kNotFound);
  options.max_candidates = -1;
  EXPECT_EQ(Engine::Open(options, &engine).code(), Status::Code::kInvalidArgument);
  options.max_candidates = 201;
  EXPECT_EQ(Engine::Open(options, &engine).code(), Status::Code::kInvalidArgument);
  options.max_candidates = 200;
  options.lexicon_path = std::string(KD_MODELS_DIR) + "/zh/lexicon.kdlex";  // pinyin-keyed
  const Status zh = Engine::Open(options, &engine);
  EXPECT_EQ(zh.code(), Status::Code::kInvalidArgument);
  EXPECT_NE(zh.message().find("a lexicon for language 'zh', not 'en'"), std::string::npos)
      << zh.message();
  options.lexicon_path.clear();
  options.language = "fr";
  const Status s = Engine::Open(options, &engine);
  EXPECT_EQ(s.code(), Status::Code::kNotSupported);
  EXPECT_NE(s.message().find("language 'fr' (this build has 'en', 'zh')"), std::string::npos)
      << s.message();
  EXPECT_EQ(engine, nullptr);
}

// The word bigram beside the lexicon (lexicon.kdbg): after "new", "y" is "york", though "you" is
// the more frequent word; at weight 0 it is not loaded and counts rank. A bigram that is corrupt
// or built for another lexicon fails Open, as does a weight out of range.
TEST(EngineTest, TheWordBeforeRanksWithTheBigram) {
  const std::string lexicon_path = testing::TempPath("bg.kdlex");
  const std::string bigram_path = testing::TempPath("bg.kdbg");
  const std::string text_path = testing::TempPath("bg.txt");
  const std::string text = "you said you know you do. I said new york, you see. new york you\n";
  testing::WriteFile(text_path, text);
  std::string bytes;
  ASSERT_TRUE(BuildLexiconFromText(text, 1, &bytes).ok());
  testing::WriteFile(lexicon_path, bytes);
  WordBigramBuildOptions build;
  build.lexicon_path = lexicon_path;
  build.inputs = {text_path};
  build.output_path = bigram_path;
  WordBigramBuildReport report;
  ASSERT_TRUE(BuildWordBigram(build, &report).ok());

  EngineOptions options;
  options.model_dir = KD_MODELS_DIR;
  options.lexicon_path = lexicon_path;
  options.model_path = "none";
  const auto first_after = [&](const EngineOptions& o, std::string_view typed) {
    std::unique_ptr<Engine> engine;
    const Status s = Engine::Open(o, &engine);
    EXPECT_TRUE(s.ok()) << s.ToString();
    if (!s.ok()) return std::string();
    auto session = engine->NewSession(SessionOptions());
    EXPECT_TRUE(session->Type(typed).ok());
    Decision d;
    EXPECT_TRUE(session->Decide(3, &d).ok());
    return d.candidates.empty() ? std::string() : d.candidates[0].text;
  };
  {
    std::unique_ptr<Engine> engine;
    ASSERT_TRUE(Engine::Open(options, &engine).ok());
    EXPECT_EQ(engine->info().scorer, "baseline-unigram+bigram");
  }
  EXPECT_EQ(first_after(options, "new y"), "york");
  EXPECT_EQ(first_after(options, "said y"), "you");
  EXPECT_EQ(first_after(options, "new, y"), "you");  // no word right before: the sentence start
  {  // the word before may come from the host's text
    std::unique_ptr<Engine> engine;
    ASSERT_TRUE(Engine::Open(options, &engine).ok());
    auto session = engine->NewSession(SessionOptions());
    ASSERT_TRUE(session->SetContext("we flew to new ").ok());
    ASSERT_TRUE(session->Type("y").ok());
    Decision d;
    ASSERT_TRUE(session->Decide(3, &d).ok());
    ASSERT_FALSE(d.candidates.empty());
    EXPECT_EQ(d.candidates[0].text, "york");
  }
  EngineOptions unloaded = options;
  unloaded.word_bigram_weight = 0;
  EXPECT_EQ(first_after(unloaded, "new y"), "you");
  // One candidate searched: the search's is "you" (by count); "york" comes from the bigram's
  // followers of "new".
  options.max_candidates = unloaded.max_candidates = 1;
  EXPECT_EQ(first_after(options, "new y"), "york");
  EXPECT_EQ(first_after(unloaded, "new y"), "you");
  options.max_candidates = 0;

  std::unique_ptr<Engine> engine;
  for (const float bad : {-0.1f, 10.5f}) {
    EngineOptions o = options;
    o.word_bigram_weight = bad;
    EXPECT_EQ(Engine::Open(o, &engine).code(), Status::Code::kInvalidArgument) << bad;
  }
  // A bigram whose words are not numbered in key order (two words' spellings swapped, the file
  // otherwise valid) is not an English one.
  std::string swapped = testing::ReadFile(bigram_path);
  {
    std::unique_ptr<Lexicon> lex;
    ASSERT_TRUE(Lexicon::Open(lexicon_path, &lex).ok());
    const auto word_at = [&](uint32_t variant) { return 64 + 4 * size_t{variant}; };
    const uint32_t a = lex->VariantIndex(lex->Find("new"), 0);
    const uint32_t b = lex->VariantIndex(lex->Find("york"), 0);
    for (size_t i = 0; i < 4; ++i) std::swap(swapped[word_at(a) + i], swapped[word_at(b) + i]);
    lexicon::SealFile(&swapped);
    testing::WriteFile(bigram_path, swapped);
    const Status s = Engine::Open(options, &engine);
    EXPECT_EQ(s.code(), Status::Code::kInvalidArgument) << s.ToString();
    EXPECT_NE(s.message().find("not in key order"), std::string::npos) << s.message();
  }
  std::string corrupt = testing::ReadFile(bigram_path);
  corrupt[corrupt.size() / 2] ^= 0x55;
  testing::WriteFile(bigram_path, corrupt);
  EXPECT_EQ(Engine::Open(options, &engine).code(), Status::Code::kCorruption);
  ASSERT_TRUE(BuildLexiconFromText("another lexicon altogether", 1, &bytes).ok());
  build.lexicon_path = testing::TempPath("bg_other.kdlex");
  testing::WriteFile(build.lexicon_path, bytes);
  ASSERT_TRUE(BuildWordBigram(build, &report).ok());  // bigram_path, for the other lexicon
  EXPECT_EQ(Engine::Open(options, &engine).code(), Status::Code::kInvalidArgument);
  for (const std::string& p : {lexicon_path, bigram_path, text_path, build.lexicon_path}) {
    std::remove(p.c_str());
  }
}

// The model reads the keys' timing: the same letters typed at another pace, or retyped after a
// backspace, reach another model state; untimed keys and keys at the untimed defaults' pace
// agree with each other.
TEST(EngineTest, KeyTimingAndBackspaceReachTheModel) {
  std::unique_ptr<Engine> engine;
  EngineOptions options;
  options.model_dir = KD_MODELS_DIR;
  ASSERT_TRUE(Engine::Open(options, &engine).ok());
  auto decide_after = [&](auto type) {
    auto session = engine->NewSession({});
    EXPECT_TRUE(session->Type("see you ", 0).ok());
    type(session.get());
    Decision d;
    EXPECT_TRUE(session->Decide(3, &d).ok());
    return d.autocorrect.confidence;
  };
  const float untimed = decide_after([](Session* s) { ASSERT_TRUE(s->Type("tomo").ok()); });
  // 400 ms before the word (bucket 6, as untimed), then 180 ms apart (bucket 4, as untimed).
  const float typical = decide_after([](Session* s) {
    int64_t t = 400;
    for (char c : std::string("tomo")) {
      ASSERT_TRUE(s->Type(std::string(1, c), t).ok());
      t += 180;
    }
  });
  const float hesitant = decide_after([](Session* s) {
    int64_t t = 2000;
    for (char c : std::string("tomo")) {
      ASSERT_TRUE(s->Type(std::string(1, c), t).ok());
      t += 900;
    }
  });
  const float corrected = decide_after([](Session* s) {
    ASSERT_TRUE(s->Type("tomp").ok());
    ASSERT_TRUE(s->Backspace().ok());
    ASSERT_TRUE(s->Type("o").ok());
  });
  EXPECT_FLOAT_EQ(untimed, typical);
  EXPECT_NE(untimed, hesitant);
  EXPECT_NE(untimed, corrected);
}

}  // namespace
}  // namespace keydecide
