#include "tools/typist.h"

#include <cmath>
#include <utility>

#include "tools/text_util.h"

namespace keydecide {

namespace {

// training/config/en_intent.json, "intervals".
constexpr double kMedianMs = 170;
constexpr double kTypistSigma = 0.35;
constexpr double kKeySigma = 0.35;
constexpr double kBaseFactor = 0.75;
constexpr double kDistanceFactor = 0.12;
constexpr double kRepeatFactor = 0.8;
constexpr double kWordStartFactor = 2.2;
constexpr double kWordStartSigma = 0.6;
constexpr double kOffLayoutDistance = 3.0;  // typing_sim.Keyboard.distance's `unknown`

bool IsWordKey(char32_t cp) { return (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z'); }

char32_t Lower(char32_t cp) { return cp >= 'A' && cp <= 'Z' ? cp + 32 : cp; }

}  // namespace

SimulatedTypist::SimulatedTypist(KeyboardLayout layout, uint64_t seed)
    : layout_(std::move(layout)), rng_(seed) {
  median_ms_ = kMedianMs * std::exp(kTypistSigma * gauss_(rng_));
}

double SimulatedTypist::IntervalMs(char32_t prev, char32_t key) {
  if (IsWordKey(key) && !IsWordKey(prev) && prev != '\'') {  // a word's first letter
    return median_ms_ * kWordStartFactor * std::exp(kWordStartSigma * gauss_(rng_));
  }
  double scale = kRepeatFactor;
  if (Lower(prev) != Lower(key)) {
    const float d = layout_.Distance(Lower(prev), Lower(key));
    scale = kBaseFactor + kDistanceFactor * (d < 0 ? kOffLayoutDistance : d);
  }
  return median_ms_ * scale * std::exp(kKeySigma * gauss_(rng_));
}

int64_t SimulatedTypist::Press(std::string_view keys) {
  size_t pos = 0;
  char32_t first = 0, last = 0;
  while (pos < keys.size()) {
    const size_t start = pos;
    pos = BoundaryAtOrAfter(keys, pos + 1);
    const unsigned char lead = static_cast<unsigned char>(keys[start]);
    last = lead < 0x80 ? lead : 0x80;  // non-ASCII: off the layout, not a word key here
    if (start == 0) first = last;
  }
  if (prev_ != 0) now_ms_ += IntervalMs(prev_, first);
  prev_ = last;
  return static_cast<int64_t>(std::llround(now_ms_));
}

}  // namespace keydecide
