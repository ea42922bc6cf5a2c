#include "decide/word/typed_candidate.h"

#include <limits>

#include "decide/word/word_pack.h"
#include "decide/word/word_state.h"

namespace keydecide {

void TypedCandidate::Adjust(WordContext* context) {
  const WordState& session = *context->session;
  const Correction& correction = session.correction;
  if (!session.AtCorrectedWord() || correction.undone) return;
  const uint32_t entry = context->pack->lexicon().Find(correction.key);
  for (ScoredCandidate& c : context->scored) {
    if (entry != lexicon::kNoEntry ? c.entry == entry : c.text == correction.key) {
      c.score = -std::numeric_limits<float>::infinity();
    }
  }
  context->scored.push_back(
      {lexicon::kNoEntry, -1, correction.typed, 0, 0, std::numeric_limits<float>::infinity()});
}

}  // namespace keydecide
