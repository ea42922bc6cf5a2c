// Learning from sessions (issue 16): kept words reach the user store off the keystroke path and
// then the candidates; no-learn sessions, words corrected right away and words replaced by an
// autocorrection are never learned; a store that cannot open leaves typing working.

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

class PersonalSessionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::TempPath(::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::system(("rm -rf '" + dir_ + "' && mkdir -p '" + dir_ + "'").c_str());
    store_path_ = dir_ + "/user.db";
    lexicon_path_ = dir_ + "/fixture.kdlex";
    testing::WriteFile(lexicon_path_, testing::FixtureLexiconBytes());
  }
  void TearDown() override { std::system(("rm -rf '" + dir_ + "'").c_str()); }

  // The shipped English model over the fixture lexicon, learning into store_path_.
  std::unique_ptr<Engine> OpenEngine(bool learn = true, std::string store = "") {
    EngineOptions options;
    options.model_dir = KD_MODELS_DIR;
    options.lexicon_path = lexicon_path_;
    options.personal = true;
    options.learn = learn;
    options.user_store_path = store.empty() ? store_path_ : store;
    std::unique_ptr<Engine> engine;
    const Status s = Engine::Open(options, &engine);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return engine;
  }

  std::vector<std::string> Learned() {
    std::unique_ptr<UserStore> store;
    UserStoreOptions options;
    options.path = store_path_;
    EXPECT_TRUE(UserStore::Open(options, &store).ok());
    std::vector<LearnedWord> words;
    EXPECT_TRUE(store->List("", &words).ok());
    std::vector<std::string> out;
    for (const LearnedWord& w : words) out.push_back(w.word);
    std::sort(out.begin(), out.end());
    return out;
  }

  static std::vector<std::string> Candidates(Session* session, int k = 8) {
    Decision d;
    EXPECT_TRUE(session->Decide(k, &d).ok());
    std::vector<std::string> out;
    for (const Candidate& c : d.candidates) out.push_back(c.text);
    return out;
  }

  static bool Has(const std::vector<std::string>& v, const std::string& s) {
    return std::find(v.begin(), v.end(), s) != v.end();
  }

  std::string dir_, store_path_, lexicon_path_;
};

TEST_F(PersonalSessionTest, AWordSeenTwiceOrPickedOnceBecomesACandidate) {
  auto engine = OpenEngine();
  ASSERT_TRUE(engine);
  EXPECT_EQ(engine->info().personal, "on: " + store_path_);
  {
    auto s = engine->NewSession({});
    EXPECT_FALSE(Has(Candidates(s.get()), "Zorblax"));
    ASSERT_TRUE(s->Type("we met Zorblax and Quoggle today. ").ok());
    ASSERT_TRUE(s->Type("then Zorblax left ").ok());
    ASSERT_TRUE(s->Type("zyx").ok());
    ASSERT_TRUE(s->Accept("Zyxwvut").ok());  // picked from the candidates once
    ASSERT_TRUE(s->Type(" ").ok());
  }
  ASSERT_TRUE(engine->FlushLearning().ok());
  EXPECT_TRUE(Has(Learned(), "Zorblax"));
  EXPECT_TRUE(Has(Learned(), "Zyxwvut"));  // the last word, kept when the session closed

  auto s = engine->NewSession({});
  ASSERT_TRUE(s->Type("so zor").ok());
  EXPECT_TRUE(Has(Candidates(s.get()), "Zorblax"));
  ASSERT_TRUE(s->SetContext("so zyx").ok());
  EXPECT_TRUE(Has(Candidates(s.get()), "Zyxwvut"));
  ASSERT_TRUE(s->SetContext("so quog").ok());
  EXPECT_FALSE(Has(Candidates(s.get()), "Quoggle"));  // seen once: stored, not offered
  EXPECT_TRUE(Has(Learned(), "Quoggle"));
}

// Per app type (issue 16): of two words the person used as often, the one they use in the
// session's app type comes first there.
TEST_F(PersonalSessionTest, AWordUsedInThisAppTypeComesFirstHere) {
  auto engine = OpenEngine();
  ASSERT_TRUE(engine);
  const auto type_in = [&](AppType app, const char* text) {
    SessionOptions options;
    options.app = app;
    auto s = engine->NewSession(options);
    ASSERT_TRUE(s->Type(text).ok());
  };
  type_in(AppType::kCode, "Zorblax then Zorblax and Zorblax ");
  type_in(AppType::kChat, "Zorbling then Zorbling and Zorbling ");
  ASSERT_TRUE(engine->FlushLearning().ok());
  const auto first_of_the_two = [&](AppType app) {
    SessionOptions options;
    options.app = app;
    auto s = engine->NewSession(options);
    EXPECT_TRUE(s->Type("so zorb").ok());
    for (const std::string& c : Candidates(s.get())) {
      if (c == "Zorblax" || c == "Zorbling") return c;
    }
    return std::string();
  };
  EXPECT_EQ(first_of_the_two(AppType::kCode), "Zorblax");
  EXPECT_EQ(first_of_the_two(AppType::kChat), "Zorbling");
}

// The person's words and the session's own (SessionHistory) are both cache models of how much
// more a word is used here than in general: a word in both gains the larger bonus, not the sum.
TEST_F(PersonalSessionTest, APersonsWordThisTextUsesTooIsNotCountedTwice) {
  auto personal = OpenEngine();
  auto plain = OpenEngine(/*learn=*/false, dir_ + "/empty.db");
  ASSERT_TRUE(personal && plain);
  {
    auto s = personal->NewSession({});
    ASSERT_TRUE(s->Type("the meeting, a meeting, our meeting and the meeting ").ok());
  }
  ASSERT_TRUE(personal->FlushLearning().ok());
  const auto score = [](Engine* engine, const char* text) {
    auto s = engine->NewSession({});
    EXPECT_TRUE(s->Type(text).ok());
    Decision d;
    EXPECT_TRUE(s->Decide(64, &d).ok());
    for (const Candidate& c : d.candidates) {
      if (c.text == "meeting") return c.score;
    }
    ADD_FAILURE() << "meeting is no candidate after: " << text;
    return 0.0f;
  };
  // The person's bonus alone: the same text in both engines, nothing of it in this session.
  const float person = score(personal.get(), "so mee") - score(plain.get(), "so mee");
  const char* used = "we had a meeting. the meeting ran late. so mee";
  const float on_top = score(personal.get(), used) - score(plain.get(), used);
  EXPECT_GT(person, 1.0f);
  EXPECT_GE(on_top, -1e-3f);
  EXPECT_LT(on_top, person - 0.5f);  // the sum would add all of it again
}

// A shortcut's trigger offers its expansion first, and fires unless the trigger is a word.
TEST_F(PersonalSessionTest, AShortcutIsOfferedFirstAndFiresUnlessItsTriggerIsAWord) {
  {
    std::unique_ptr<UserStore> store;
    UserStoreOptions o;
    o.path = store_path_;
    ASSERT_TRUE(UserStore::Open(o, &store).ok());
    ASSERT_TRUE(store->SetShortcut("omw", "On my way!").ok());
    ASSERT_TRUE(store->SetShortcut("the", "The End").ok());  // a word of the lexicon
  }
  auto engine = OpenEngine();
  ASSERT_TRUE(engine);
  auto s = engine->NewSession({});
  Decision d;
  ASSERT_TRUE(s->Type("see you, OMW").ok());  // any case
  ASSERT_TRUE(s->Decide(3, &d).ok());
  EXPECT_TRUE(d.shortcut.fire);
  EXPECT_EQ(d.shortcut.trigger, "omw");
  EXPECT_EQ(d.shortcut.expansion, "On my way!");
  ASSERT_FALSE(d.candidates.empty());
  EXPECT_EQ(d.candidates[0].text, "On my way!");
  EXPECT_EQ(d.candidates[0].kind, CandidateKind::kShortcut);
  EXPECT_LE(d.candidates.size(), 3u);
  EXPECT_FALSE(d.autocorrect.apply);  // the shortcut, not a correction, replaces "OMW"
  EXPECT_TRUE(d.popup.show);
  ASSERT_TRUE(s->Type("x").ok());  // no longer the trigger
  ASSERT_TRUE(s->Decide(3, &d).ok());
  EXPECT_TRUE(d.shortcut.trigger.empty());
  EXPECT_FALSE(d.shortcut.fire);
  for (const Candidate& c : d.candidates) EXPECT_NE(c.kind, CandidateKind::kShortcut);
  ASSERT_TRUE(s->SetContext("the").ok());
  ASSERT_TRUE(s->Decide(3, &d).ok());
  EXPECT_EQ(d.shortcut.expansion, "The End");
  EXPECT_FALSE(d.shortcut.fire);  // "the" stays typable
  EXPECT_EQ(d.candidates.at(0).text, "The End");
  ASSERT_TRUE(s->Decide(0, &d).ok());  // no candidates asked for: none added
  EXPECT_TRUE(d.candidates.empty());
}

TEST_F(PersonalSessionTest, LearnedWordsSurviveTheEngine) {
  {
    auto engine = OpenEngine();
    auto s = engine->NewSession({});
    ASSERT_TRUE(s->Type("Zorblax and Zorblax again ").ok());
  }  // closing the engine flushes
  auto engine = OpenEngine();
  auto s = engine->NewSession({});
  ASSERT_TRUE(s->Type("zorb").ok());
  EXPECT_TRUE(Has(Candidates(s.get()), "Zorblax"));
}

TEST_F(PersonalSessionTest, NoLearnSessionsLearnNothing) {
  auto engine = OpenEngine();
  SessionOptions options;
  options.no_learn = true;
  {
    auto s = engine->NewSession(options);
    ASSERT_TRUE(s->Type("my secret Hunter2word Hunter2word is here ").ok());
    ASSERT_TRUE(s->Type("pass").ok());
    ASSERT_TRUE(s->Accept("passphrase").ok());
    ASSERT_TRUE(s->Type(" ").ok());
  }
  ASSERT_TRUE(engine->FlushLearning().ok());
  EXPECT_TRUE(Learned().empty());
}

TEST_F(PersonalSessionTest, PausedLearningLearnsNothingButStillRanks) {
  {
    auto engine = OpenEngine();
    auto s = engine->NewSession({});
    ASSERT_TRUE(s->Type("Zorblax Zorblax ").ok());
  }
  auto engine = OpenEngine(/*learn=*/false);
  EXPECT_EQ(engine->info().personal, "on, not learning: " + store_path_);
  {
    auto s = engine->NewSession({});
    ASSERT_TRUE(s->Type("Quoggle Quoggle Quoggle zorb").ok());
    EXPECT_TRUE(Has(Candidates(s.get()), "Zorblax"));
  }
  ASSERT_TRUE(engine->FlushLearning().ok());
  EXPECT_EQ(Learned(), std::vector<std::string>{"Zorblax"});
}

TEST_F(PersonalSessionTest, AWordCorrectedAwayIsNotLearned) {
  auto engine = OpenEngine();
  {
    auto s = engine->NewSession({});
    // The host applies an autocorrection on space: the typed letters are replaced first.
    ASSERT_TRUE(s->Type("I saw teh").ok());
    ASSERT_TRUE(s->Accept("the").ok());
    ASSERT_TRUE(s->Type(" cat, ").ok());
    // ... or after it, by deleting back into the word just finished.
    ASSERT_TRUE(s->Type("adn ").ok());
    for (int i = 0; i < 4; ++i) ASSERT_TRUE(s->Backspace().ok());
    ASSERT_TRUE(s->Type("and a dgo").ok());
    // ... or by replacing the text.
    ASSERT_TRUE(s->SetContext("I saw the cat, and a dog").ok());
    ASSERT_TRUE(s->Type(" ran away").ok());  // "away" was never finished
  }
  ASSERT_TRUE(engine->FlushLearning().ok());
  const std::vector<std::string> learned = Learned();
  EXPECT_FALSE(Has(learned, "teh"));
  EXPECT_FALSE(Has(learned, "adn"));
  EXPECT_FALSE(Has(learned, "dgo"));
  EXPECT_TRUE(Has(learned, "the"));
  EXPECT_TRUE(Has(learned, "cat"));
  EXPECT_TRUE(Has(learned, "and"));
  // The host's text is never learned (issue 51): "dog", which it wrote in place of "dgo", is
  // not the person's typing.
  EXPECT_FALSE(Has(learned, "dog"));
  EXPECT_TRUE(Has(learned, "ran"));
  EXPECT_FALSE(Has(learned, "away"));
}

// An autocorrection the person undid (Backspace back to the word, the typed letters taken back)
// is learned as their word: it is never autocorrected again, in any session. Not from a no-learn
// session.
TEST_F(PersonalSessionTest, AnUndoneCorrectionIsNeverAppliedAgain) {
  auto engine = OpenEngine();
  auto corrects = [&](Session* s, std::string_view text) {
    EXPECT_TRUE(s->Type(text).ok());
    Decision d;
    EXPECT_TRUE(s->Decide(3, &d).ok());
    return d.autocorrect.apply;
  };
  // Autocorrected on space, undone by the backspace after it: the typed letters taken back.
  auto undo_in = [&](const SessionOptions& options) {
    auto s = engine->NewSession(options);
    ASSERT_TRUE(corrects(s.get(), "I saw teh"));
    ASSERT_TRUE(s->AcceptCorrection("the").ok());
    ASSERT_TRUE(s->Type(" ").ok());
    ASSERT_TRUE(s->Backspace().ok());
    ASSERT_TRUE(s->Accept("teh").ok());
    ASSERT_TRUE(s->Type(" cat ").ok());
  };
  SessionOptions incognito;
  incognito.no_learn = true;
  undo_in(incognito);
  ASSERT_TRUE(engine->FlushLearning().ok());
  EXPECT_FALSE(Has(Learned(), "teh"));
  undo_in(SessionOptions());
  ASSERT_TRUE(engine->FlushLearning().ok());
  EXPECT_TRUE(Has(Learned(), "teh"));
  EXPECT_FALSE(corrects(engine->NewSession({}).get(), "I saw teh"));
  EXPECT_TRUE(corrects(engine->NewSession({}).get(), "what are yuo"));  // other typos still are
}

TEST_F(PersonalSessionTest, AStoreThatCannotOpenLeavesTypingWorking) {
  auto engine = OpenEngine(true, "/proc/self/keydecide/user.db");
  ASSERT_TRUE(engine);
  EXPECT_EQ(engine->info().personal.rfind("unavailable: IO error", 0), 0u)
      << engine->info().personal;
  auto s = engine->NewSession({});
  ASSERT_TRUE(s->Type("the quick brown fox ju").ok());
  EXPECT_FALSE(Candidates(s.get()).empty());
  EXPECT_TRUE(engine->FlushLearning().ok());
}

TEST_F(PersonalSessionTest, ADamagedStoreIsSetAsideAndTypingLearnsAfresh) {
  testing::WriteFile(store_path_, std::string(4096, 'x'));
  auto engine = OpenEngine();
  ASSERT_TRUE(engine);
  {
    auto s = engine->NewSession({});
    ASSERT_TRUE(s->Type("Zorblax Zorblax ").ok());
  }
  ASSERT_TRUE(engine->FlushLearning().ok());
  EXPECT_TRUE(Has(Learned(), "Zorblax"));
  EXPECT_EQ(std::system(("ls '" + store_path_ + "'.corrupt-* >/dev/null").c_str()), 0);
}

// Forget reaches open sessions (issue 51): the word a session has finished but not yet offered,
// the word it would pair the next one with, and its own cache of the text forget it too, so
// that typing on after `keydecide personal forget` (another process: another handle here)
// brings back neither the word, nor its pairs, nor its recent text.
TEST_F(PersonalSessionTest, AForgetReachesTheOpenSessionsPendingWordsAndCaches) {
  auto engine = OpenEngine();
  ASSERT_TRUE(engine);
  auto s = engine->NewSession({});
  ASSERT_TRUE(s->Type("Dfgtsecret went Dfgtsecret ").ok());
  ASSERT_TRUE(engine->FlushLearning().ok());
  ASSERT_TRUE(Has(Learned(), "Dfgtsecret"));
  {
    std::unique_ptr<UserStore> store;
    UserStoreOptions options;
    options.path = store_path_;
    ASSERT_TRUE(UserStore::Open(options, &store).ok());
    int removed = 0;
    ASSERT_TRUE(store->Forget("dfgtsecret", &removed).ok());
    EXPECT_GE(removed, 2);
  }
  ASSERT_TRUE(s->Type("and more words here ").ok());
  ASSERT_TRUE(engine->FlushLearning().ok());
  ASSERT_TRUE(s->Type("then again ").ok());
  ASSERT_TRUE(engine->FlushLearning().ok());
  ASSERT_TRUE(s->Type("dfg").ok());
  EXPECT_FALSE(Has(Candidates(s.get()), "Dfgtsecret"));
  ASSERT_TRUE(s->Type("x ").ok());
  s.reset();  // a closing session offers its last word
  ASSERT_TRUE(engine->FlushLearning().ok());
  EXPECT_FALSE(Has(Learned(), "Dfgtsecret"));
  std::unique_ptr<UserStore> store;
  UserStoreOptions options;
  options.path = store_path_;
  ASSERT_TRUE(UserStore::Open(options, &store).ok());
  std::vector<LearnedPair> pairs;
  ASSERT_TRUE(store->ListPairs("", &pairs).ok());
  for (const LearnedPair& p : pairs) {
    EXPECT_NE(p.previous, "Dfgtsecret");
    EXPECT_NE(p.word, "Dfgtsecret");
  }
  std::vector<RecentWord> recent;
  ASSERT_TRUE(store->ListRecent("en", 1000, &recent).ok());
  for (const RecentWord& r : recent) {
    EXPECT_NE(r.word, "Dfgtsecret");
    EXPECT_NE(r.previous, "Dfgtsecret");
  }
  // Typed again after the forget, the word is the person's again: a forget is not a ban.
  auto again = engine->NewSession({});
  ASSERT_TRUE(again->Type("Dfgtsecret again ").ok());
  again.reset();
  ASSERT_TRUE(engine->FlushLearning().ok());
  EXPECT_TRUE(Has(Learned(), "Dfgtsecret"));
}

// Text given by set_context (the field's text, which the fcitx5 input method sends) is never
// learned: not as a word, not as the word before a typed one (a pair), not in the recent text.
TEST_F(PersonalSessionTest, TextFromSetContextIsNeverLearned) {
  auto engine = OpenEngine();
  ASSERT_TRUE(engine);
  {
    auto s = engine->NewSession({});
    ASSERT_TRUE(s->SetContext("Contextsecretqq ").ok());
    ASSERT_TRUE(s->Type("hello there ").ok());
    ASSERT_TRUE(s->SetContext("a field with Contextwordqq").ok());
    ASSERT_TRUE(s->Type(" typed after ").ok());
    ASSERT_TRUE(s->SetContext("half Contexthalfqq").ok());
    ASSERT_TRUE(s->Type("zz next ").ok());
  }
  ASSERT_TRUE(engine->FlushLearning().ok());
  const std::vector<std::string> learned = Learned();
  EXPECT_TRUE(Has(learned, "hello"));
  EXPECT_TRUE(Has(learned, "typed"));
  for (const std::string& w : learned) EXPECT_EQ(w.find("Context"), std::string::npos) << w;
  std::unique_ptr<UserStore> store;
  UserStoreOptions options;
  options.path = store_path_;
  ASSERT_TRUE(UserStore::Open(options, &store).ok());
  std::vector<LearnedPair> pairs;
  ASSERT_TRUE(store->ListPairs("", &pairs).ok());
  for (const LearnedPair& p : pairs) EXPECT_EQ(p.previous.find("Context"), std::string::npos);
  std::vector<RecentWord> recent;
  ASSERT_TRUE(store->ListRecent("en", 1000, &recent).ok());
  for (const RecentWord& r : recent) {
    EXPECT_EQ(r.word.find("Context"), std::string::npos);
    EXPECT_EQ(r.previous.find("Context"), std::string::npos);
  }
}

}  // namespace
}  // namespace keydecide
