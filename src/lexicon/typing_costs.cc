#include "lexicon/typing_costs.h"

#include <algorithm>

#include "text/keyboard_layout.h"

namespace keydecide {

TypingCosts::TypingCosts(const KeyboardLayout* layout, const Options& options) : options_(options) {
  for (int a = 0; a < 256; ++a) {
    for (int b = 0; b < 256; ++b) {
      uint8_t cost = options.far_substitution;
      if (a == b) {
        cost = 0;
      } else if (layout != nullptr && a < 0x80 && b < 0x80) {
        const float d = layout->Distance(static_cast<char32_t>(a), static_cast<char32_t>(b));
        if (d >= 0 && d < options.neighbour_distance) cost = options.neighbour_substitution;
      }
      sub_[a][b] = cost;
      if (a != b) min_substitution_ = std::min(min_substitution_, cost);
    }
  }
}

uint8_t TypingCosts::Insertion(std::string_view typed, size_t i) const {
  const auto c = static_cast<uint8_t>(typed[i]);
  auto close = [&](size_t j) {
    const auto o = static_cast<uint8_t>(typed[j]);
    return o == c || AreNeighbours(o, c);
  };
  const int extra = i == 0 ? options_.first_letter_extra : 0;
  if ((i > 0 && close(i - 1)) || (i + 1 < typed.size() && close(i + 1))) {
    return Saturate(options_.neighbour_insertion + extra);
  }
  return Saturate(options_.insertion + extra);
}

}  // namespace keydecide
