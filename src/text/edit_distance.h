// Edit distance between two short byte strings: optimal string alignment (Levenshtein plus
// the swap of two adjacent bytes), bounded so that far-apart strings cost little to reject.

#ifndef KEYDECIDE_TEXT_EDIT_DISTANCE_H_
#define KEYDECIDE_TEXT_EDIT_DISTANCE_H_

#include <cstddef>
#include <string_view>

namespace keydecide {

// Longest string BoundedEditDistance compares; longer ones count as too far.
inline constexpr size_t kMaxEditDistanceBytes = 64;

// The number of single-byte insertions, deletions, substitutions and adjacent swaps that turn
// `a` into `b`, when it is at most `bound`; bound + 1 otherwise (also when either string is
// longer than kMaxEditDistanceBytes). Does not allocate.
int BoundedEditDistance(std::string_view a, std::string_view b, int bound);

}  // namespace keydecide

#endif  // KEYDECIDE_TEXT_EDIT_DISTANCE_H_
