// Replay arithmetic on tiny texts, checked by hand against a scripted session.

#include "tools/replay.h"
#include "tools/typist.h"

#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <map>
#include <optional>

#include "keydecide/engine.h"
#include "test_util.h"

namespace keydecide {
namespace {

// A session that suggests, for each word, a fixed list once `needed` letters are typed.
class ScriptedSession : public Session {
 public:
  // word -> letters that must be typed before the word is offered (as the only candidate)
  explicit ScriptedSession(std::map<std::string, size_t> needed) : needed_(std::move(needed)) {}

  using Session::Type;
  Status Type(std::string_view t, std::optional<int64_t> t_ms) override {
    text_ += t;
    times_.push_back(t_ms);
    return Status::OK();
  }
  const std::vector<std::optional<int64_t>>& times() const { return times_; }
  Status Backspace() override { return Status::OK(); }
  Status Accept(std::string_view word) override {
    text_.resize(text_.size() - composition().size());
    text_ += word;
    ++accepted_;
    return Status::OK();
  }
  Status SetContext(std::string_view t) override {
    text_ = t;
    return Status::OK();
  }
  Status Decide(int k, Decision* out) override {
    out->candidates.clear();
    std::string typed(composition());
    for (char& c : typed) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (const auto& [word, need] : needed_) {
      if (static_cast<int>(out->candidates.size()) < k && typed.size() >= need &&
          std::string_view(word).starts_with(typed)) {
        out->candidates.push_back({word, 0, 0, CandidateKind::kCompletion});
      }
    }
    return Status::OK();
  }
  std::string_view text() const override { return text_; }
  std::string_view composition() const override {
    size_t start = text_.size();
    // Letters, and apostrophes inside a word, as the engine composes words.
    while (start > 0 && (std::isalpha(static_cast<unsigned char>(text_[start - 1])) ||
                         (text_[start - 1] == '\'' && start > 1 &&
                          std::isalpha(static_cast<unsigned char>(text_[start - 2]))))) {
      --start;
    }
    return std::string_view(text_).substr(start);
  }
  int accepted_ = 0;

 private:
  std::map<std::string, size_t> needed_;
  std::vector<std::optional<int64_t>> times_;
  std::string text_;
};

TEST(ReplayTest, HandCheckedArithmetic) {
  // "the cat, the dog." = 17 characters.
  // the: offered with 0 letters -> 1 keystroke, free space (auto-space variant).
  // cat: offered after 2 letters -> "c","a", pick = 3 keystrokes; "," and " " typed.
  // the: 1 keystroke, free space.  dog: never offered -> 3 keystrokes; "." typed.
  ScriptedSession session({{"the", 0}, {"cat", 2}});
  ReplayResult r;
  ReplayOptions options;
  options.progress = false;
  ASSERT_TRUE(Replay("the cat, the dog.", &session, options, &r).ok());
  EXPECT_EQ(r.characters, 17u);
  EXPECT_EQ(r.keystrokes, 1u + 3u + 2u + 1u + 3u + 1u);            // 11
  EXPECT_EQ(r.keystrokes_word_only, 1u + 1u + 3u + 2u + 1u + 1u + 3u + 1u);  // 13
  EXPECT_DOUBLE_EQ(r.ksr(), 1.0 - 11.0 / 17.0);
  EXPECT_DOUBLE_EQ(r.ksr_word_only(), 1.0 - 13.0 / 17.0);
  EXPECT_EQ(r.words, 4u);
  EXPECT_EQ(r.words_picked, 3u);
  EXPECT_EQ(r.next_word_top1, 2u);  // "the" twice
  EXPECT_EQ(r.next_word_top3, 2u);
  EXPECT_EQ(r.latency_us.size(), 1u + 3u + 1u + 3u);  // one Decide per keystroke in words
  EXPECT_EQ(session.text(), "the cat, the dog.");    // the session saw the real text
  EXPECT_EQ(r.word_starts, 4u);
}

TEST(ReplayTest, NonAsciiAndCaseInsensitivity) {
  // "Café ok": "Caf" is a word (é is not an ASCII letter); "ok" likewise.
  // Characters: C a f é space o k = 7 code points.
  ScriptedSession session({{"caf", 1}, {"ok", 0}});
  ReplayResult r;
  ReplayOptions options;
  options.progress = false;
  ASSERT_TRUE(Replay("Caf\xC3\xA9 ok", &session, options, &r).ok());
  EXPECT_EQ(r.characters, 7u);
  // "Caf": "C" typed, then "caf" offered and matches case-insensitively: 2 keystrokes.
  // "é", " ": 2 keystrokes. "ok": picked at once: 1. Nothing follows, so no free space.
  EXPECT_EQ(r.keystrokes, 5u);
  EXPECT_EQ(r.keystrokes_word_only, 5u);
}

TEST(ReplayTest, WordFragmentsAreNoWordStarts) {
  // "don't": the "t" comes after an apostrophe inside the engine's word, so it is a word
  // for keystroke counting but not a word start for the next-word statistics.
  ScriptedSession session({{"t", 0}});
  ReplayResult r;
  ReplayOptions options;
  options.progress = false;
  ASSERT_TRUE(Replay("don't", &session, options, &r).ok());
  EXPECT_EQ(r.words, 2u);
  EXPECT_EQ(r.word_starts, 1u);
}

TEST(ReplayTest, RocAuc) {
  EXPECT_DOUBLE_EQ(RocAuc({{0.9f, true}, {0.1f, false}}), 1.0);
  EXPECT_DOUBLE_EQ(RocAuc({{0.1f, true}, {0.9f, false}}), 0.0);
  EXPECT_DOUBLE_EQ(RocAuc({{0.5f, true}, {0.5f, false}}), 0.5);  // a tie counts half
  // 2 positives, 2 negatives: pairs (0.8>0.3 yes, 0.8>0.6 yes, 0.4>0.3 yes, 0.4>0.6 no) = 3/4.
  EXPECT_DOUBLE_EQ(RocAuc({{0.8f, true}, {0.4f, true}, {0.3f, false}, {0.6f, false}}), 0.75);
  EXPECT_TRUE(std::isnan(RocAuc({{0.5f, true}})));
}

TEST(ReplayTest, RefusesBadOptions) {
  ScriptedSession session({});
  ReplayResult r;
  ReplayOptions options;
  options.suggestions = 0;
  EXPECT_FALSE(Replay("x", &session, options, &r).ok());
}

TEST(ReplayTest, RealEngineSavesKeystrokes) {
  auto engine = testing::FixtureEngine();
  auto session = engine->NewSession(SessionOptions());
  ReplayResult r;
  ReplayOptions options;
  options.progress = false;
  const std::string text = testing::ReadFixture("tiny_corpus.txt");
  ASSERT_TRUE(Replay(text, session.get(), options, &r).ok());
  EXPECT_GT(r.ksr(), 0.3);  // the text the lexicon was built from: most words come early
  EXPECT_GE(r.ksr(), r.ksr_word_only());
  EXPECT_GE(r.next_word_top3, r.next_word_top1);
  EXPECT_LE(r.LatencyQuantile(0.5), r.LatencyQuantile(0.99));
}

TEST(SimulatedTypistTest, SeededIncreasingTimesWithPausesBeforeWords) {
  KeyboardLayout layout;
  ASSERT_TRUE(KeyboardLayout::Load(std::string(KD_MODELS_DIR) + "/layouts/qwerty.txt", &layout).ok());
  SimulatedTypist a(layout, 7), b(layout, 7), c(layout, 8);
  const std::string text = "the quick brown fox jumps over the lazy dog and the cat sat";
  double word_start = 0, inner = 0;
  int word_starts = 0, inners = 0;
  int64_t prev = 0;
  bool differs = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const std::string key = text.substr(i, 1);
    const int64_t t = a.Press(key);
    EXPECT_EQ(t, b.Press(key));  // same seed, same times
    differs |= t != c.Press(key);
    EXPECT_GE(t, prev);
    if (i > 0 && key != " ") {
      (text[i - 1] == ' ' ? word_start : inner) += static_cast<double>(t - prev);
      (text[i - 1] == ' ' ? word_starts : inners) += 1;
    }
    prev = t;
  }
  EXPECT_TRUE(differs);
  EXPECT_GT(word_start / word_starts, 1.5 * inner / inners);  // 2.2 medians against ~0.9
  EXPECT_GT(a.median_ms(), 50);
  EXPECT_LT(a.median_ms(), 600);
}

TEST(ReplayTest, TimedReplayPassesEveryKeyATime) {
  KeyboardLayout layout;
  ASSERT_TRUE(KeyboardLayout::Load(std::string(KD_MODELS_DIR) + "/layouts/qwerty.txt", &layout).ok());
  SimulatedTypist typist(layout, 1);
  ScriptedSession timed({{"hello", 2}}), untimed({{"hello", 2}});
  ReplayOptions options;
  options.progress = false;
  ReplayResult r1, r2;
  ASSERT_TRUE(Replay("hello world", &untimed, options, &r1).ok());
  options.typist = &typist;
  ASSERT_TRUE(Replay("hello world", &timed, options, &r2).ok());
  EXPECT_EQ(r1.keystrokes, r2.keystrokes);
  ASSERT_FALSE(timed.times().empty());
  for (const auto& t : timed.times()) EXPECT_TRUE(t.has_value());
  for (const auto& t : untimed.times()) EXPECT_FALSE(t.has_value());
}

}  // namespace
}  // namespace keydecide
