// PinyinWindow: conversion of a composition of any length a person types in one go (up to
// kMaxComposition bytes), with the sentence search bounded in time and memory: the search reads
// at most kWindow bytes (PinyinLattice::kMaxTyped), the composition's last ones (the live part),
// and the part before them is fixed, word by word, as the best sentence of a window read earlier.
//
// Fixing. From pos = 0, while more than kWindow bytes follow pos: the sentence search reads the
// window typed[pos, pos + kWindow) after the word fixed last (`context_word` for the first
// window); the words of its best sentence are fixed from the start while they end within
// kFixSpan bytes of pos (at least one word), and pos moves past the last of them and any
// apostrophes after it. A window with no sentence (letters with no reading) has its first
// kFixSpan bytes fixed as typed. So every fixed word was chosen with at least
// kWindow - kFixSpan letters read after it, and the live part holds kWindow - kFixSpan to
// kWindow bytes.
//
// The fixed part is a function of the letters and the context word alone: typing them one at a
// time or all at once gives the same. Update keeps what it fixed for an earlier call whose
// windows are unchanged, so appending a letter searches at most one new window, and a deletion
// drops the pieces whose window no longer has more than kWindow bytes after its start.
//
// Not thread-safe: one PinyinWindow per session. Buffers are sized in the constructor; Update
// does not allocate.

#ifndef KEYDECIDE_LEXICON_PINYIN_PINYIN_WINDOW_H_
#define KEYDECIDE_LEXICON_PINYIN_PINYIN_WINDOW_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "keydecide/status.h"
#include "lexicon/pinyin/pinyin_lattice.h"

namespace keydecide {

class PinyinSentenceSearch;

class PinyinWindow {
 public:
  // The longest composition converted; Update refuses longer ones (a session commits the letters
  // as typed before that). 1024 letters are some 200 syllables, several long sentences.
  static constexpr size_t kMaxComposition = 1024;
  static constexpr size_t kWindow = PinyinLattice::kMaxTyped;  // bytes one search reads
  static constexpr size_t kFixSpan = kWindow / 2;              // bytes fixed per window, about

  // One window's fixed words: typed[begin, end) became fixed_text()[text_begin, text_end).
  struct Piece {
    uint16_t begin;
    uint16_t end;
    uint32_t text_begin;
    uint32_t text_end;
    uint32_t last_word;  // WordBigram id of its last word (0: none, or fixed as typed)
    uint64_t breaks;     // bit i: a syllable ends after typed[begin + i]
    uint32_t words_end;  // fixed_words()[0, words_end) are this piece's and the earlier ones'
  };

  // One word of the fixed part (a piece fixed as typed has none): fixed_text()[text_begin,
  // text_end), its lexicon entry and variant (lexicon::kNoEntry and 0 for a word beyond the
  // lexicon, a WordBonus's). What a session learns when the person keeps the sentence.
  struct FixedWord {
    uint32_t text_begin;
    uint32_t text_end;
    uint32_t entry;
    uint16_t variant;
  };

  // REQUIRES: search outlives this object. Update runs it on the windows it fixes (its
  // sentences() are then those of the last window fixed).
  explicit PinyinWindow(PinyinSentenceSearch* search);

  // Fixes the part of `typed` (lower-case a-z and apostrophes) before its live part.
  // InvalidArgument, nothing fixed, for other bytes or more than kMaxComposition bytes.
  Status Update(std::string_view typed, uint32_t context_word);

  // Where the live part starts (0 when nothing is fixed: typed is at most kWindow bytes).
  size_t live_begin() const { return pieces_.empty() ? 0 : live_begin_; }
  // The WordBigram id of the word before the live part (the context word when nothing is fixed).
  uint32_t live_context() const {
    return pieces_.empty() ? context_word_ : pieces_.back().last_word;
  }
  // The hanzi (and letters fixed as typed) of the fixed part. Valid until the next Update.
  std::string_view fixed_text() const { return fixed_text_; }
  const std::vector<Piece>& pieces() const { return pieces_; }
  // The fixed part's words, in order. Valid until the next Update.
  const std::vector<FixedWord>& fixed_words() const { return fixed_words_; }

  // `typed` (the text of the last Update) with an apostrophe at every syllable break that a letter
  // follows: the fixed pieces' breaks, then `live_breaks` (bit i: after typed[live_begin() + i]),
  // into *out.
  void WriteSyllableBreaks(std::string_view typed, uint64_t live_breaks, std::string* out) const;

 private:
  // Fixes the window at pos_; false when nothing could be (never for valid input).
  void FixWindow(std::string_view typed);

  PinyinSentenceSearch* search_;
  uint32_t context_word_ = 0;  // that the pieces were fixed after
  std::string read_;           // the letters the pieces' windows read, from the start
  std::string fixed_text_;
  std::vector<Piece> pieces_;
  std::vector<FixedWord> fixed_words_;
  size_t live_begin_ = 0;
};

}  // namespace keydecide

#endif  // KEYDECIDE_LEXICON_PINYIN_PINYIN_WINDOW_H_
