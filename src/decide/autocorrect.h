// CorrectionPick: the word autocorrect proposes for the letters typed so far.
//
// The autocorrect head is trained to say "the typed word is wrong and the model's best word is
// right", where the best word is the argmax over the vocabulary at the last keystroke
// (training/train.py). So the replacement is read off the same place, not off the lexicon
// search's candidates, which stop at two slips and rarely reach a wrong first letter ("dthe",
// "vas" for "was"). A bound on the edit distance keeps the model from replacing a word it does
// not know with a frequent one it does ("softball" -> "software").
//
// Reading the vocabulary costs one product with the word table, so the engine asks only when
// the head has already fired.
//
// Not thread-safe: one per session. Scratch is sized in the constructor; Pick does not allocate.

#ifndef KEYDECIDE_DECIDE_CORRECTION_PICK_H_
#define KEYDECIDE_DECIDE_CORRECTION_PICK_H_

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace keydecide {

class Lexicon;
class Transformer;

// Edits (insertion, deletion, substitution, adjacent swap of bytes: of letters, for English) a
// replacement may be away from the typed letters. On the cspell pairs typed into dev text, 99.4% of
// the right corrections are within 2, and half of the wrong changes of correctly typed words are
// not (docs/BENCHMARKS.md).
inline constexpr int kMaxCorrectionEdits = 2;
// The replacement is one of the model's 8192 most frequent words (its vocabulary is in frequency
// order). Where the head fires, reading all 20k rows cost about 250 us per decision, 8192 rows
// about 100 us; on the tuning text the corrected rate fell only from 0.861 to 0.858 (the
// en_long3 model at threshold 0.3).
inline constexpr int kCorrectionWords = 8192;
// The model's best words looked at, best first; the first within the bound is taken.
inline constexpr int kCorrectionShortlist = 8;

// True when the word as typed is left alone whatever the head says: two or more capitals
// ("NASA", "HD": an acronym, or shouting), or a capitalised word that the lexicon writes
// capitalised ("Thai", "Ben": a name). The model reads keys without their case, so it cannot
// tell these from typos. `composition` is the word as typed; `typed` is it lower-cased.
bool KeepAsTyped(std::string_view composition, std::string_view typed, const Lexicon& lexicon);

class CorrectionPick {
 public:
  // REQUIRES: model outlives this object.
  explicit CorrectionPick(const Transformer* model);

  // The model word index of the highest-logit letter word within kMaxCorrectionEdits edits of
  // `typed` (lower-cased UTF-8) and not `typed` itself, among the model's kCorrectionShortlist
  // best letter words; -1 when none is, or when `typed` itself ranks above it. `hidden` is the
  // model's state after the typed keys.
  int Pick(const float* hidden, std::string_view typed);

 private:
  const Transformer* model_;
  std::vector<float> logits_;                     // [min(n_words, kCorrectionWords)]
  std::vector<std::pair<float, int>> shortlist_;  // best letter words, best first
  std::string lower_;
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_CORRECTION_PICK_H_
