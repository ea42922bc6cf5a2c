// Decision: what the engine advises after a keystroke. Produced by Session::Decide.

#ifndef KEYDECIDE_DECISION_H_
#define KEYDECIDE_DECISION_H_

#include <cstdint>
#include <string>
#include <vector>

#include "keydecide/export.h"

namespace keydecide {

// Values are reported through the CLI's JSON and the C ABI: keep them stable.
enum class CandidateKind : int {
  kCompletion = 0,  // completes the letters typed so far
  kCorrection = 1,  // matches the typed letters only after correcting slips
  kNextWord = 2,    // offered before any letter of the word is typed
  kSentence = 3,    // pinyin: every letter typed converted as one sentence of several words
  kTyped = 4,       // the letters as they were typed, offered back first after the person
                    // deleted back to an autocorrected word (Session::AcceptCorrection)
  kShortcut = 5,    // the expansion of a shortcut the person defined (UserStore::SetShortcut)
};

struct Candidate {
  std::string text;       // as it should be inserted, cased for its position
  float score = 0;        // the scorer's log-score; higher is better
  float typing_cost = 0;  // typing-slip points between the typed letters and this word
  CandidateKind kind = CandidateKind::kCompletion;
  // What Session::Pick names this candidate by: given by the session at each Decide, never 0,
  // increasing within the session (so an id of an older decision is never reused while it could
  // be mistaken for a newer one; it wraps only after 2^32 - 1). Two candidates of the same text
  // have different ids: the id, not the text, says which one the person picked.
  uint32_t id = 0;
};

// Which rung of the latency ladder served a decision (see DESIGN.md). The count-based
// baseline is the lexicon-and-history rung.
enum class Tier : int {
  kFullModel = 0,
  kNoVocabProposals = 1,
  kSmallModel = 2,
  kLexiconOnly = 3,
};

// Microseconds spent in each stage of the per-keystroke pipeline.
struct StageTimings {
  float features_us = 0;    // reading the session state: composition, context, casing
  float candidates_us = 0;  // lexicon and history candidate search
  float model_us = 0;       // model step (0 when no model is loaded)
  float heads_us = 0;       // scoring and decision heads
  float post_us = 0;        // ranking, casing, filling this struct
  float total_us = 0;
};

// Whether showing the suggestion bar now helps. Without a model: shown whenever there are
// candidates, probability 0.
struct PopupDecision {
  float probability = 0;  // the model's P(the intended word is offered now and saves keys)
  bool show = false;
};

// What to do if the word being typed ends now. The host applies it on space or punctuation
// with Session::AcceptCorrection(replacement), which makes the correction undoable.
struct AutocorrectDecision {
  bool apply = false;       // replace the typed letters with `replacement`
  std::string replacement;  // what the typed word would become ("" if nothing could be it):
                            // when applied, the model's best word within two edits of it;
                            // else the candidates' best, a hint
  float confidence = 0;     // the model's P(typed word is wrong and its best word right)
};

// A shortcut whose trigger is the word being typed (personal engines only: the shortcuts
// live in the user store). Its expansion is also the first candidate, and the bar is shown
// (popup.show). `fire`: expand it when the word ends, as an autocorrection is applied (the
// host replaces the trigger with the expansion); false when the trigger is itself a word the
// lexicon or the person knows, so that typing the word stays possible and the expansion is
// only offered.
struct ShortcutDecision {
  bool fire = false;
  std::string trigger;  // "" when no shortcut matches
  std::string expansion;
};

// What kind of text this is. Empty without a model.
struct IntentDecision {
  std::string label;                 // the most likely of Engine::Info::intent_labels
  std::vector<float> probabilities;  // one per label, in that order
};

struct Decision {
  std::vector<Candidate> candidates;  // best first; at most the requested number
  std::string composition;            // the letters of the word being typed ("" after a space)
  // The composition as the host should show it: for pinyin, with an apostrophe at each
  // syllable break of the best reading ("ni'hao"); otherwise the composition itself.
  std::string preedit;
  bool has_model = false;  // popup, autocorrect and intent come from a model
  PopupDecision popup;
  AutocorrectDecision autocorrect;  // not applied when a shortcut fires
  ShortcutDecision shortcut;
  IntentDecision intent;
  StageTimings timings;
  Tier tier = Tier::kLexiconOnly;
};

KD_API const char* CandidateKindName(CandidateKind kind);
KD_API const char* TierName(Tier tier);

}  // namespace keydecide

#endif  // KEYDECIDE_DECISION_H_
