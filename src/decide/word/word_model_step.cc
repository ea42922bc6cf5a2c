#include "decide/word/word_model_step.h"

#include <algorithm>

#include "decide/decision_fill.h"
#include "decide/top_words.h"
#include "decide/word/word_pack.h"
#include "decide/word/word_state.h"
#include "model/transformer.h"

namespace keydecide {

WordModelStep::WordModelStep(const WordEnv& env) {
  if (const Transformer* model = env.pack->model()) {
    logits_.resize(std::min(model->n_words(), kProposalWords));
    proposals_.reserve(kProposals + 1);
    env.context->scored.reserve(env.context->scored.capacity() + kProposals);
  }
}

void WordModelStep::Step(WordContext* context) {
  const WordPack& pack = *context->pack;
  WordState& session = *context->session;
  const Tier tier = session.tier;
  context->gathered = context->scored.size();
  context->hidden = nullptr;
  context->small_active = tier == Tier::kSmallModel && session.model.small_track != nullptr;
  ModelTrack* track = tier < Tier::kSmallModel ? session.model.track.get()
                      : context->small_active  ? session.model.small_track.get()
                                               : nullptr;
  if (track == nullptr || !context->searchable) return;
  const float* hidden = track->Sync(session.text);
  const Transformer& model = context->small_active ? *pack.small_model() : *pack.model();
  if (!AllFinite({hidden, static_cast<size_t>(model.config().d_model)})) hidden = nullptr;
  context->hidden = hidden;
  if (hidden != nullptr && session.text.composition().empty() && tier == Tier::kFullModel) {
    AddProposals(context);
  }
}

void WordModelStep::AddProposals(WordContext* context) {
  const WordPack& pack = *context->pack;
  const Transformer& model = *pack.model();
  const int words = std::min(model.n_words(), kProposalWords);
  model.WordLogits(context->hidden, words, logits_.data());
  TopLetterWords(model, logits_, kProposals, &proposals_);
  std::vector<ScoredCandidate>& scored = context->scored;
  for (const auto& proposal : proposals_) {
    const auto w = proposal.second;  // not a structured binding: clang 14 cannot capture one
    const uint32_t entry = pack.EntryOf(w);
    const bool present = std::any_of(scored.begin(), scored.end(), [&](const auto& c) {
      return c.word == w || (entry != lexicon::kNoEntry && c.entry == entry);
    });
    if (present) continue;
    scored.push_back(
        {entry, w, entry == lexicon::kNoEntry ? model.vocab().Word(w) : "", 0,
         entry != lexicon::kNoEntry ? context->session->history.CountOf(entry) : uint16_t{0}, 0});
  }
}

}  // namespace keydecide
