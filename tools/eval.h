// Offline evaluations of the decision heads, through the public Session API:
//   autocorrect: typos from a pairs file typed in context; is the typo replaced by the
//                right word, and are correctly typed words left alone?
//   intent:      labelled lines; is the predicted intent the label?

#ifndef KEYDECIDE_TOOLS_EVAL_H_
#define KEYDECIDE_TOOLS_EVAL_H_

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "keydecide/options.h"
#include "keydecide/status.h"

namespace keydecide {

class Engine;
class Session;
class SimulatedTypist;

// correction (lower case) -> misspelling, from "misspelling<TAB>correction" lines. Pairs
// whose sides are not single words of letters and apostrophes are skipped (counted in
// *skipped); the first misspelling of a correction wins. InvalidArgument for a line
// without a tab or invalid UTF-8.
Status ParseTypoPairs(std::string_view tsv, std::unordered_map<std::string, std::string>* typo_of,
                      size_t* skipped);

struct AutocorrectEvalResult {
  uint64_t typos = 0;              // words typed as their misspelling
  uint64_t corrected = 0;          // ... whose decision replaced them by the right word
  uint64_t wrongly_corrected = 0;  // ... replaced by another word
  // Every word of the text is also typed as written (a misspelt one after its typo is put
  // right), so the false rate is over the words people type, "the" included. Counting only
  // the words without a pair (the unpaired figures, this eval's measure before 2026-12) leaves
  // out every word a pairs file can misspell: with the 80,000 allowed pairs, most common words.
  uint64_t correct_words = 0;      // words typed as written
  uint64_t false_corrections = 0;  // ... that the decision would have changed
  uint64_t unpaired_words = 0;     // ... of them, the words without a pair
  uint64_t unpaired_false_corrections = 0;
  double corrected_rate() const;
  double false_correction_rate() const;
  double unpaired_false_correction_rate() const;
};

// One decision of `eval autocorrect --trace`: for a misspelt word, what would a fix have
// needed, a replacement (the head's word; only read where the head fires) or the head to
// fire; for a word typed as written, what changed it (only those are traced).
struct AutocorrectTrace {
  std::string word;         // as written in the text
  std::string typed;        // the misspelling typed in its place, or the word
  std::string replacement;  // the decision's (may be empty)
  float confidence = 0;     // the head's probability
  bool applied = false;
  bool misspelt = true;  // false: a correctly typed word the decision changed
};

// Types `text` (valid UTF-8) into `session`, every word (letters and inner apostrophes,
// straight or curly) whose lower case, apostrophes straightened, is a key of typo_of replaced
// by its misspelling (first letter's case kept), asks for a decision at the end of each word,
// then restores the true word and asks again.
// With a typist, every key is timed (tools/typist.h). With `trace`, one entry per typo and
// one per false correction is appended, in text order.
Status EvalAutocorrect(std::string_view text,
                       const std::unordered_map<std::string, std::string>& typo_of,
                       Session* session, AutocorrectEvalResult* result,
                       SimulatedTypist* typist = nullptr,
                       std::vector<AutocorrectTrace>* trace = nullptr);

struct IntentEvalResult {
  struct PerLabel {
    uint64_t total = 0, correct = 0;
  };
  std::map<std::string, PerLabel> labels;
  uint64_t total = 0, correct = 0;
};

// The lines of a label<TAB>text file, as views into `tsv` (empty lines skipped).
// InvalidArgument naming the first line that has no tab or an empty label.
struct LabeledLine {
  std::string_view label, text;
};
Status ParseLabeledLines(std::string_view tsv, std::vector<LabeledLine>* out);

// "label<TAB>text" lines: each text in a fresh session, intent taken from its decision.
// InvalidArgument for a malformed line; NotSupported when the engine has no model.
Status EvalIntent(std::string_view tsv, const Engine& engine, IntentEvalResult* result,
                  const SessionOptions& options = SessionOptions());

// Two engines typing the same text in lockstep (e.g. a quantized model against its float
// original): how often every decision agrees after each keystroke.
struct AgreementResult {
  uint64_t decisions = 0;
  uint64_t ranked = 0;         // decisions where both offered a candidate
  uint64_t ranking_top1 = 0;   // ... and the first candidates are the same word
  uint64_t popup = 0;          // same show/hide
  uint64_t autocorrect = 0;    // same apply, and the same replacement when applied
  uint64_t intent = 0;         // same label
  double max_score_error = 0;  // largest |score difference| of a candidate both offered
  double sum_score_error = 0;
  uint64_t scores_compared = 0;

  double Rate(uint64_t n, uint64_t of) const { return of ? static_cast<double>(n) / of : 1.0; }
};

// Types `text` (valid UTF-8) one character at a time into both sessions, comparing their
// decisions (max_candidates each) after every keystroke. The first error either reports.
Status EvalAgreement(std::string_view text, int max_candidates, Session* reference,
                     Session* candidate, AgreementResult* result);

}  // namespace keydecide

#endif  // KEYDECIDE_TOOLS_EVAL_H_
