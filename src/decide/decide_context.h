// DecideContext: what one keystroke's stages share (stage.h). A pack's context derives from it
// and adds its own candidates and scratch; the session owns it and reuses it every Decide, so
// that the stages do not allocate once warm.

#ifndef KEYDECIDE_DECIDE_DECIDE_CONTEXT_H_
#define KEYDECIDE_DECIDE_DECIDE_CONTEXT_H_

#include <string>

namespace keydecide {

class Lexicon;
class PersonalRanking;
struct Decision;

struct DecideContext {
  // Set by the session before the stages run.
  Decision* out = nullptr;  // the Decision being written
  int max_candidates = 0;   // Decide's argument (>= 0)
  // The pack's lexicon, and the person's ranking (null without a user store). REQUIRES: they
  // outlive the context.
  const Lexicon* lexicon = nullptr;
  PersonalRanking* personal = nullptr;

  // Written by the stages.
  // The composition as the lexicon keys it (lower-cased, typographic apostrophes straight, the
  // pinyin letters as typed); "" at a word start, or when too long to be a word.
  std::string typed;
  // The model's state at the cursor (model_step.h); null without one, when it did not run, or
  // once it overflowed (StageResult::kRescoreWithoutModel).
  const float* hidden = nullptr;
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_DECIDE_CONTEXT_H_
