// WordState: a word session's state that outlives a keystroke (the text, the session's own
// words, the model's tracks, the autocorrection that can be undone, the word before), owned by
// the WordSession and read by its stages through WordContext.

#ifndef KEYDECIDE_DECIDE_WORD_WORD_STATE_H_
#define KEYDECIDE_DECIDE_WORD_WORD_STATE_H_

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "decide/autocorrect.h"
#include "decide/model_track.h"
#include "decide/session_history.h"
#include "decide/typed_text.h"
#include "keydecide/decision.h"
#include "keydecide/options.h"
#include "lexicon/candidate_search.h"

namespace keydecide {

class WordPack;

// A finished word kept for pairs and context (fixed size: no allocation when typed).
struct FinishedWord {
  std::array<char, 64> text;
  uint8_t length = 0;
  size_t end = std::string::npos;  // byte offset in the text where it ended; npos: none
  std::string_view view() const { return {text.data(), length}; }
};

// The last autocorrection the host applied, while it can be undone: the letters as typed and
// where the replacement lies in the text (end npos: none). `undone`: the person took the typed
// letters back; the composition at that spot is then not autocorrected again.
struct Correction {
  std::string typed;  // reserved at construction (kMaxAcceptBytes)
  std::string key;    // ... lower-cased, as the lexicon keys words
  size_t start = std::string::npos;
  size_t end = std::string::npos;
  bool undone = false;
  void Forget() { start = end = std::string::npos; }
};

// The typing model's side of a session (all null without a model): the full model's track and
// autocorrect, and the small-model rung's. A track not used by a decision falls behind and
// catches up on its next Sync.
struct WordModel {
  std::unique_ptr<ModelTrack> track;
  std::unique_ptr<Autocorrect> autocorrect;
  std::unique_ptr<ModelTrack> small_track;
  std::unique_ptr<Autocorrect> small_autocorrect;
};

struct WordState {
  // REQUIRES: the pack outlives the state.
  WordState(const WordPack* pack, const SessionOptions& options);

  // The cursor is at the end of the corrected word (or of the typed letters taken back), and
  // the composition is that word.
  bool AtCorrectedWord() const;

  const WordPack* pack;
  SessionOptions options;
  AutocorrectBars autocorrect_bars;  // AutocorrectBarsFor(options)
  TypedText text;
  SessionHistory history;
  CandidateSearch search;
  WordModel model;
  Tier tier = Tier::kFullModel;  // costliest rung Decide may use (SetTier)

  size_t pushed_word_end = std::string::npos;  // where the last remembered word ended
  FinishedWord last_word;                      // the last finished word (for pairs)
  bool last_word_from_context = false;         // ... found in SetContext's text: never learned
  size_t context_end = 0;  // text up to here came from SetContext, not typed: never learned
  size_t accepted_end = std::string::npos;  // where the last Accept'ed word ended
  Correction correction;
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_WORD_WORD_STATE_H_
