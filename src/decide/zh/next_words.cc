#include "decide/zh/next_words.h"

#include <algorithm>
#include <cmath>

#include "decide/decision_fill.h"
#include "decide/text_limits.h"
#include "decide/zh/zh_state.h"
#include "lexicon/lexicon.h"
#include "model/transformer.h"

namespace keydecide {

NextWords::NextWords(const PinyinEnv& env) {
  env.session->next.reserve(kMaxCandidatesLimit + kUserWords);
  ids_.reserve(kMaxCandidatesLimit);
  log_p_.reserve(kMaxCandidatesLimit);
}

void NextWords::Gather(PinyinContext* context) {
  if (!context->typed.empty()) return;  // 联想 is for an empty composition only
  ZhState& session = *context->session;
  std::vector<ZhState::NextWord>& next = session.next;
  const size_t k =
      std::min<size_t>(static_cast<size_t>(context->max_candidates), kMaxCandidatesLimit);
  next.clear();
  if (k == 0) return;
  const WordBigram* bigram = session.bigram;
  const bool known = bigram != nullptr && session.context_word != 0;
  if (known) AddBigramWords(context, k);
  // c(word before)
  const float total = known ? static_cast<float>(bigram->FollowerTotal(session.context_word)) : 0;
  AddUserWords(context);
  for (ZhState::NextWord& n : next) {
    const float p_bigram = total > 0 ? static_cast<float>(n.count) / total : 0.0f;
    n.score = std::log(std::max(p_bigram + kUserWeight * n.p_user, 1e-30f));
  }
  if (session.UseModel() && session.model.sentence_weight != 0 && next.size() > 1) Rank(context);
  // Once more after the model, which has not seen the person's text and may rank their word
  // far down: not below log(kUserFloor × P_user).
  for (ZhState::NextWord& n : next) {
    if (n.p_user > 0) n.score = std::log(std::exp(n.score) + kUserFloor * n.p_user);
  }
  for (size_t i = 1; i < next.size(); ++i) {  // stable, without std::stable_sort's buffer
    for (size_t j = i; j > 0 && next[j].score > next[j - 1].score; --j) {
      std::swap(next[j], next[j - 1]);
    }
  }
  if (next.size() > k) next.resize(k);
}

void NextWords::AddBigramWords(PinyinContext* context, size_t k) {
  ZhState& session = *context->session;
  std::vector<ZhState::NextWord>& next = session.next;
  const WordBigram& bigram = *session.bigram;
  const std::span<const uint32_t> words = bigram.Followers(session.context_word);
  const std::span<const uint32_t> counts = bigram.FollowerCounts(session.context_word);
  // The most frequent followers (k of them, or kRescored for the model to re-rank), by
  // insertion into a short sorted list (within next's reserve, beside the person's words).
  const size_t kept =
      std::min<size_t>(session.UseModel() ? std::max(k, kRescored) : k, kMaxCandidatesLimit);
  for (size_t i = 0; i < words.size(); ++i) {
    const uint32_t variant = bigram.VariantOf(words[i]);
    if (variant == WordBigram::kNoVariant) continue;
    if (next.size() == kept && counts[i] <= next.back().count) continue;
    if (next.size() < kept) next.push_back({});
    size_t at = next.size() - 1;
    while (at > 0 && next[at - 1].count < counts[i]) {
      next[at] = next[at - 1];
      --at;
    }
    next[at] = {session.lexicon->VariantTextAt(variant), words[i], variant, counts[i], 0, 0};
  }
}

void NextWords::AddUserWords(PinyinContext* context) {
  ZhState& session = *context->session;
  const UserWords* words = session.user_words();
  if (words == nullptr || session.last_word.empty()) return;
  const UserWords::Word* before = words->Find(session.last_word);
  if (before == nullptr || before->weight <= 0) return;
  std::vector<ZhState::NextWord>& next = session.next;
  const WordBigram* bigram = session.bigram;
  size_t added = 0;
  for (const UserWords::Pair& pair : words->Following(session.last_word)) {
    if (added == kUserWords) break;
    const UserWords::Word* w = words->Find(pair.word);
    if (w == nullptr || pair.weight <= 0) continue;
    ++added;
    const float p_user = std::min(pair.weight / before->weight, 1.0f);
    const auto known = std::find_if(next.begin(), next.end(), [&](const ZhState::NextWord& n) {
      return n.text == w->spelling;
    });
    if (known != next.end()) {
      known->p_user = p_user;
      continue;
    }
    ZhState::NextWord n{w->spelling, 0, w->tag, 0, p_user, 0};
    if (bigram != nullptr && w->tag != UserWords::kNoTag) {
      n.word = bigram->WordOf(w->tag);
      n.count = session.context_word != 0 ? bigram->PairCount(session.context_word, n.word) : 0;
    }
    next.push_back(n);
  }
}

void NextWords::Rank(PinyinContext* context) {
  ZhState& session = *context->session;
  std::vector<ZhState::NextWord>& next = session.next;
  session.UpdateModelContext();
  const Transformer& model = *session.model.model;
  ids_.clear();
  for (const ZhState::NextWord& n : next) ids_.push_back(model.vocab().Find(n.text));
  log_p_.resize(ids_.size());
  session.lm->NextWords(ids_, log_p_);
  if (!AllFinite(log_p_)) return;  // the model overflowed here: the bigram's order
  for (size_t i = 0; i < next.size(); ++i) {
    float log_p = log_p_[i];
    if (ids_[i] == ModelConfig::kUnkWord) {  // <unk>'s share, as for the sentences
      const uint32_t variant = next[i].variant;
      const uint32_t count = variant != UserWords::kNoTag
                                 ? std::max<uint32_t>(session.lexicon->VariantCountAt(variant), 1)
                                 : 1;
      log_p += std::log(static_cast<float>(count)) - session.model.log_oov_count;
    }
    next[i].score += session.model.sentence_weight * log_p;
  }
}

}  // namespace keydecide
