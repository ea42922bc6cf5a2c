// Autocorrect: Decision::autocorrect for the word being typed (whether to replace it when it
// ends, and with what), and CorrectionPick, the word it proposes.
//
// The autocorrect head is trained to say "the typed word is wrong and the model's best word is
// right", where the best word is the argmax over the vocabulary at the last keystroke
// (training/keydecide_train/train.py). So the replacement is read off the same place, not off
// the lexicon search's candidates, which stop at two slips and rarely reach a wrong first letter
// ("dthe", "vas" for "was"). A bound on the edit distance keeps the model from replacing a word
// it does not know with a frequent one it does ("softball" -> "software").
//
// Reading the vocabulary costs one product with the word table, so the engine asks only when
// the head has already fired.
//
// Not thread-safe: one of each per session. Scratch is sized in the constructors; Decide and
// Pick do not allocate.

#ifndef KEYDECIDE_DECIDE_AUTOCORRECT_H_
#define KEYDECIDE_DECIDE_AUTOCORRECT_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "decide/scorer.h"
#include "keydecide/decision.h"

namespace keydecide {

class Lexicon;
struct SessionOptions;
class Transformer;
class WordSet;

// A lower-case word that neither the lexicon nor the known words hold is likely misspelt: the
// head needs this share of the threshold there (the normal and eager levels; an explicit
// SessionOptions::autocorrect_threshold). Chosen on the tuning text
// (docs/history/BENCHMARKS-to-2026-12-07.md, "Unknown words"): 0.5 / 0.25 / 0.1 corrected
// 0.888 / 0.898 / 0.905 of the allowed pairs' typos at 0.97% / 1.00% / 1.14% false (0.872 at
// 0.93% without).
inline constexpr float kUnknownWordFactor = 0.25f;

// The head's probability an unknown word (above) needs in a session with `options`: the level's
// share of its threshold (autocorrect_level.cc), or kUnknownWordFactor of an explicit
// autocorrect_threshold; a threshold above 1 (off) stays.
float UnknownWordThreshold(const SessionOptions& options);

// An unknown word of at least kNearMisspellingMinBytes that is one edit from a lexicon word the
// search scored is a slip the head often misses ("manybe", "firday", "professinal": it reads the
// letters as a word being made up and often says under 0.05): at the normal and eager levels it is
// corrected whatever the head says (this share of the threshold), to the best-scored such word.
// Chosen on the tuning texts with slice 1's pairs (docs/history/BENCHMARKS-to-2026-12-07.md,
// "Unknown words one edit from a word"): corrected +1.0 to +1.2 points on each of the five, false
// +0.02 to +0.08 points; 4 bytes changed nothing against 5, two edits added 0.1 point for 0.03 more
// false.
inline constexpr float kNearMisspellingFactor = 0.0f;
inline constexpr size_t kNearMisspellingMinBytes = 5;

// The head's probability Autocorrect::Decide needs, by what the typed word is.
struct AutocorrectBars {
  float word = 0;          // any word: SessionOptions::autocorrect_threshold, or the level's
  float unknown = 0;       // a lower-case word no list knows (UnknownWordThreshold)
  float near_unknown = 0;  // such a word one edit from a scored lexicon word (above)
};

// The bars of a session with `options`: the level's (autocorrect_level.cc), or the normal
// level's shares of an explicit autocorrect_threshold; a threshold above 1 (off) is every bar.
AutocorrectBars AutocorrectBarsFor(const SessionOptions& options);

// A word of the model's vocabulary (a word it has read often) needs at least this probability,
// or the threshold when that is higher. Such a word is rarely a slip: on the tuning text
// (slice 1's pairs, threshold 0.3), the head's corrections of vocabulary words were 76 of the
// 227 false ones and 17 of 15,249 right ones; with this bar, the same share of the typos is
// corrected with a quarter fewer correct words changed (docs/history/BENCHMARKS-to-2026-12-07.md,
// "The false rate over every word"). The pairs hold few misspellings that are words (79 of 17,424
// typos), so what the bar costs on real-word errors ("form" for "from") is not measured there.
inline constexpr float kModelWordThreshold = 0.9f;

// Edits (insertion, deletion, substitution, adjacent swap of bytes: of letters, for English) a
// replacement may be away from the typed letters. On the cspell pairs typed into dev text, 99.4% of
// the right corrections are within 2, and half of the wrong changes of correctly typed words are
// not (docs/history/BENCHMARKS-to-2026-12-07.md).
inline constexpr int kMaxCorrectionEdits = 2;
// The replacement is one of the model's 8192 most frequent words (its vocabulary is in frequency
// order). Where the head fires, reading all 20k rows cost about 250 us per decision, 8192 rows
// about 100 us; on the tuning text the corrected rate fell only from 0.861 to 0.858 (the
// en_long3 model at threshold 0.3).
inline constexpr int kCorrectionWords = 8192;
// The model's best words looked at; of those within the bound (and the typed word itself, at no
// cost), the one of the highest logit less kCorrectionEditCost per edit is taken. On the tuning
// text (allowed pairs; docs/history/BENCHMARKS-to-2026-12-07.md, "Step 8"), costs
// 0 / 1 / 2 / 4 / 8 / 16 corrected 0.868 / 0.875 / 0.878 / 0.879 / 0.878 / 0.878 at the normal
// level, every one at 0.68% false: the model's first word two edits away ("oyur" -> "yours")
// loses to a close one a swap away.
inline constexpr int kCorrectionShortlist = 8;
inline constexpr float kCorrectionEditCost = 4.0f;
// What a replacement that only carries on the typed letters ("vas" -> "vast", "eith" ->
// "either") pays beyond its edits. The model reads the keys as a word being typed, so it ranks
// such words high, but at the word's end the person stopped there: "was" and "with" were
// meant. Chosen on the tuning text's allowed pairs at the normal level
// (docs/history/BENCHMARKS-to-2026-12-07.md, "The extension cost"): 0 / 1 / 2 / 3 / 4 / 6 / 8
// corrected 0.9120 / 0.9148 / 0.9158 / 0.9160 / 0.9157 / 0.9148 / 0.9132, all at 0.47% false.
inline constexpr float kCorrectionExtensionCost = 3.0f;

// True when the word as typed is left alone whatever the head says: two or more capitals
// ("NASA", "HD": an acronym, or shouting), or a capitalised word that the lexicon writes
// capitalised ("Thai", "Ben": a name). The model reads keys without their case, so it cannot
// tell these from typos. `composition` is the word as typed; `typed` is it lower-cased.
bool KeepAsTyped(std::string_view composition, std::string_view typed, const Lexicon& lexicon);

class CorrectionPick {
 public:
  // REQUIRES: model outlives this object.
  explicit CorrectionPick(const Transformer* model);

  // The model word index of the best letter word within kMaxCorrectionEdits edits of `typed`
  // (lower-cased UTF-8) and not `typed` itself, among the model's kCorrectionShortlist best
  // letter words, by logit less kCorrectionEditCost per edit (and kCorrectionExtensionCost for
  // a word that starts with all of `typed`); -1 when none is, or when `typed`
  // itself (no edits) scores above it. `hidden` is the model's state after the typed keys.
  // *typed_first (when not null) says whether `typed` itself scored above every word within the
  // bound (the model prefers it) rather than no word of the shortlist being within it.
  int Pick(const float* hidden, std::string_view typed, bool* typed_first = nullptr);

 private:
  const Transformer* model_;
  std::vector<float> logits_;                     // [min(n_words, kCorrectionWords)]
  std::vector<std::pair<float, int>> shortlist_;  // best letter words, best first
  std::string lower_;
};

// The English pack's autocorrect: the model's head says whether the word is wrong; where it
// fires (and the word is not kept as typed), the replacement is CorrectionPick's; when that
// finds no word near the typed letters and the lexicon does not know them, the best-scored
// lexicon candidate within kMaxCorrectionEdits (a word outside the model's shortlist:
// "asthmatc" -> "asthmatic"); below the full rung (no vocabulary-wide work) the best of the
// scored candidates. Where it does not fire,
// that best candidate is still written as a hint, not applied.
class Autocorrect {
 public:
  // The word being typed.
  struct Word {
    std::string_view as_typed;  // the composition, as typed
    std::string_view typed;     // ... lower-cased (the lexicon's keys)
    bool capitalize;            // the replacement is written capitalised
    bool keep = false;          // the person keeps it as typed (an undone correction, one of
                                // their own words): never applied
  };

  // REQUIRES: model, lexicon and word_entry (model word index -> lexicon entry, or
  // lexicon::kNoEntry) outlive this object.
  // `known_words` (may be null): the words beyond the lexicon's (WordPack::known_words).
  Autocorrect(const Transformer* model, const Lexicon* lexicon,
              std::span<const uint32_t> word_entry, const WordSet* known_words = nullptr);

  // Fills *out for `word` (nothing applied for an empty one). `hidden` is the model's state
  // after the typed keys; `candidates` this keystroke's scored candidates; `full_rung`: the
  // vocabulary may be read (Tier::kFullModel). Fires at bars.word, for a lower-case word no
  // list knows at bars.unknown, for a word of the model's vocabulary at max(bars.word,
  // kModelWordThreshold). Where it does not fire, an unknown word one edit from a scored
  // lexicon word is corrected to it at bars.near_unknown (full rung only).
  void Decide(const float* hidden, const Word& word, std::span<const ScoredCandidate> candidates,
              bool full_rung, const AutocorrectBars& bars, AutocorrectDecision* out);

 private:
  // A lower-case word that neither the lexicon nor the known words hold.
  bool Unknown(const Word& word) const;
  // The best-scored lexicon candidate within `max_edits` of the typed letters, written into
  // *out; false when there is none.
  bool WriteRareCorrection(const Word& word, std::span<const ScoredCandidate> candidates,
                           int max_edits, std::string* out) const;
  bool WriteCandidateHint(const Word& word, std::span<const ScoredCandidate> candidates,
                          std::string* out) const;

  const Transformer* model_;
  const Lexicon* lexicon_;
  std::span<const uint32_t> word_entry_;
  const WordSet* known_words_;
  CorrectionPick pick_;
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_AUTOCORRECT_H_
