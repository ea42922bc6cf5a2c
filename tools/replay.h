// Replay: a simulated typist, so that keystroke savings compare across engines.
//
// Rules: a word is a maximal run of ASCII letters; every other character is typed, one
// keystroke each. Before each letter of a word (also at its start, with nothing typed) the
// session is asked for `suggestions` candidates; if the intended word is among them
// (ASCII case-insensitive) the typist picks it (1 keystroke) and the rest of the word is
// free; otherwise the letter is typed (1 keystroke). The auto-space variant also gets the
// following space for free after a pick. Next-word top-1/top-3 count the words that start
// where the engine sees a new word (not the "t" of "don't", which it sees as "don'...").
//   ksr_word_only = 1 - keystrokes_word_only / characters
//   ksr           = 1 - keystrokes / characters          (auto-space)
// Two stricter rules, for text as people write it (issue 15): with `contractions` a word keeps
// its apostrophes between letters ("don't" is one word, typed d-o-n-'-t, and only "don't"
// completes it); with `exact_case` a candidate counts only when it is the word as written,
// capitals included ("I", "London", a sentence's first word), since a candidate in the wrong
// case would insert the wrong text.

#ifndef KEYDECIDE_TOOLS_REPLAY_H_
#define KEYDECIDE_TOOLS_REPLAY_H_

#include <cstdint>
#include <ostream>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "keydecide/status.h"

namespace keydecide {

class Session;

class SimulatedTypist;

// One word of the text as the typist met it, for finding where one engine loses keystrokes
// to another (`keydecide replay --trace`, bench/completion_analysis.py).
struct WordTrace {
  size_t offset = 0;    // byte offset of the word in the text
  uint16_t length = 0;  // its bytes
  uint16_t typed = 0;   // letters typed before the pick (the word's length: never picked)
  bool picked = false;
  bool word_start = false;  // the engine saw a new word there (not the "t" of "don't")
  // Before each letter (while not picked, at most kTracedLetters): the intended word's rank
  // among all the candidates the engine scored (Decide asked for trace_depth), -1 absent.
  static constexpr size_t kTracedLetters = 12;
  int16_t rank[kTracedLetters];
};

struct ReplayOptions {
  int suggestions = 3;        // K candidates the typist looks at (1..200)
  bool contractions = false;  // a word keeps its apostrophes between letters
  bool exact_case = false;    // a candidate must match the word's case
  bool progress = true;       // progress bar on a terminal
  // Times every key (tools/typist.h) when set; untimed keys when null. Not owned.
  SimulatedTypist* typist = nullptr;
  // When set, one WordTrace per word, with ranks read from `trace_depth` candidates (the typist
  // still looks at the first `suggestions`; the order of the first ones does not depend on how
  // many are asked for). Not owned.
  std::vector<WordTrace>* trace = nullptr;
  int trace_depth = 200;
  // When set, a header line ("label", then the popup features' names) and one line per
  // decision with the model's heads: the replay's popup label (1/0), then the features the
  // popup network reads (decide/popup_features.h), tab-separated. Not owned.
  std::ostream* popup_features = nullptr;
};

struct ReplayResult {
  uint64_t characters = 0;  // code points of the text
  uint64_t keystrokes = 0;  // auto-space variant
  uint64_t keystrokes_word_only = 0;
  uint64_t words = 0;             // ASCII-letter words
  uint64_t word_starts = 0;       // ... that start where the engine sees a new word
  uint64_t words_picked = 0;      // words completed by picking a candidate
  uint64_t next_word_top1 = 0;    // intended word ranked first at its start (of word_starts)
  uint64_t next_word_top3 = 0;    // ... among the first three
  std::vector<float> latency_us;  // wall time of every Decide call
  // With a model: every decision's popup probability and whether showing it would have
  // helped (the intended word in the top 3 with at least 2 letters left to type).
  std::vector<std::pair<float, bool>> popup;

  double ksr() const;
  double ksr_word_only() const;
  double next_word_top1_rate() const;
  double next_word_top3_rate() const;
  // q-quantile of latency_us (0 <= q <= 1), 0 when empty.
  double LatencyQuantile(double q) const;
  // Area under the ROC curve of the popup probabilities (ties count half); NaN when
  // there is no model or only one class.
  double PopupAuc() const;
};

// The result as one JSON object (the keys documented in docs/BENCHMARKS.md: ksr,
// ksr_word_only, next_word_top1/top3, counts, latency_us {p50, p95, p99}, popup_auc or
// null), so every engine replayed is reported the same way.
nlohmann::json ReplayReport(const ReplayResult& result);

// One line of `replay --trace`: offset, word, typed, picked, word_start, ranks (one per letter
// looked at, up to the pick).
nlohmann::json WordTraceJson(std::string_view text, const WordTrace& trace);

// Area under the ROC curve of (score, is_positive) pairs; NaN with one class only.
double RocAuc(std::vector<std::pair<float, bool>> scored);

// Types `text` (valid UTF-8) into `session`, which should start empty. Returns
// InvalidArgument for invalid UTF-8 or suggestions outside 1..200, or the first error the
// session reports.
Status Replay(std::string_view text, Session* session, const ReplayOptions& options,
              ReplayResult* result);

}  // namespace keydecide

#endif  // KEYDECIDE_TOOLS_REPLAY_H_
