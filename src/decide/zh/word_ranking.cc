#include "decide/zh/word_ranking.h"

#include <algorithm>
#include <cmath>

#include "decide/decision_fill.h"
#include "decide/text_limits.h"
#include "decide/zh/zh_state.h"
#include "lexicon/lexicon.h"
#include "model/transformer.h"

namespace keydecide {

WordRanking::WordRanking(const PinyinEnv& /*env*/) {
  ranked_.reserve(kMaxCandidatesLimit);
  ids_.reserve(kMaxCandidatesLimit);
  log_p_.reserve(kMaxCandidatesLimit);
}

void WordRanking::Adjust(PinyinContext* context) {
  const ZhState& session = *context->session;
  const std::span<const PinyinCandidate> found = context->found;
  if (context->hidden == nullptr || found.size() < 2 || session.model.sentence_weight == 0) return;
  const Transformer& model = *session.model.model;
  ranked_.assign(found.begin(), found.end());
  const size_t n = std::min(ranked_.size(), kRescored);
  ids_.clear();
  for (size_t i = 0; i < n; ++i) ids_.push_back(model.vocab().Find(ranked_[i].text));
  log_p_.resize(n);
  // Raw logits: a shift common to all of them changes no order within a group.
  model.WordLogits(context->hidden, ids_, log_p_.data());
  if (!AllFinite(log_p_)) return;  // the search's order
  for (size_t i = 0; i < n; ++i) {
    float log_p = log_p_[i];
    if (ids_[i] == ModelConfig::kUnkWord) {
      const uint32_t count = std::max<uint32_t>(
          session.lexicon->Variants(ranked_[i].entry)[ranked_[i].variant].count, 1);
      log_p += std::log(static_cast<float>(count)) - session.model.log_oov_count;
    }
    ranked_[i].score += kModelWeight * log_p;
  }
  // The search's groups stay in place: whole input first, then longer prefixes first.
  const auto before = [](const PinyinCandidate& a, const PinyinCandidate& b) {
    if (a.full != b.full) return a.full;
    if (a.consumed != b.consumed) return a.consumed > b.consumed;
    return a.score > b.score;
  };
  for (size_t i = 1; i < n; ++i) {  // stable, without std::stable_sort's buffer
    for (size_t j = i; j > 0 && before(ranked_[j], ranked_[j - 1]); --j) {
      std::swap(ranked_[j], ranked_[j - 1]);
    }
  }
  context->found = ranked_;
}

}  // namespace keydecide
