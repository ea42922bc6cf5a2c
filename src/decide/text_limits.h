// The limits every language pack keeps to: how much text a session holds, how long an
// accepted word may be, how many candidates a Decision may carry. Internal to src/decide.

#ifndef KEYDECIDE_DECIDE_TEXT_LIMITS_H_
#define KEYDECIDE_DECIDE_TEXT_LIMITS_H_

#include <cstddef>

#include "lexicon/lexicon_format.h"

namespace keydecide {

inline constexpr size_t kMaxTextBytes = 4096;   // context kept before the cursor
inline constexpr size_t kTrimTextBytes = 1024;  // dropped at once beyond that, to amortise
inline constexpr size_t kMaxAcceptBytes = 256;  // Session::Accept's bound
// Bytes reserved for each candidate's spelling, so that writing one never allocates.
inline constexpr size_t kCandidateTextReserve = 4 * lexicon::kMaxKeyBytes + 16;
inline constexpr int kMaxCandidatesLimit = 200;  // Session::Decide's cap

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_TEXT_LIMITS_H_
