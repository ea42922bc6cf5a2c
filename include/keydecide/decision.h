// Decision: what the engine advises after a keystroke. Produced by Session::Decide.

#ifndef KEYDECIDE_DECISION_H_
#define KEYDECIDE_DECISION_H_

#include <string>
#include <vector>

namespace keydecide {

// Values are reported through the CLI's JSON and the C ABI: keep them stable.
enum class CandidateKind : int {
  kCompletion = 0,  // completes the letters typed so far
  kCorrection = 1,  // matches the typed letters only after correcting slips
  kNextWord = 2,    // offered before any letter of the word is typed
};

struct Candidate {
  std::string text;          // as it should be inserted, cased for its position
  float score = 0;           // the scorer's log-score; higher is better
  float typing_cost = 0;     // typing-slip points between the typed letters and this word
  CandidateKind kind = CandidateKind::kCompletion;
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

struct Decision {
  std::vector<Candidate> candidates;  // best first; at most the requested number
  std::string composition;            // the letters of the word being typed ("" after a space)
  StageTimings timings;
  Tier tier = Tier::kLexiconOnly;
};

const char* CandidateKindName(CandidateKind kind);
const char* TierName(Tier tier);

}  // namespace keydecide

#endif  // KEYDECIDE_DECISION_H_
