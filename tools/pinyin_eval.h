// keydecide eval pinyin: pinyin-to-hanzi conversion typed letter by letter, through the public
// Session API, on "hanzi<TAB>letters<TAB>space-separated syllables" lines
// ("我们的中国<TAB>womendezhongguo<TAB>wo men de zhong guo"). bench/libime_eval.cc measures
// libime the same way: keep the two in step.

#ifndef KEYDECIDE_TOOLS_PINYIN_EVAL_H_
#define KEYDECIDE_TOOLS_PINYIN_EVAL_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "keydecide/options.h"
#include "keydecide/status.h"

namespace keydecide {

class Engine;

struct PinyinEvalLine {
  std::string hanzi;                   // the intended text
  std::string letters;                 // what is typed: a-z and apostrophes
  std::vector<std::string> syllables;  // the file's third field, split at spaces
};

// Parses the file's lines (blank lines skipped). InvalidArgument naming "line N" for invalid
// UTF-8, fewer than three tab-separated fields, an empty hanzi or letters field, letters other
// than a-z and apostrophes, more than 1024 letters, or syllables that do not spell the letters.
Status ParsePinyinEval(std::string_view tsv, std::vector<PinyinEvalLine>* out);

struct PinyinEvalResult {
  uint64_t lines = 0;
  uint64_t top1 = 0;         // lines whose first candidate after the last letter is the hanzi
  uint64_t top5 = 0;         // ... among the first five
  uint64_t chars = 0;        // code points of the hanzi, all lines
  uint64_t char_errors = 0;  // edit distance (code points) from the first candidate, all lines
  std::vector<float> keystroke_us;  // one letter: Type + Decide(5), every letter of every line
  std::vector<float> sentence_us;   // every letter in one Type + Decide(5), every line
  std::vector<std::string> first;   // each line's first candidate after the last letter

  double sentence_top1() const { return lines ? static_cast<double>(top1) / lines : 0; }
  double sentence_top5() const { return lines ? static_cast<double>(top5) / lines : 0; }
  double char_accuracy() const {
    return chars ? 1.0 - static_cast<double>(char_errors) / static_cast<double>(chars) : 0;
  }
};

// Each line from an empty context: its letters typed one at a time into a session with a
// decision after each, the last decision scored; then the whole letters typed at once into a
// second session, timed. The first error of a session is returned. The sessions are opened with
// `session_options` (no_learn: they rank with the person's words but teach nothing).
Status EvalPinyin(const std::vector<PinyinEvalLine>& lines, const Engine& engine,
                  PinyinEvalResult* result, const SessionOptions& session_options = {});

// Levenshtein distance between two valid UTF-8 strings, in code points.
size_t CodePointEditDistance(std::string_view a, std::string_view b);

}  // namespace keydecide

#endif  // KEYDECIDE_TOOLS_PINYIN_EVAL_H_
