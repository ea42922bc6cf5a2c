// TypingCosts: what each kind of typing slip costs, from key geometry. Costs are small
// integers ("points"): 10 is one clear edit. Every slip costs at least 7, so a budget of 20
// points admits at most two slips, which is the "edit distance up to 2" of the search.

#ifndef KEYDECIDE_LEXICON_TYPING_COSTS_H_
#define KEYDECIDE_LEXICON_TYPING_COSTS_H_

#include <array>
#include <cstdint>
#include <string_view>

namespace keydecide {

class KeyboardLayout;

class TypingCosts {
 public:
  struct Options {
    uint8_t neighbour_substitution = 7;  // typed a key next to the intended one
    uint8_t far_substitution = 13;       // any other wrong key (rarer than any other slip)
    uint8_t omission = 9;                // left out an intended letter
    uint8_t insertion = 8;               // typed an extra letter
    uint8_t neighbour_insertion = 7;     // extra letter next to (or same as) the one before/after
    uint8_t transposition = 7;           // swapped two adjacent letters
    uint8_t first_letter_extra = 4;      // added to a slip on the first letter: people
                                         // rarely miss it, and it keeps the search narrow
    float neighbour_distance = 1.5f;     // key centres closer than this are neighbours
  };

  // Costs over the bytes of lower-cased text; only single-byte keys of `layout` get
  // neighbour costs. `layout` may be null (no geometry: every slip costs the far price).
  explicit TypingCosts(const KeyboardLayout* layout) : TypingCosts(layout, Options()) {}
  TypingCosts(const KeyboardLayout* layout, const Options& options);

  // Typing `typed` at position typed_pos for `intended`; 0 when they are equal.
  uint8_t Substitution(uint8_t typed, uint8_t intended, size_t typed_pos) const {
    const int c = sub_[typed][intended];
    return static_cast<uint8_t>(
        (typed_pos == 0 && c != 0) ? Saturate(c + options_.first_letter_extra) : c);
  }
  // Leaving out the intended letter at word_pos.
  uint8_t Omission(size_t word_pos) const {
    return word_pos == 0 ? Saturate(options_.omission + options_.first_letter_extra)
                         : options_.omission;
  }
  uint8_t Transposition() const { return options_.transposition; }
  // The cheapest Substitution of a byte by another after the first position (a lower bound of
  // every Substitution but the free one).
  uint8_t MinSubstitution() const { return min_substitution_; }
  // Cost of typed[i] being an extra key press, given its neighbours in the typed text.
  // REQUIRES: i < typed.size().
  uint8_t Insertion(std::string_view typed, size_t i) const;
  bool AreNeighbours(uint8_t a, uint8_t b) const {
    return sub_[a][b] == options_.neighbour_substitution;
  }

 private:
  static uint8_t Saturate(int c) { return static_cast<uint8_t>(c < 255 ? c : 255); }

  Options options_;
  std::array<std::array<uint8_t, 256>, 256> sub_;
  uint8_t min_substitution_ = 255;
};

}  // namespace keydecide

#endif  // KEYDECIDE_LEXICON_TYPING_COSTS_H_
