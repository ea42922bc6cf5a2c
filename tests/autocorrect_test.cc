// Autocorrect: the bounded edit distance, the model's pick of a replacement (against a
// brute-force reading of the same logits), the words left as typed, and the shipped English
// engine on a few typos in context.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "decide/autocorrect.h"
#include "keydecide/engine.h"
#include "lexicon/lexicon.h"
#include "model/safetensors.h"
#include "model/transformer.h"
#include "model_fixture.h"
#include "test_util.h"
#include "text/edit_distance.h"
#include "text/letter_case.h"

namespace keydecide {
namespace {

// Plain optimal-string-alignment distance, no bound: the reference.
int ReferenceDistance(std::string_view a, std::string_view b) {
  const size_t m = a.size(), n = b.size();
  std::vector<std::vector<int>> d(m + 1, std::vector<int>(n + 1));
  for (size_t i = 0; i <= m; ++i) d[i][0] = static_cast<int>(i);
  for (size_t j = 0; j <= n; ++j) d[0][j] = static_cast<int>(j);
  for (size_t i = 1; i <= m; ++i) {
    for (size_t j = 1; j <= n; ++j) {
      d[i][j] =
          std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1])});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[m][n];
}

TEST(EditDistanceTest, Examples) {
  EXPECT_EQ(BoundedEditDistance("the", "the", 2), 0);
  EXPECT_EQ(BoundedEditDistance("dthe", "the", 2), 1);   // extra letter
  EXPECT_EQ(BoundedEditDistance("teh", "the", 2), 1);    // swap
  EXPECT_EQ(BoundedEditDistance("vas", "was", 2), 1);    // wrong key
  EXPECT_EQ(BoundedEditDistance("ahev", "have", 2), 2);  // swap + shift
  EXPECT_EQ(BoundedEditDistance("", "ab", 2), 2);
  EXPECT_EQ(BoundedEditDistance("softball", "software", 2), 3);  // too far: bound + 1
  EXPECT_EQ(BoundedEditDistance("a", "abcdef", 2), 3);
  EXPECT_EQ(BoundedEditDistance("abc", "abd", 0), 1);
  EXPECT_EQ(BoundedEditDistance("abc", "abc", -1), 0);  // a negative bound: nothing is within it
  const std::string huge(kMaxEditDistanceBytes + 1, 'a');
  EXPECT_EQ(BoundedEditDistance(huge, huge, 2), 3);  // longer than it compares: too far
}

TEST(EditDistanceTest, MatchesTheReferenceWithinTheBound) {
  std::mt19937 rng(11);
  auto random_word = [&](size_t max_len) {
    std::string s(rng() % (max_len + 1), 'a');
    for (char& c : s) c = static_cast<char>('a' + rng() % 4);  // few letters: many swaps
    return s;
  };
  for (int i = 0; i < 20000; ++i) {
    const std::string a = random_word(9), b = random_word(9);
    const int bound = static_cast<int>(rng() % 5);
    const int want = std::min(ReferenceDistance(a, b), bound + 1);
    ASSERT_EQ(BoundedEditDistance(a, b, bound), want) << a << " / " << b << " bound " << bound;
  }
}

TEST(LetterCaseTest, AllUpper) {
  EXPECT_TRUE(IsAllUpper("NASA"));
  EXPECT_TRUE(IsAllUpper("HD"));
  EXPECT_TRUE(IsAllUpper("I'M"));
  EXPECT_TRUE(IsAllUpper("ÉTÉ"));
  EXPECT_FALSE(IsAllUpper("I"));  // one letter: a word, not an acronym
  EXPECT_FALSE(IsAllUpper("Hd"));
  EXPECT_FALSE(IsAllUpper("the"));
  EXPECT_FALSE(IsAllUpper(""));
  EXPECT_FALSE(IsAllUpper("42"));
  EXPECT_FALSE(IsAllUpper("\xff\xfe"));  // broken UTF-8: no letters
}

std::unique_ptr<Transformer> TinyModel() {
  std::unique_ptr<SafetensorsFile> file;
  EXPECT_TRUE(SafetensorsFile::FromBytes(testing::TinyModelBytes(), &file).ok());
  std::unique_ptr<Transformer> model;
  EXPECT_TRUE(Transformer::Load(std::move(file), &model).ok());
  return model;
}

// Pick is "the best letter words by logit, the first within two edits; none when the typed
// letters come first": checked against the whole sorted logit row for random states.
TEST(CorrectionPickTest, MatchesBruteForceOverTheLogits) {
  auto model = TinyModel();
  ASSERT_NE(model, nullptr);
  CorrectionPick pick(model.get());
  std::mt19937 rng(5);
  std::normal_distribution<float> normal(0.0f, 2.0f);
  const std::vector<std::string> typed = {"the",     "teh", "dthe", "dgo", "cat", "cta", "meetign",
                                          "statoin", "wee", "wil",  "xyz", "a",   "aa",  ""};
  std::vector<float> hidden(model->config().d_model), logits(model->n_words());
  int picked = 0, none = 0, kept = 0;
  for (int trial = 0; trial < 500; ++trial) {
    for (float& h : hidden) h = normal(rng);
    model->WordLogits(hidden.data(), logits.data());
    std::vector<int> order;
    for (int w = 0; w < model->n_words(); ++w) {
      if (model->vocab().IsLetterWord(w)) order.push_back(w);
    }
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return logits[a] > logits[b]; });
    order.resize(std::min<size_t>(order.size(), kCorrectionShortlist));
    for (const std::string& t : typed) {
      // The best by logit less kCorrectionEditCost per edit (and kCorrectionExtensionCost for a
      // word that only carries on the typed letters), the typed word at no cost; the earlier
      // (higher logit) of equal scores.
      int want = -1;
      bool want_typed_first = false;
      float best = 0;
      bool any = false;
      for (int w : order) {
        const std::string word = ToLowerUtf8(model->vocab().Word(w));
        const int edits = ReferenceDistance(word, t);
        if (edits > kMaxCorrectionEdits) continue;
        const bool extends =
            edits > 0 && word.size() > t.size() && word.compare(0, t.size(), t) == 0;
        const float score = logits[w] - kCorrectionEditCost * static_cast<float>(edits) -
                            (extends ? kCorrectionExtensionCost : 0.0f);
        if (!any || score > best) {
          any = true;
          best = score;
          want_typed_first = word == t;
          want = word == t ? -1 : w;
        }
      }
      bool typed_first = !want_typed_first;
      ASSERT_EQ(pick.Pick(hidden.data(), t, &typed_first), want)
          << "typed " << t << " trial " << trial;
      ASSERT_EQ(typed_first, want_typed_first) << "typed " << t << " trial " << trial;
      (want >= 0 ? picked : want_typed_first ? kept : none) += 1;
    }
  }
  EXPECT_GT(picked, 100);  // every outcome is exercised
  EXPECT_GT(none, 100);
  EXPECT_GT(kept, 10);
}

TEST(CorrectionPickTest, KeepsAcronymsAndNamesAsTyped) {
  std::unique_ptr<Lexicon> lex;
  ASSERT_TRUE(Lexicon::FromBytes(testing::FixtureLexiconBytes(), &lex).ok());
  EXPECT_TRUE(KeepAsTyped("HD", "hd", *lex));
  EXPECT_TRUE(KeepAsTyped("TEH", "teh", *lex));  // capitals only: left alone even if a typo
  EXPECT_FALSE(KeepAsTyped("teh", "teh", *lex));
  EXPECT_FALSE(KeepAsTyped("Teh", "teh", *lex));  // not in the lexicon: maybe a typo
  // A capitalised word the lexicon writes capitalised is a name; one it writes in lower case
  // is an ordinary word at a sentence start.
  bool saw_name = false, saw_word = false;
  for (uint32_t e = 0; e < lex->entry_count(); ++e) {
    const std::string key(lex->Key(e));
    const std::string typed = CapitalizeUtf8(key);
    if (StartsUpper(lex->CommonSpelling(e))) {
      EXPECT_TRUE(KeepAsTyped(typed, key, *lex)) << key;
      saw_name = true;
    } else {
      EXPECT_FALSE(KeepAsTyped(typed, key, *lex)) << key;
      saw_word = true;
    }
  }
  EXPECT_TRUE(saw_name);
  EXPECT_TRUE(saw_word);
}

// The shipped English model (the engine's default int8 file) on typos in context.
class ShippedAutocorrectTest : public ::testing::Test {
 protected:
  void SetUp() override {
    EngineOptions options;
    options.model_dir = KD_MODELS_DIR;
    ASSERT_TRUE(Engine::Open(options, &engine_).ok());
    ASSERT_EQ(engine_->info().scorer, "model+bigram+teacher");  // the shipped pack has all
  }
  Decision TypeAndDecide(std::string_view text, const SessionOptions& options = {}) {
    auto session = engine_->NewSession(options);
    EXPECT_TRUE(session->Type(text).ok());
    Decision d;
    EXPECT_TRUE(session->Decide(3, &d).ok());
    return d;
  }
  std::unique_ptr<Engine> engine_;
};

TEST_F(ShippedAutocorrectTest, CorrectsSlipsTheSearchCannotReach) {
  // A wrong or extra first letter is beyond the lexicon search's slips on short words.
  for (const auto& [typed, fixed] :
       {std::pair{"I went to dthe", "the"}, {"what are yuo", "you"}, {"I think taht", "that"}}) {
    const Decision d = TypeAndDecide(typed);
    EXPECT_TRUE(d.autocorrect.apply) << typed;
    EXPECT_EQ(d.autocorrect.replacement, fixed) << typed;
  }
}

// A word the lexicon lacks that this text already kept as typed is the text's own (a program, a
// name): it is not corrected again; without it earlier in the text, it is.
TEST_F(ShippedAutocorrectTest, AWordThisTextKeptIsNotCorrectedAgain) {
  const Decision first = TypeAndDecide("Open a terminal in alacritty");
  EXPECT_TRUE(first.autocorrect.apply);
  EXPECT_EQ(first.autocorrect.replacement, "alacrity");
  const Decision again =
      TypeAndDecide("Open a terminal in alacritty, and the next one in alacritty");
  EXPECT_FALSE(again.autocorrect.apply);
}

// Of the model's best words near the letters, fewer edits win unless the model prefers the other
// by more than kCorrectionEditCost a edit: "oyur" is one swap from "your" and two edits from
// "yours", which the model ranks first after "what is" (without the cost it was the pick).
TEST_F(ShippedAutocorrectTest, FewerEditsWinAClosePreference) {
  for (const char* typed : {"what is oyur", "it is oyur"}) {
    const Decision d = TypeAndDecide(typed);
    EXPECT_TRUE(d.autocorrect.apply) << typed;
    EXPECT_EQ(d.autocorrect.replacement, "your") << typed;
  }
}

// A word that only carries on the typed letters pays kCorrectionExtensionCost: the model reads
// "vas" as a word being typed and ranks "vast" first here; at the word's end "was" was meant.
TEST_F(ShippedAutocorrectTest, AWordThatCarriesOnTheLettersPaysMore) {
  const Decision d = TypeAndDecide("The sweet kraut on the sandwich vas");
  EXPECT_TRUE(d.autocorrect.apply);
  EXPECT_EQ(d.autocorrect.replacement, "was");
}

// A slip in a word the model's vocabulary lacks (the lexicon has it): no word of the model's
// shortlist is near the letters, and the scored candidates supply the word. Threshold 0: the
// head always fires, so this is about the replacement, not the head.
TEST_F(ShippedAutocorrectTest, RareWordsAreCorrectedFromTheCandidates) {
  SessionOptions options;
  options.autocorrect_threshold = 0;
  // Words outside step 8's 36,000 (its vocabulary took in "archaeologist" and "porcupine").
  for (const auto& [typed, fixed] : {std::pair{"she is asthmatc", "asthmatic"},
                                     {"the embankmnt", "embankment"},
                                     {"a headmastr", "headmaster"}}) {
    auto session = engine_->NewSession(options);
    ASSERT_TRUE(session->Type(typed).ok());
    Decision d;
    ASSERT_TRUE(session->Decide(3, &d).ok());
    EXPECT_TRUE(d.autocorrect.apply) << typed;
    EXPECT_EQ(d.autocorrect.replacement, fixed) << typed;
  }
  // A word the lexicon knows is not replaced by this path.
  auto session = engine_->NewSession(options);
  ASSERT_TRUE(session->Type("she is asthmatic").ok());
  Decision d;
  ASSERT_TRUE(session->Decide(3, &d).ok());
  EXPECT_NE(d.autocorrect.replacement, "asthmatic");
}

// A lower-case word that neither the lexicon nor the known words (lexicon.kdws) hold fires at a
// quarter of the threshold; a capitalised one (a name, likely) and a real word the lexicon lacks
// do not. The head says 0.45 for "accomodation" and 0.36 for "stoat" (-> "story") here
// (examples, not the rule), so the threshold is set to 0.6 rather than taken from a level.
TEST_F(ShippedAutocorrectTest, UnknownLowerCaseWordsFireMoreReadily) {
  std::unique_ptr<Lexicon> lex;
  ASSERT_TRUE(Lexicon::Open(std::string(KD_MODELS_DIR) + "/en/lexicon.kdlex", &lex).ok());
  ASSERT_EQ(lex->Find("stoat"), lexicon::kNoEntry);  // only the word list has it
  ASSERT_EQ(lex->Find("accomodation"), lexicon::kNoEntry);
  SessionOptions bar;
  bar.autocorrect_threshold = 0.6f;
  ASSERT_EQ(UnknownWordThreshold(bar), 0.6f * kUnknownWordFactor);
  Decision d = TypeAndDecide("I met the accomodation", bar);
  EXPECT_TRUE(d.autocorrect.apply);
  EXPECT_EQ(d.autocorrect.replacement, "accommodation");
  EXPECT_LT(d.autocorrect.confidence, 0.6f);
  EXPECT_GE(d.autocorrect.confidence, UnknownWordThreshold(bar));
  d = TypeAndDecide("I met the Accomodation", bar);
  EXPECT_FALSE(d.autocorrect.apply);
  d = TypeAndDecide("I met the stoat", bar);
  EXPECT_FALSE(d.autocorrect.apply);
  EXPECT_GE(d.autocorrect.confidence, UnknownWordThreshold(bar));  // it would, if unknown
  // The "off" level stays off.
  SessionOptions off;
  off.autocorrect_level = AutocorrectLevel::kOff;
  auto session = engine_->NewSession(off);
  ASSERT_TRUE(session->Type("I met the accomodation").ok());
  ASSERT_TRUE(session->Decide(3, &d).ok());
  EXPECT_FALSE(d.autocorrect.apply);
}

// An unknown word one edit from a word the search scored is corrected at the normal level
// whatever the head says (kNearMisspellingFactor); the head's probability for these is below
// even the unknown-word bar here (examples, checked first). Not at the cautious level, not a
// capitalised one (a name, likely).
TEST_F(ShippedAutocorrectTest, UnknownWordsOneEditFromAWordAreCorrected) {
  const float unknown_bar = UnknownWordThreshold(SessionOptions{});
  for (const auto& [typed, meant] : {std::pair{"she is a professinal", "professional"},
                                     {"I think the rythm", "rhythm"},
                                     {"I think the vaccum", "vacuum"}}) {
    Decision d = TypeAndDecide(typed);
    ASSERT_LT(d.autocorrect.confidence, unknown_bar) << typed;
    EXPECT_TRUE(d.autocorrect.apply) << typed;
    EXPECT_EQ(d.autocorrect.replacement, meant) << typed;
    SessionOptions cautious;
    cautious.autocorrect_level = AutocorrectLevel::kCautious;
    d = TypeAndDecide(typed, cautious);
    EXPECT_FALSE(d.autocorrect.apply) << typed;
  }
  Decision d = TypeAndDecide("she is a Professinal");
  EXPECT_FALSE(d.autocorrect.apply && d.autocorrect.confidence < unknown_bar);
  const AutocorrectBars bars = AutocorrectBarsFor(SessionOptions{});
  EXPECT_EQ(bars.near_unknown, bars.word * kNearMisspellingFactor);
  SessionOptions off;
  off.autocorrect_level = AutocorrectLevel::kOff;
  EXPECT_GT(AutocorrectBarsFor(off).near_unknown, 1.0f);
}

// A word of the model's vocabulary needs kModelWordThreshold whatever the level: the head says
// 0.24 for "pint" and 0.71 for "neatly" here (examples), above the normal level's threshold,
// and without the bar they became "point" and "nearly".
TEST_F(ShippedAutocorrectTest, WordsTheModelKnowsNeedMore) {
  for (const char* typed : {"we had a pint", "she folded it neatly"}) {
    const Decision d = TypeAndDecide(typed);
    EXPECT_FALSE(d.autocorrect.apply) << typed;
    EXPECT_GE(d.autocorrect.confidence, AutocorrectThreshold(AutocorrectLevel::kNormal)) << typed;
    EXPECT_LT(d.autocorrect.confidence, kModelWordThreshold) << typed;
  }
}

// Below the full rung the vocabulary is not read: the lexicon candidates' best stands in, and
// it cannot reach "the" from "dthe".
TEST_F(ShippedAutocorrectTest, BelowTheFullRungTheCandidatesStandIn) {
  auto session = engine_->NewSession(SessionOptions());
  ASSERT_TRUE(session->Type("I went to dthe").ok());
  Decision d;
  session->SetTier(Tier::kNoVocabProposals);
  ASSERT_TRUE(session->Decide(3, &d).ok());
  EXPECT_NE(d.autocorrect.replacement, "the");
  session->SetTier(Tier::kFullModel);
  ASSERT_TRUE(session->Decide(3, &d).ok());
  EXPECT_EQ(d.autocorrect.replacement, "the");
}

TEST_F(ShippedAutocorrectTest, LeavesRightWordsAcronymsAndNames) {
  for (const char* typed : {"we went to the park", "I love my new HD", "we had Thai"}) {
    EXPECT_FALSE(TypeAndDecide(typed).autocorrect.apply) << typed;
  }
}

// The undo (Session::AcceptCorrection): the host applies the correction and types on; a
// backspace back to the corrected word offers the letters as typed first and no correction;
// taking them back keeps them, there, through the word's end.
TEST_F(ShippedAutocorrectTest, BackspaceAfterACorrectionOffersTheTypedLettersBack) {
  auto session = engine_->NewSession(SessionOptions());
  ASSERT_TRUE(session->Type("I saw teh").ok());
  Decision d;
  ASSERT_TRUE(session->Decide(3, &d).ok());
  ASSERT_TRUE(d.autocorrect.apply);
  ASSERT_EQ(d.autocorrect.replacement, "the");
  ASSERT_TRUE(session->AcceptCorrection(d.autocorrect.replacement).ok());
  ASSERT_TRUE(session->Type(" ").ok());
  EXPECT_EQ(session->text(), "I saw the ");
  ASSERT_TRUE(session->Decide(3, &d).ok());
  for (const Candidate& c : d.candidates) EXPECT_NE(c.kind, CandidateKind::kTyped);

  ASSERT_TRUE(session->Backspace().ok());  // the space: back at the corrected word
  ASSERT_TRUE(session->Decide(3, &d).ok());
  EXPECT_EQ(d.composition, "the");
  ASSERT_FALSE(d.candidates.empty());
  EXPECT_EQ(d.candidates[0].text, "teh");
  EXPECT_EQ(d.candidates[0].kind, CandidateKind::kTyped);
  EXPECT_TRUE(std::isfinite(d.candidates[0].score));
  EXPECT_GT(d.candidates[0].score, d.candidates.size() > 1 ? d.candidates[1].score : -1e9f);
  EXPECT_FALSE(d.autocorrect.apply);  // "the" is not corrected again
  for (size_t i = 1; i < d.candidates.size(); ++i) EXPECT_NE(d.candidates[i].text, "teh");

  ASSERT_TRUE(session->Accept("teh").ok());  // taken back
  ASSERT_TRUE(session->Decide(3, &d).ok());
  EXPECT_EQ(d.composition, "teh");
  EXPECT_FALSE(d.autocorrect.apply);  // kept as typed at this spot
  for (const Candidate& c : d.candidates) EXPECT_NE(c.kind, CandidateKind::kTyped);
  ASSERT_TRUE(session->Type(" ").ok());
  EXPECT_EQ(session->text(), "I saw teh ");

  // The same typo later in the text is corrected again (this session learns nothing).
  ASSERT_TRUE(session->Type("cat. Then I read teh").ok());
  ASSERT_TRUE(session->Decide(3, &d).ok());
  EXPECT_TRUE(d.autocorrect.apply);
}

TEST_F(ShippedAutocorrectTest, TypingOnOrAnotherPickForgetsTheCorrection) {
  auto session = engine_->NewSession(SessionOptions());
  Decision d;
  ASSERT_TRUE(session->Type("I saw teh").ok());
  ASSERT_TRUE(session->AcceptCorrection("the").ok());
  ASSERT_TRUE(session->Type("y").ok());  // "they": another word
  ASSERT_TRUE(session->Decide(3, &d).ok());
  for (const Candidate& c : d.candidates) EXPECT_NE(c.kind, CandidateKind::kTyped);
  ASSERT_TRUE(session->Backspace().ok());  // back to "the", but it is no longer the correction
  ASSERT_TRUE(session->Decide(3, &d).ok());
  for (const Candidate& c : d.candidates) EXPECT_NE(c.kind, CandidateKind::kTyped);

  ASSERT_TRUE(session->SetContext("I saw teh").ok());
  ASSERT_TRUE(session->AcceptCorrection("the").ok());
  ASSERT_TRUE(session->SetContext("I saw the").ok());  // the field changed under it
  ASSERT_TRUE(session->Decide(3, &d).ok());
  for (const Candidate& c : d.candidates) EXPECT_NE(c.kind, CandidateKind::kTyped);

  // Nothing composed: nothing to correct.
  ASSERT_TRUE(session->SetContext("I saw ").ok());
  EXPECT_EQ(session->AcceptCorrection("the").code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(session->AcceptCorrection("two words").code(), Status::Code::kInvalidArgument);
}

// Contractions typed without their apostrophe and words typed in lower case that are written
// capitalised: offered as completions, and autocorrected by the spelling rules.
TEST_F(ShippedAutocorrectTest, ContractionsAndCapitals) {
  for (const auto& [typed, fixed] : {std::pair{"well I dont", "don't"},
                                     {"I think youre", "you're"},
                                     {"yes and theyre", "they're"},
                                     {"so im", "I'm"},
                                     {"I really cant", "can't"},
                                     {"and then i", "I"}}) {
    auto session = engine_->NewSession(SessionOptions());
    ASSERT_TRUE(session->Type(typed).ok());
    Decision d;
    ASSERT_TRUE(session->Decide(5, &d).ok());  // the model ranks "I'm" fourth after "so im"
    EXPECT_TRUE(d.autocorrect.apply) << typed;
    EXPECT_EQ(d.autocorrect.replacement, fixed) << typed;
    bool offered = false;
    for (const Candidate& c : d.candidates) {
      if (c.text == fixed) {
        offered = true;
        EXPECT_EQ(c.kind, CandidateKind::kCompletion) << typed;  // not a two-slip correction
      }
    }
    EXPECT_TRUE(offered) << typed << ": " << fixed << " is not among the candidates";
  }
  // Words of their own that look like contractions stay: its, ill, were, well, lets.
  for (const char* typed : {"I saw its", "I feel ill", "they were", "very well", "she lets"}) {
    const Decision d = TypeAndDecide(typed);
    EXPECT_FALSE(d.autocorrect.apply) << typed << " -> " << d.autocorrect.replacement;
  }
  EXPECT_FALSE(TypeAndDecide("and then I").autocorrect.apply);
  // Apostrophe words that are not contractions (elisions of old verse) are not written by the
  // rule: "oer" typed for "over" is not made o'er, nor "neer" ne'er.
  for (const char* typed : {"we walked oer", "I will neer"}) {
    const Decision d = TypeAndDecide(typed);
    EXPECT_EQ(d.autocorrect.replacement.find('\''), std::string::npos)
        << typed << " -> " << d.autocorrect.replacement;
  }
  // The typographic apostrophe works as the straight one, and comes back as typed.
  const Decision curly = TypeAndDecide("well I don\u2019");
  ASSERT_FALSE(curly.candidates.empty());
  EXPECT_EQ(curly.candidates[0].text, "don\u2019t");
  // Off means off: no spelling rule either.
  SessionOptions off;
  off.autocorrect_level = AutocorrectLevel::kOff;
  auto session = engine_->NewSession(off);
  ASSERT_TRUE(session->Type("well I dont").ok());
  Decision d;
  ASSERT_TRUE(session->Decide(3, &d).ok());
  EXPECT_FALSE(d.autocorrect.apply);
}

// The levels are thresholds in order; off never applies.
TEST_F(ShippedAutocorrectTest, LevelsOrderTheThresholds) {
  EXPECT_GT(AutocorrectThreshold(AutocorrectLevel::kOff), 1.0f);
  EXPECT_GT(AutocorrectThreshold(AutocorrectLevel::kCautious),
            AutocorrectThreshold(AutocorrectLevel::kNormal));
  EXPECT_GT(AutocorrectThreshold(AutocorrectLevel::kNormal),
            AutocorrectThreshold(AutocorrectLevel::kEager));
  // An unknown word needs less at every level but off, and more at a more cautious one; an
  // explicit threshold takes the default share of it.
  auto unknown = [](AutocorrectLevel level) {
    SessionOptions options;
    options.autocorrect_level = level;
    return UnknownWordThreshold(options);
  };
  EXPECT_GT(unknown(AutocorrectLevel::kOff), 1.0f);
  EXPECT_GT(unknown(AutocorrectLevel::kCautious), unknown(AutocorrectLevel::kNormal));
  EXPECT_GT(unknown(AutocorrectLevel::kNormal), unknown(AutocorrectLevel::kEager));
  for (const AutocorrectLevel level :
       {AutocorrectLevel::kCautious, AutocorrectLevel::kNormal, AutocorrectLevel::kEager}) {
    EXPECT_LT(unknown(level), AutocorrectThreshold(level));
  }
  SessionOptions explicit_threshold;
  explicit_threshold.autocorrect_threshold = 0.4f;
  EXPECT_FLOAT_EQ(UnknownWordThreshold(explicit_threshold), 0.4f * kUnknownWordFactor);
  for (const AutocorrectLevel level : {AutocorrectLevel::kOff, AutocorrectLevel::kCautious,
                                       AutocorrectLevel::kNormal, AutocorrectLevel::kEager}) {
    AutocorrectLevel parsed;
    ASSERT_TRUE(ParseAutocorrectLevel(AutocorrectLevelName(level), &parsed).ok());
    EXPECT_EQ(parsed, level);
  }
  AutocorrectLevel parsed;
  EXPECT_FALSE(ParseAutocorrectLevel("sometimes", &parsed).ok());
  SessionOptions off;
  off.autocorrect_level = AutocorrectLevel::kOff;
  auto session = engine_->NewSession(off);
  ASSERT_TRUE(session->Type("I saw teh").ok());
  Decision d;
  ASSERT_TRUE(session->Decide(3, &d).ok());
  EXPECT_FALSE(d.autocorrect.apply);
  EXPECT_EQ(d.autocorrect.replacement, "the");  // still the hint
}

}  // namespace
}  // namespace keydecide
