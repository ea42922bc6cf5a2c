#include "decide/word/adapter_delta.h"

#include <cmath>

#include "decide/personal_ranking.h"
#include "decide/word/word_pack.h"
#include "model/logit_adapter.h"

namespace keydecide {

AdapterDelta::AdapterDelta(const WordEnv& env) {
  if (env.pack->fine_tuner() != nullptr) z_.reserve(LogitAdapter::kMaxRank);
}

void AdapterDelta::Adjust(WordContext* context) {
  const LogitAdapter* adapter = context->personal ? context->personal->adapter() : nullptr;
  if (adapter == nullptr || context->hidden == nullptr || context->small_active) return;
  z_.resize(adapter->rank);  // no allocation: reserved for the largest rank
  adapter->Project(context->hidden, z_.data());
  const float weight = context->pack->personal_weights().adapter;
  for (ScoredCandidate& c : context->scored) {
    if (c.word >= 0 && c.word < adapter->n_words && std::isfinite(c.score)) {
      c.score += weight * adapter->Delta(z_.data(), c.word);
    }
  }
}

}  // namespace keydecide
