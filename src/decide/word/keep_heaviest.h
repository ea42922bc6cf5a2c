// KeepHeaviest: the N heaviest of a stream of items, without allocating (it runs on every
// keystroke, in the candidate sources that add a few of many: the session's words, the person's,
// a bigram's or teacher's followers).

#ifndef KEYDECIDE_DECIDE_WORD_KEEP_HEAVIEST_H_
#define KEYDECIDE_DECIDE_WORD_KEEP_HEAVIEST_H_

#include <array>
#include <cstddef>

namespace keydecide {

// Keeps the N heaviest items offered so far in (*best)[0..*n), heaviest first; of equal
// weights the one offered first stays ahead.
template <typename T, size_t N, typename Weight>
void KeepHeaviest(const T* item, Weight weight, std::array<const T*, N>* best, size_t* n) {
  size_t i = *n < N ? (*n)++ : N;
  if (i == N) {
    if (weight(*item) <= weight(*(*best)[N - 1])) return;
    i = N - 1;
  }
  for (; i > 0 && weight(*(*best)[i - 1]) < weight(*item); --i) (*best)[i] = (*best)[i - 1];
  (*best)[i] = item;
}

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_WORD_KEEP_HEAVIEST_H_
