// SimulatedTypist: key times as the training simulator's typist makes them
// (training/keydecide_train/typing_sim.py with the "intervals" of training/config/en_intent.json),
// so that `keydecide replay --timed` and `eval autocorrect --timed` measure what the model's
// timing features are worth. One typist per run: a median interval log-normal around 170 ms
// (sigma 0.35); the first letter of a word (after any non-letter) comes 2.2 medians after
// the previous key (log-normal sigma 0.6), a repeated key 0.8 medians, any other key
// 0.75 + 0.12 x key distance medians (key widths on the layout; 3 for keys off it), each with
// log-normal noise of sigma 0.35. Seeded: one seed gives the same times on one build
// (std::mt19937_64 and std::normal_distribution of the C++ library in use).

#ifndef KEYDECIDE_TOOLS_TYPIST_H_
#define KEYDECIDE_TOOLS_TYPIST_H_

#include <cstdint>
#include <random>
#include <string_view>

#include "text/keyboard_layout.h"

namespace keydecide {

class SimulatedTypist {
 public:
  SimulatedTypist(KeyboardLayout layout, uint64_t seed);

  // The time (ms, from 0) at which `keys` is typed: its first character after the previous
  // call's last one. Several characters (a picked word's rest) are typed at once.
  int64_t Press(std::string_view keys);

  double median_ms() const { return median_ms_; }

 private:
  double IntervalMs(char32_t prev, char32_t key);

  KeyboardLayout layout_;
  std::mt19937_64 rng_;
  std::normal_distribution<double> gauss_{0.0, 1.0};
  double median_ms_;
  double now_ms_ = 0;
  char32_t prev_ = 0;  // the last character typed (0: none yet)
};

}  // namespace keydecide

#endif  // KEYDECIDE_TOOLS_TYPIST_H_
