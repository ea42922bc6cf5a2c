// Session::Pick (issue 49): a candidate picked by its id does what Accept of its text does, in
// English and in pinyin, for every candidate offered; ids are never 0 and grow within a session;
// an id not offered by the last Decide, or any edit since, is refused and changes nothing; a pinyin
// word that converts only the first letters leaves the rest.

#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "keydecide/engine.h"
#include "lexicon/lexicon.h"
#include "lexicon/word_bigram_builder.h"
#include "test_util.h"

namespace keydecide {
namespace {

// The zh fixture lexicon (as zh_session_test's) with a bigram beside it trained on `text` (for
// 联想), without a model.
std::unique_ptr<Engine> ZhEngine(std::string_view bigram_text) {
  const std::string lexicon_bytes = testing::PinyinLexiconBytes({{"zhongguo", "中国", 5000},
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
  const std::string lexicon_path = testing::TempPath("pick_zh.kdlex");
  const std::string bigram_path = testing::TempPath("pick_zh.kdbg");
  testing::WriteFile(lexicon_path, lexicon_bytes);
  std::unique_ptr<Lexicon> lexicon;
  EXPECT_TRUE(Lexicon::FromBytes(lexicon_bytes, &lexicon).ok());
  WordBigramBuilder::Options bigram_options;
  bigram_options.min_pair_count = 1;
  WordBigramBuilder builder(*lexicon, bigram_options);
  builder.AddText(bigram_text);
  std::string bigram_bytes;
  WordBigramBuilder::Stats stats;
  EXPECT_TRUE(builder.Finish(&bigram_bytes, &stats).ok());
  testing::WriteFile(bigram_path, bigram_bytes);
  EngineOptions options;
  options.model_dir = KD_MODELS_DIR;
  options.language = "zh";
  options.lexicon_path = lexicon_path;
  options.model_path = "none";
  std::unique_ptr<Engine> engine;
  const Status s = Engine::Open(options, &engine);
  EXPECT_TRUE(s.ok()) << s.ToString();
  std::remove(lexicon_path.c_str());
  std::remove(bigram_path.c_str());
  return engine;
}

std::unique_ptr<Engine> ZhEngine() { return ZhEngine("你好中国人。你好中国。中国人你好。"); }

// A fresh session after `steps` (text typed; "=word" accepts the word), and its decision.
std::unique_ptr<Session> SessionAt(const Engine& engine, const std::vector<std::string>& steps,
                                   Decision* d) {
  auto session = engine.NewSession({});
  for (const std::string& step : steps) {
    const Status s = step.starts_with("=") ? session->Accept(step.substr(1)) : session->Type(step);
    EXPECT_TRUE(s.ok()) << step << ": " << s.ToString();
  }
  EXPECT_TRUE(session->Decide(10, d).ok());
  return session;
}

std::vector<std::string> Texts(const Decision& d) {
  std::vector<std::string> out;
  for (const Candidate& c : d.candidates) out.push_back(c.text);
  return out;
}

// For every candidate offered after `steps`: Pick(id) in one session and Accept(text) in another
// leave the same text and composition, and the next decisions offer the same (the word committed
// is the context of both: the same 联想 after it).
void ExpectPickIsAccept(const Engine& engine, const std::vector<std::string>& steps) {
  Decision offered;
  SessionAt(engine, steps, &offered);
  ASSERT_FALSE(offered.candidates.empty()) << steps.back();
  for (size_t i = 0; i < offered.candidates.size(); ++i) {
    Decision da, db;
    auto by_text = SessionAt(engine, steps, &da);
    auto by_id = SessionAt(engine, steps, &db);
    ASSERT_EQ(Texts(da), Texts(db));
    const std::string text = da.candidates[i].text;
    ASSERT_TRUE(by_text->Accept(text).ok());
    const Status picked = by_id->Pick(db.candidates[i].id);
    ASSERT_TRUE(picked.ok()) << text << ": " << picked.ToString();
    EXPECT_EQ(by_id->text(), by_text->text()) << text;
    EXPECT_EQ(by_id->composition(), by_text->composition()) << text;
    ASSERT_TRUE(by_text->Decide(10, &da).ok());
    ASSERT_TRUE(by_id->Decide(10, &db).ok());
    EXPECT_EQ(Texts(db), Texts(da)) << "after " << text;
  }
}

// Ids of one decision: none 0, all different, all above those of `earlier`.
void ExpectFreshIds(const Decision& d, uint32_t* earlier) {
  std::set<uint32_t> seen;
  for (const Candidate& c : d.candidates) {
    EXPECT_NE(c.id, 0u) << c.text;
    EXPECT_GT(c.id, *earlier) << c.text;
    EXPECT_TRUE(seen.insert(c.id).second) << c.text;
  }
  if (!seen.empty()) *earlier = *seen.rbegin();
}

// Each edit makes the ids offered before it stale: the pick is refused and changes nothing.
void ExpectEditsMakeIdsStale(const Engine& engine, const std::string& typed) {
  using Edit = Status (*)(Session*);
  const Edit edits[] = {
      [](Session* s) { return s->Type("a"); },
      [](Session* s) { return s->Backspace(); },
      [](Session* s) { return s->SetContext("x "); },
      [](Session* s) { return s->Accept(std::string(s->composition())); },
      [](Session* s) { return s->AcceptCorrection(std::string(s->composition())); },
  };
  for (const Edit edit : edits) {
    Decision d;
    auto session = SessionAt(engine, {typed}, &d);
    ASSERT_FALSE(d.candidates.empty());
    ASSERT_TRUE(edit(session.get()).ok());
    const std::string text(session->text());
    const Status s = session->Pick(d.candidates[0].id);
    EXPECT_EQ(s.code(), Status::Code::kInvalidArgument) << s.ToString();
    EXPECT_NE(s.message().find("stale"), std::string::npos) << s.message();
    EXPECT_EQ(session->text(), text);
  }
}

// Ids not of the last decision: 0, one never given, one of an older decision, one picked.
void ExpectOnlyTheLastDecisionsIds(const Engine& engine, const std::string& typed) {
  Decision first, second;
  auto session = SessionAt(engine, {typed}, &first);
  ASSERT_FALSE(first.candidates.empty());
  uint32_t last = 0;
  ExpectFreshIds(first, &last);
  ASSERT_TRUE(session->Decide(10, &second).ok());  // no edit between: new ids all the same
  ExpectFreshIds(second, &last);
  const std::string text(session->text());
  for (const uint32_t id : {0u, last + 1, first.candidates[0].id}) {
    EXPECT_EQ(session->Pick(id).code(), Status::Code::kInvalidArgument) << id;
    EXPECT_EQ(session->text(), text);
  }
  ASSERT_TRUE(session->Pick(second.candidates[0].id).ok());
  const std::string after(session->text());
  EXPECT_EQ(session->Pick(second.candidates[0].id).code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(session->text(), after);
  Decision none;  // no candidates asked for: nothing to pick
  ASSERT_TRUE(session->Decide(0, &none).ok());
  EXPECT_EQ(session->Pick(last + 1).code(), Status::Code::kInvalidArgument);
}

TEST(PickTest, EnglishPickIsAcceptOfTheText) {
  auto engine = testing::FixtureEngine();
  ASSERT_NE(engine, nullptr);
  ExpectPickIsAccept(*engine, {"we will meet at the sta"});
  ExpectPickIsAccept(*engine, {"see you at the meetimg"});  // a correction first
}

TEST(PickTest, EnglishIdsGoStale) {
  auto engine = testing::FixtureEngine();
  ASSERT_NE(engine, nullptr);
  ExpectEditsMakeIdsStale(*engine, "th");
  ExpectOnlyTheLastDecisionsIds(*engine, "th");
}

TEST(PickTest, PinyinPickIsAcceptOfTheText) {
  auto engine = ZhEngine();
  ASSERT_NE(engine, nullptr);
  ExpectPickIsAccept(*engine, {"zhongguoren"});    // words, some for the first letters only
  ExpectPickIsAccept(*engine, {"nihaozhongguo"});  // sentences, then words
  ExpectPickIsAccept(*engine, {"xian"});
  ExpectPickIsAccept(*engine, {"nihao", "=你好"});        // 联想: the words that followed 你好
  ExpectPickIsAccept(*engine, {"zhongguoren", "=中国"});  // the rest of the letters
}

TEST(PickTest, PinyinIdsGoStale) {
  auto engine = ZhEngine();
  ASSERT_NE(engine, nullptr);
  ExpectEditsMakeIdsStale(*engine, "nihao");
  ExpectOnlyTheLastDecisionsIds(*engine, "zhongguoren");
}

// The word 中国 for the first letters of "zhongguoren": picked by its id it converts them and
// leaves "ren" to convert next.
TEST(PickTest, PinyinWordForTheFirstLettersLeavesTheRest) {
  auto engine = ZhEngine();
  ASSERT_NE(engine, nullptr);
  Decision d;
  auto session = SessionAt(*engine, {"zhongguoren"}, &d);
  const Candidate* zhongguo = nullptr;
  for (const Candidate& c : d.candidates) {
    if (c.text == "中国") zhongguo = &c;
  }
  ASSERT_NE(zhongguo, nullptr);
  ASSERT_TRUE(session->Pick(zhongguo->id).ok());
  EXPECT_EQ(session->text(), "中国ren");
  EXPECT_EQ(session->composition(), "ren");
  ASSERT_TRUE(session->Decide(10, &d).ok());
  ASSERT_FALSE(d.candidates.empty());
  EXPECT_EQ(d.candidates[0].text, "人");
  ASSERT_TRUE(session->Pick(d.candidates[0].id).ok());
  EXPECT_EQ(session->text(), "中国人");
  EXPECT_EQ(session->composition(), "");
}

}  // namespace
}  // namespace keydecide
