// The pinyin session's bounds: how long a composition converts, how much committed text the
// model reads, how many of the person's words are offered and held. Internal to the zh pack.

#ifndef KEYDECIDE_DECIDE_ZH_PINYIN_LIMITS_H_
#define KEYDECIDE_DECIDE_ZH_PINYIN_LIMITS_H_

#include <cstddef>

#include "decide/model_track.h"
#include "lexicon/pinyin/pinyin_lattice.h"
#include "lexicon/pinyin/pinyin_window.h"

namespace keydecide {

inline constexpr size_t kMaxComposition = PinyinWindow::kMaxComposition;  // longer: as typed
// A sentence of a composition that long: at most one hanzi (4 bytes) per letter.
inline constexpr size_t kMaxSentenceBytes = 4 * kMaxComposition;
// The committed text the model's context is read from: the newest 256 bytes (~85 hanzi) of the
// paragraph, of which the newest kMaxContextWords words are kept (as English keeps 24 tokens,
// ModelTrack::kMaxContextTokens).
inline constexpr size_t kMaxContextBytes = 256;
inline constexpr size_t kMaxSentencesRanked = 64;  // PinyinOptions::beam_width's bound
inline constexpr size_t kMaxContextWords = ModelTrack::kMaxContextTokens;

// The person's words: at most this many before the sentences and after them, read from the
// composition's first kMaxUserLetters letters.
inline constexpr size_t kMaxUserFirst = 2;
inline constexpr size_t kMaxUserPrefix = 3;
inline constexpr size_t kMaxUserLetters = 64;
// The person's words for the whole composition weighed again per app type: the heaviest this
// many of its letters' words and of its initials'.
inline constexpr size_t kMaxUserOrder = 16;
// A commit's words held until the next commit: a long composition's (PinyinWindow) may be many
// more than a window's, reserved for; a word converts at least one letter.
inline constexpr size_t kReservedPendingWords = PinyinLattice::kMaxTyped + 1;
inline constexpr size_t kMaxPendingWords = PinyinWindow::kMaxComposition + 1;
// Shorter starts of the composition are not matched against learned readings (a single
// letter or two would match too much).
inline constexpr size_t kMinUserPrefixLetters = 3;

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_ZH_PINYIN_LIMITS_H_
