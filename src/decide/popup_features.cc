#include "decide/popup_features.h"

#include <algorithm>
#include <cmath>

#include "lexicon/lexicon.h"

namespace keydecide {

const std::array<std::string_view, kPopupFeatureCount> kPopupFeatureNames = {
    "head_logit",  "share_logit",    "typed_0",
    "typed_1",     "typed_2",        "typed_3",
    "typed_4plus", "best_log_share", "bar_log_share",
    "margin_1_2",  "margin_3_4",     "saves_1",
    "saves_2",     "saves_3",        "cost_1",
    "cost_2",      "cost_3",         "session_1",
    "session_2",   "session_3",      "typed_word_log_count",
    "capitalized"};

namespace {

// A slot without a candidate, or the best one not offered when there is none, scores this
// far below the best: it holds no share.
constexpr float kAbsent = 30;

}  // namespace

void ComputePopupFeatures(const PopupInputs& in, PopupFeatures* out) {
  PopupFeatures& f = *out;
  f.fill(0);
  f[kHeadLogit] = ClampedLogit(in.head);
  f[kShareLogit] = ClampedLogit(SavingShare(in.scored, in.offered, in.typed_bytes, *in.lexicon));
  f[kTyped0 + std::min<size_t>(in.typed_bytes, 4)] = 1;
  const size_t slots = std::min({in.offered, kPopupSlots, in.scored.size()});
  float top = slots > 0 ? in.scored[0].score : 0;
  for (const ScoredCandidate& c : in.scored) top = std::max(top, c.score);
  double all = 0;
  for (const ScoredCandidate& c : in.scored) all += std::exp(c.score - top);
  const float log_all = all > 0 ? static_cast<float>(std::log(all)) + top : top;
  std::array<float, kPopupSlots + 1> score;
  score.fill(top - kAbsent);
  for (size_t i = 0; i < slots; ++i) score[i] = in.scored[i].score;
  for (size_t i = slots; i < in.scored.size(); ++i) {
    score[kPopupSlots] = std::max(score[kPopupSlots], in.scored[i].score);
  }
  float bar = 0;
  for (size_t i = 0; i < kPopupSlots; ++i) bar += std::exp(score[i] - top);
  f[kBestLogShare] = std::max(score[0] - log_all, -20.0f);
  f[kBarLogShare] = std::max(std::log(bar) + top - log_all, -20.0f);
  f[kMargin12] = std::min(score[0] - score[1], 10.0f);
  f[kMargin34] = std::min(score[2] - score[3], 10.0f);
  for (size_t i = 0; i < slots; ++i) {
    const ScoredCandidate& c = in.scored[i];
    const std::string_view key = c.entry != lexicon::kNoEntry ? in.lexicon->Key(c.entry) : c.text;
    f[kSaves1 + i] = key.size() >= in.typed_bytes + 2;
    f[kCost1 + i] = std::min<float>(c.cost, 10);
    f[kSession1 + i] = c.cache > 0;
  }
  f[kTypedWordLogCount] = std::log1p(static_cast<float>(in.typed_count));
  f[kCapitalized] = in.capitalized;
}

}  // namespace keydecide
