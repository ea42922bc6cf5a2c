// The names of decision.h's enums, as the CLI, the C ABI and the daemon print them.

#include "keydecide/decision.h"

namespace keydecide {

const char* CandidateKindName(CandidateKind kind) {
  switch (kind) {
    case CandidateKind::kCompletion:
      return "completion";
    case CandidateKind::kCorrection:
      return "correction";
    case CandidateKind::kNextWord:
      return "next_word";
    case CandidateKind::kSentence:
      return "sentence";
    case CandidateKind::kTyped:
      return "typed";
    case CandidateKind::kShortcut:
      return "shortcut";
  }
  return "completion";
}

const char* TierName(Tier tier) {
  switch (tier) {
    case Tier::kFullModel:
      return "full_model";
    case Tier::kNoVocabProposals:
      return "no_vocab_proposals";
    case Tier::kSmallModel:
      return "small_model";
    case Tier::kLexiconOnly:
      return "lexicon_only";
  }
  return "lexicon_only";
}

}  // namespace keydecide
