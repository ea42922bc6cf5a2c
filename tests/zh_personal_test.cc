// Chinese learning (issue 16): what the person picks over the first candidate, and phrases
// they build from several picks, reach the store with their pinyin and then come first for
// the same letters (and the phrase for its initials); the words they write after a word are
// offered in 联想 after it; no-learn sessions and a commit deleted right away teach nothing.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "keydecide/engine.h"
#include "keydecide/user_store.h"
#include "test_util.h"

namespace keydecide {
namespace {

class ZhPersonalTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::TempPath(::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::system(("rm -rf '" + dir_ + "' && mkdir -p '" + dir_ + "'").c_str());
    store_path_ = dir_ + "/user.db";
    EngineOptions options;
    options.language = "zh";
    options.model_dir = KD_MODELS_DIR;
    options.personal = true;
    options.user_store_path = store_path_;
    const Status s = Engine::Open(options, &engine_);
    ASSERT_TRUE(s.ok()) << s.ToString();
    ASSERT_EQ(engine_->info().personal, "on: " + store_path_);
  }
  void TearDown() override {
    engine_.reset();
    std::system(("rm -rf '" + dir_ + "'").c_str());
  }

  std::vector<std::string> Candidates(Session* s, int k = 8) {
    Decision d;
    EXPECT_TRUE(s->Decide(k, &d).ok());
    std::vector<std::string> out;
    for (const Candidate& c : d.candidates) out.push_back(c.text);
    return out;
  }
  std::vector<std::string> Fresh(std::string_view letters) {
    auto s = engine_->NewSession({});
    EXPECT_TRUE(s->Type(letters).ok());
    return Candidates(s.get());
  }
  // In a learning session: types `letters`, accepts the fourth candidate the person was shown
  // and ends the line; returns that candidate, once learned.
  std::string PickTheFourth(std::string_view letters) {
    const std::vector<std::string> before = Fresh(letters);
    EXPECT_GE(before.size(), 4u);
    if (before.size() < 4) return "";
    auto s = engine_->NewSession({});
    EXPECT_TRUE(s->Type(letters).ok());
    Candidates(s.get());
    EXPECT_TRUE(s->Accept(before[3]).ok());
    EXPECT_TRUE(s->Type("\n").ok());
    s.reset();
    EXPECT_TRUE(engine_->FlushLearning().ok());
    return before[3];
  }
  // 联想: the candidates after `letters` are typed and `word` committed, in session `s`.
  std::vector<std::string> After(Session* s, std::string_view letters, std::string_view word) {
    EXPECT_TRUE(s->Type(letters).ok());
    Candidates(s);
    EXPECT_TRUE(s->Accept(word).ok());
    EXPECT_EQ(s->composition(), "");
    return Candidates(s, 5);
  }
  std::vector<std::string> After(std::string_view letters, std::string_view word) {
    auto s = engine_->NewSession({});
    return After(s.get(), letters, word);
  }
  std::unique_ptr<UserStore> OpenStore() {
    std::unique_ptr<UserStore> store;
    UserStoreOptions options;
    options.path = store_path_;
    const Status s = UserStore::Open(options, &store);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return store;
  }
  std::vector<LearnedPair> LearnedPairs() {
    std::vector<LearnedPair> pairs;
    const std::unique_ptr<UserStore> store = OpenStore();
    EXPECT_TRUE(store != nullptr && store->ListPairs("zh", &pairs).ok());
    return pairs;
  }
  std::vector<LearnedWord> Learned() {
    std::vector<LearnedWord> words;
    const std::unique_ptr<UserStore> store = OpenStore();
    EXPECT_TRUE(store != nullptr && store->List("zh", &words).ok());
    return words;
  }
  const LearnedWord* Find(const std::vector<LearnedWord>& words, std::string_view w) {
    for (const LearnedWord& x : words) {
      if (x.word == w) return &x;
    }
    return nullptr;
  }

  std::string dir_, store_path_;
  std::unique_ptr<Engine> engine_;
};

// Issue 49: picking by id teaches what accepting the same texts teaches: each word with its
// reading, whether it was picked over the first candidate, the pairs, the phrase built from two
// picks (中国 + 人), the sentence's words, a word picked over the first.
TEST_F(ZhPersonalTest, PickingByIdLearnsWhatAcceptingTheTextLearns) {
  // Each step types letters ("" for none) and takes the candidate with the given text.
  const std::vector<std::pair<std::string, std::string>> steps = {
      {"zhongguoren", "中国"},       {"", "人"},  {"\n", ""},
      {"nihaozhongguo", "你好中国"}, {"shi", ""}, {"\n", ""}};
  const auto learn = [&](const std::string& store, bool by_id) {
    EngineOptions options;
    options.language = "zh";
    options.model_dir = KD_MODELS_DIR;
    options.personal = true;
    options.user_store_path = store;
    std::unique_ptr<Engine> engine;
    ASSERT_TRUE(Engine::Open(options, &engine).ok());
    auto s = engine->NewSession({});
    for (const auto& [letters, want] : steps) {
      if (!letters.empty()) {
        ASSERT_TRUE(s->Type(letters).ok());
      }
      if (letters == "\n") continue;
      Decision d;
      ASSERT_TRUE(s->Decide(8, &d).ok());
      ASSERT_GE(d.candidates.size(), 4u) << letters;
      const Candidate* c = &d.candidates[3];  // "": the fourth, picked over the first
      for (const Candidate& x : d.candidates) {
        if (x.text == want) c = &x;
      }
      ASSERT_TRUE((by_id ? s->Pick(c->id) : s->Accept(c->text)).ok()) << c->text;
    }
    s.reset();
    ASSERT_TRUE(engine->FlushLearning().ok());
  };
  const std::string by_text = dir_ + "/by_text.db", by_id = dir_ + "/by_id.db";
  learn(by_text, false);
  learn(by_id, true);
  const auto learned = [](const std::string& path, std::vector<LearnedWord>* words,
                          std::vector<LearnedPair>* pairs) {
    std::unique_ptr<UserStore> store;
    UserStoreOptions options;
    options.path = path;
    ASSERT_TRUE(UserStore::Open(options, &store).ok());
    ASSERT_TRUE(store->List("zh", words).ok());
    ASSERT_TRUE(store->ListPairs("zh", pairs).ok());
  };
  std::vector<LearnedWord> words_a, words_b;
  std::vector<LearnedPair> pairs_a, pairs_b;
  learned(by_text, &words_a, &pairs_a);
  learned(by_id, &words_b, &pairs_b);
  ASSERT_FALSE(words_a.empty());
  EXPECT_NE(Find(words_a, "中国人"), nullptr);  // the phrase of two picks
  const auto key = [](const LearnedWord& w) {
    return w.word + "|" + w.reading + "|" + std::to_string(w.count) + "|" + std::to_string(w.picks);
  };
  std::vector<std::string> a, b;
  for (const LearnedWord& w : words_a) a.push_back(key(w));
  for (const LearnedWord& w : words_b) b.push_back(key(w));
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  EXPECT_EQ(a, b);
  const auto pair_key = [](const LearnedPair& p) {
    return p.previous + "|" + p.word + "|" + std::to_string(p.count);
  };
  a.clear(), b.clear();
  for (const LearnedPair& p : pairs_a) a.push_back(pair_key(p));
  for (const LearnedPair& p : pairs_b) b.push_back(pair_key(p));
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  EXPECT_EQ(a, b);
}

TEST_F(ZhPersonalTest, APickOverTheFirstCandidateComesFirstNextTime) {
  const std::string pick = PickTheFourth("shi");
  ASSERT_FALSE(pick.empty());
  const std::vector<LearnedWord> words = Learned();
  const LearnedWord* w = Find(words, pick);
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->reading, "shi");
  EXPECT_EQ(w->picks, 1u);
  EXPECT_EQ(Fresh("shi").front(), pick);
}

// A forget reaches an open session (issue 51): the word it picked and holds back until the
// person keeps it is dropped, not learned again once the session commits on; typed again in a
// new session, it is the person's again (a forget is not a ban).
TEST_F(ZhPersonalTest, AForgetReachesTheOpenSessionsHeldWords) {
  const std::string pick = PickTheFourth("shi");
  ASSERT_FALSE(pick.empty());
  ASSERT_NE(Find(Learned(), pick), nullptr);
  auto s = engine_->NewSession({});
  ASSERT_TRUE(s->Type("shi").ok());
  Candidates(s.get());
  ASSERT_TRUE(s->Accept(pick).ok());  // held until the next commit
  {
    int removed = 0;
    const std::unique_ptr<UserStore> store = OpenStore();
    ASSERT_NE(store, nullptr);
    ASSERT_TRUE(store->Forget(pick, &removed).ok());
    EXPECT_GE(removed, 1);
  }
  ASSERT_TRUE(engine_->FlushLearning().ok());
  ASSERT_TRUE(s->Type("women").ok());
  Candidates(s.get());
  ASSERT_TRUE(s->Accept("我们").ok());
  ASSERT_TRUE(s->Type("\n").ok());
  s.reset();
  ASSERT_TRUE(engine_->FlushLearning().ok());
  EXPECT_EQ(Find(Learned(), pick), nullptr) << pick << " came back after the forget";
  auto again = engine_->NewSession({});
  ASSERT_TRUE(again->Type("shi").ok());
  Candidates(again.get());
  ASSERT_TRUE(again->Accept(pick).ok());
  ASSERT_TRUE(again->Type("\n").ok());
  again.reset();
  ASSERT_TRUE(engine_->FlushLearning().ok());
  EXPECT_NE(Find(Learned(), pick), nullptr);
}

TEST_F(ZhPersonalTest, APhraseBuiltFromPicksIsLearnedWithItsReadingAndInitials) {
  const std::vector<std::string> before = Fresh("zhangweiming");
  ASSERT_FALSE(before.empty());
  ASSERT_NE(before.front(), "张伟明") << "pick another name: this one converts already";
  {
    auto s = engine_->NewSession({});
    ASSERT_TRUE(s->Type("zhangweiming").ok());
    for (const char* piece : {"张", "伟", "明"}) {
      Candidates(s.get(), 50);
      ASSERT_TRUE(s->Accept(piece).ok()) << piece;
    }
    EXPECT_EQ(s->composition(), "");
    EXPECT_EQ(s->text(), "张伟明");
  }
  ASSERT_TRUE(engine_->FlushLearning().ok());
  const std::vector<LearnedWord> words = Learned();
  const LearnedWord* phrase = Find(words, "张伟明");
  ASSERT_NE(phrase, nullptr);
  EXPECT_EQ(phrase->reading, "zhang'wei'ming");
  EXPECT_EQ(Fresh("zhangweiming").front(), "张伟明");
  EXPECT_EQ(Fresh("zwm").front(), "张伟明");
  // Accepting the learned phrase converts all its letters.
  auto s = engine_->NewSession({});
  ASSERT_TRUE(s->Type("zhangweiming").ok());
  Candidates(s.get());
  ASSERT_TRUE(s->Accept("张伟明").ok());
  EXPECT_EQ(s->composition(), "");
}

// A learned phrase the lexicon lacks enters the sentences (PinyinOptions::user_word_weight):
// in the middle of a longer composition, and the sentence committed whole learns it again with
// its reading.
TEST_F(ZhPersonalTest, ALearnedNameEntersTheSentences) {
  const std::string letters = "wogenzhangweimingshuoguole";
  ASSERT_EQ(Fresh(letters).front().find("张伟明"), std::string::npos)
      << "pick another name: this one converts already";
  {
    auto s = engine_->NewSession({});
    ASSERT_TRUE(s->Type("zhangweiming").ok());
    for (const char* piece : {"张", "伟", "明"}) {
      Candidates(s.get(), 50);
      ASSERT_TRUE(s->Accept(piece).ok()) << piece;
    }
  }
  ASSERT_TRUE(engine_->FlushLearning().ok());
  const std::vector<std::string> after = Fresh(letters);
  ASSERT_FALSE(after.empty());
  EXPECT_NE(after.front().find("张伟明说"), std::string::npos) << after.front();
  {
    auto s = engine_->NewSession({});
    ASSERT_TRUE(s->Type(letters).ok());
    const std::vector<std::string> first = Candidates(s.get());
    ASSERT_TRUE(s->Accept(first.front()).ok());
    EXPECT_EQ(s->composition(), "");
    ASSERT_TRUE(s->Type("\n").ok());
  }
  ASSERT_TRUE(engine_->FlushLearning().ok());
  const std::vector<LearnedWord> words = Learned();
  const LearnedWord* name = Find(words, "张伟明");
  ASSERT_NE(name, nullptr);
  EXPECT_EQ(name->reading, "zhang'wei'ming");
  EXPECT_GE(name->count, 2u);
  // Off (weight 0), the sentences are the lexicon's again.
  engine_.reset();
  EngineOptions options;
  options.language = "zh";
  options.model_dir = KD_MODELS_DIR;
  options.personal = true;
  options.user_store_path = store_path_;
  options.pinyin.user_word_weight = 0;
  ASSERT_TRUE(Engine::Open(options, &engine_).ok());
  EXPECT_EQ(Fresh(letters).front().find("张伟明"), std::string::npos);
}

// A picked word whose reading starts the letters comes after the conversions of all of them,
// also when the best is one word (an idiom), which is offered as a word, not a sentence.
TEST_F(ZhPersonalTest, APickForTheFirstLettersComesAfterAOneWordConversion) {
  const std::string letters = "dandabaotian";
  ASSERT_EQ(Fresh(letters).front(), "胆大包天");
  const std::string pick = PickTheFourth("dan");
  ASSERT_FALSE(pick.empty());
  ASSERT_EQ(Fresh("dan").front(), pick);
  const std::vector<std::string> after = Fresh(letters);
  ASSERT_GE(after.size(), 2u);
  EXPECT_EQ(after.front(), "胆大包天");
  EXPECT_NE(std::find(after.begin(), after.end(), pick), after.end());
}

// 联想 (issue 16): a word the person wrote after a word is offered after it, also one the
// training text never had there (and the model finds unlikely); a 联想 pick is learned with
// the word before it.
TEST_F(ZhPersonalTest, WhatThePersonWritesAfterAWordIsOfferedIn联想) {
  const std::string follower = "胆大包天";
  const std::vector<std::string> before = After("women", "我们");
  ASSERT_FALSE(before.empty());
  ASSERT_EQ(std::find(before.begin(), before.end(), follower), before.end());
  for (int i = 0; i < 3; ++i) {
    auto s = engine_->NewSession({});
    After(s.get(), "women", "我们");
    ASSERT_TRUE(s->Type("dandabaotian").ok());
    Candidates(s.get());
    ASSERT_TRUE(s->Accept(follower).ok());
    ASSERT_TRUE(s->Type("\n").ok());
  }
  ASSERT_TRUE(engine_->FlushLearning().ok());
  const std::vector<std::string> after = After("women", "我们");
  ASSERT_EQ(after.size(), 5u);
  EXPECT_NE(std::find(after.begin(), after.end(), follower), after.end());
  EXPECT_EQ(after.front(), before.front());  // the training text's first stays first

  // A 联想 pick: the pair and the word, with its reading.
  const std::string picked = after[2] != follower ? after[2] : after[3];
  {
    auto s = engine_->NewSession({});
    After(s.get(), "women", "我们");
    ASSERT_TRUE(s->Accept(picked).ok());
    ASSERT_TRUE(s->Type("\n").ok());
  }
  ASSERT_TRUE(engine_->FlushLearning().ok());
  const std::vector<LearnedPair> pairs = LearnedPairs();
  EXPECT_NE(
      std::find_if(pairs.begin(), pairs.end(),
                   [&](const LearnedPair& p) { return p.previous == "我们" && p.word == picked; }),
      pairs.end());
  const std::vector<LearnedWord> words = Learned();
  const LearnedWord* word = Find(words, picked);
  ASSERT_NE(word, nullptr);
  EXPECT_FALSE(word->reading.empty());
}

// Committing a word the person had picked (now one of their words) keeps the training text's
// 联想 after it, as for any lexicon word.
TEST_F(ZhPersonalTest, ALearnedWordKeepsItsFollowersIn联想) {
  const std::vector<std::string> dan = Fresh("dan");
  ASSERT_GE(dan.size(), 4u);
  const std::vector<std::string> before = After("dan", dan[3]);
  ASSERT_FALSE(before.empty());
  ASSERT_EQ(PickTheFourth("dan"), dan[3]);
  ASSERT_EQ(Fresh("dan").front(), dan[3]);  // now the person's word
  EXPECT_EQ(After("dan", dan[3]), before);
}

// Counts per app type (EngineOptions::user_app_share, 0.75 by default): a word picked twice in
// an editor and another picked once in chat, for the same letters; each comes first in the app
// type it was picked in, and the heavier overall where the person wrote nothing.
TEST_F(ZhPersonalTest, EachAppTypeRanksThePersonsWordsWrittenThereFirst) {
  const std::vector<std::string> base = Fresh("shi");
  ASSERT_GE(base.size(), 5u);
  const std::string& in_editor = base[3];
  const std::string& in_chat = base[4];
  const auto pick = [&](const std::string& word, AppType app) {
    SessionOptions options;
    options.app = app;
    auto s = engine_->NewSession(options);
    ASSERT_TRUE(s->Type("shi").ok());
    Candidates(s.get());
    ASSERT_TRUE(s->Accept(word).ok());
    ASSERT_TRUE(s->Type("\n").ok());
    s.reset();
    ASSERT_TRUE(engine_->FlushLearning().ok());
  };
  pick(in_editor, AppType::kEditor);
  pick(in_editor, AppType::kEditor);
  pick(in_chat, AppType::kChat);
  const auto first_in = [&](AppType app) {
    SessionOptions options;
    options.app = app;
    auto s = engine_->NewSession(options);
    EXPECT_TRUE(s->Type("shi").ok());
    const std::vector<std::string> c = Candidates(s.get());
    return c.empty() ? std::string() : c.front();
  };
  EXPECT_EQ(first_in(AppType::kEditor), in_editor);
  EXPECT_EQ(first_in(AppType::kChat), in_chat);
  EXPECT_EQ(first_in(AppType::kCode), in_editor);  // nothing written there: overall
  const std::vector<LearnedWord> words = Learned();
  const LearnedWord* chat = Find(words, in_chat);
  ASSERT_NE(chat, nullptr);
  ASSERT_EQ(chat->apps.size(), 1u);
  EXPECT_EQ(chat->apps[0].app, static_cast<int>(AppType::kChat));
}

// A composition longer than the sentence search reads (PinyinWindow fixes its early part): the
// words of the fixed part are learned too, with their readings, in order.
TEST_F(ZhPersonalTest, TheFixedPartOfALongCompositionIsLearned) {
  const std::string letters =
      "jintianwanshangwomenyiqiquxuexiaopangbiandefanguanchifanranhouzaiyiqihuijiaba";
  ASSERT_GT(letters.size(), 64u);  // more than one window
  auto s = engine_->NewSession({});
  ASSERT_TRUE(s->Type(letters).ok());
  const std::vector<std::string> offered = Candidates(s.get());
  ASSERT_FALSE(offered.empty());
  const std::string sentence = offered.front();
  ASSERT_TRUE(sentence.starts_with("今天晚上")) << sentence;
  ASSERT_TRUE(s->Accept(sentence).ok());
  ASSERT_EQ(s->composition(), "");
  ASSERT_TRUE(s->Type("\n").ok());
  s.reset();
  ASSERT_TRUE(engine_->FlushLearning().ok());
  const std::vector<LearnedWord> words = Learned();
  const LearnedWord* first = Find(words, "今天");
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first->reading, "jin'tian");
  EXPECT_EQ(first->picks, 0u);
  // Every learned word is in the sentence, and together they spell at least its whole length.
  size_t bytes = 0;
  for (const LearnedWord& w : words) {
    EXPECT_NE(sentence.find(w.word), std::string::npos) << w.word;
    bytes += w.word.size() * w.count;
  }
  EXPECT_GE(bytes, sentence.size());
  const std::vector<LearnedPair> pairs = LearnedPairs();
  EXPECT_TRUE(std::any_of(pairs.begin(), pairs.end(),
                          [](const LearnedPair& p) { return p.previous == "今天"; }));
}

TEST_F(ZhPersonalTest, NoLearnSessionsAndACommitDeletedRightAwayTeachNothing) {
  const std::vector<std::string> before = Fresh("shi");
  ASSERT_GE(before.size(), 3u);
  {
    SessionOptions no_learn;
    no_learn.no_learn = true;
    auto s = engine_->NewSession(no_learn);
    ASSERT_TRUE(s->Type("shi").ok());
    Candidates(s.get());
    ASSERT_TRUE(s->Accept(before[2]).ok());
  }
  {
    auto s = engine_->NewSession({});
    ASSERT_TRUE(s->Type("shi").ok());
    Candidates(s.get());
    ASSERT_TRUE(s->Accept(before[2]).ok());
    ASSERT_TRUE(s->Backspace().ok());  // the person took it back
  }
  ASSERT_TRUE(engine_->FlushLearning().ok());
  EXPECT_TRUE(Learned().empty());
  EXPECT_EQ(Fresh("shi"), before);
}

}  // namespace
}  // namespace keydecide
