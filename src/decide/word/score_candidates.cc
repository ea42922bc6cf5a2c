#include "decide/word/score_candidates.h"

#include "decide/word/word_pack.h"
#include "decide/word/word_state.h"

namespace keydecide {

void ScoreCandidates::Adjust(WordContext* context) {
  const WordPack& pack = *context->pack;
  const float* hidden = context->hidden;
  const Scorer& scorer = hidden == nullptr       ? pack.baseline()
                         : context->small_active ? pack.small_scorer()
                                                 : pack.scorer();
  scorer.Score({context->typed, context->session->history.size(), hidden}, context->scored);
}

}  // namespace keydecide
