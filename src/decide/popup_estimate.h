// PopupEstimate: whether showing the suggestion bar now helps, from the popup head and from the
// candidates themselves.
//
// The popup head answers "will the intended word be offered now, early enough to save keys", but
// it sees only the model's side. The candidates' scores say it too: the share of the scored
// candidates' probability (the softmax of their scores) held by the offered ones that would save
// at least two letters. The two, mixed in logit space, rank decisions better than either
// (docs/history/BENCHMARKS-to-2026-12-07.md, "Popup").

#ifndef KEYDECIDE_DECIDE_POPUP_ESTIMATE_H_
#define KEYDECIDE_DECIDE_POPUP_ESTIMATE_H_

#include <cstddef>
#include <span>

#include "decide/scorer.h"

namespace keydecide {

class Lexicon;

// The popup head's weight beside the candidates' share. On dev text past the first 100 KB
// (300 KB), popup AUC 0.714 / 0.725 / 0.732 / 0.732 / 0.727 / 0.697 with 1 / 0.5 / 0.7 / 0.8 /
// 0.9 / 0 (`keydecide replay`).
inline constexpr float kPopupHeadShare = 0.8f;
inline constexpr size_t kPopupSlots = 3;  // the suggestion bar's slots the estimate speaks for

// Share (0..1) of the softmax of `scored`'s scores held by its first min(offered, kPopupSlots)
// entries whose key is at least `typed_bytes` + 2 bytes long. REQUIRES: scored sorted by score,
// best first, at least down to `offered`; lexicon holds every entry of `scored`; scores finite.
float SavingShare(std::span<const ScoredCandidate> scored, size_t offered, size_t typed_bytes,
                  const Lexicon& lexicon);

// log(p / (1 - p)) of p clamped to [1e-6, 1 - 1e-6]: finite at 0 and 1.
float ClampedLogit(float p);

// sigmoid(head_share * logit(head) + (1 - head_share) * logit(share)), both clamped away from
// 0 and 1.
float MixPopup(float head, float share, float head_share = kPopupHeadShare);
// The same from the two logits.
float MixPopupLogits(float head_logit, float share_logit, float head_share = kPopupHeadShare);

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_POPUP_ESTIMATE_H_
