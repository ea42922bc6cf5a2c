// PopupFeatures: what the popup network (model/popup_net.h) reads about one decision. Every
// feature is computed here, once, both for the engine's estimate and for the replay's dump
// that the network is fitted on (`keydecide replay --popup-features`), so the two cannot
// drift apart.

#ifndef KEYDECIDE_DECIDE_POPUP_FEATURES_H_
#define KEYDECIDE_DECIDE_POPUP_FEATURES_H_

#include <array>
#include <cstddef>
#include <span>
#include <string_view>

#include "decide/popup_estimate.h"
#include "decide/scorer.h"

namespace keydecide {

class Lexicon;

// Each feature's index; per-slot features take kPopupSlots indices from their first, slot i
// being the bar's (i + 1)th candidate.
enum PopupFeature : size_t {
  kHeadLogit,
  kShareLogit,
  kTyped0,  // one-hot: 0, 1, 2, 3, 4 or more letters typed
  kBestLogShare = kTyped0 + 5,
  kBarLogShare,
  kMargin12,
  kMargin34,
  kSaves1,
  kCost1 = kSaves1 + kPopupSlots,
  kSession1 = kCost1 + kPopupSlots,
  kTypedWordLogCount = kSession1 + kPopupSlots,
  kCapitalized,
  kPopupFeatureCount
};
// The names, in order, as popup.json lists them.
extern const std::array<std::string_view, kPopupFeatureCount> kPopupFeatureNames;

using PopupFeatures = std::array<float, kPopupFeatureCount>;

struct PopupInputs {
  float head;  // the popup head's probability
  // The scored candidates, sorted best first at least down to `offered`, as SavingShare's.
  std::span<const ScoredCandidate> scored;
  size_t offered;      // how many the decision offers
  size_t typed_bytes;  // the letters typed of the word
  const Lexicon* lexicon;
  uint32_t typed_count;  // the lexicon's count of the typed letters as a whole word (0: none)
  bool capitalized;      // the candidates are offered capitalised (a sentence start, a capital)
};

// Fills *out: the head and SavingShare as logits, the letters typed (one-hot 0..3, 4+), the
// best and the bar's three candidates' share of all the scored ones (log), the score margins
// between the first two and between the third and the best one not offered, and per slot:
// whether it saves two letters, its typing cost, and whether the session's words raised it;
// then log(1 + the typed letters' count as a word: the word may end here) and whether the
// candidates are capitalised.
//
// Not a feature: whether the bar offered a word at an earlier letter and the person typed on.
// It doubled the gain on replayed text (whose typist always looks at the bar, so a word typed
// past is never the intended one), but a real person typing fast past the right word would
// then lose the bar just when they look up
// (docs/history/BENCHMARKS-to-2026-12-07.md, "Popup network").
void ComputePopupFeatures(const PopupInputs& in, PopupFeatures* out);

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_POPUP_FEATURES_H_
