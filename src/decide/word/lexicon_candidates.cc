#include "decide/word/lexicon_candidates.h"

#include "decide/word/word_pack.h"
#include "decide/word/word_state.h"

namespace keydecide {

void LexiconCandidates::Gather(WordContext* context) {
  if (!context->searchable) return;
  WordState& session = *context->session;
  session.search.Search(context->typed, &context->hits);
  for (const SearchHit& h : context->hits) {
    context->scored.push_back(
        {h.entry, context->pack->WordOf(h.entry), {}, h.cost, session.history.CountOf(h.entry), 0});
  }
}

}  // namespace keydecide
