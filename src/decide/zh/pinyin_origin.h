// PinyinOrigin: where a candidate a pinyin session offered came from, recorded by its writer at
// Decide (OfferedCandidates), so that Pick knows which letters it converts and what it teaches
// without searching the results again; Accept(text) finds the same by matching the text
// (ZhSession::FindOrigin), and both resolve through the same code.

#ifndef KEYDECIDE_DECIDE_ZH_PINYIN_ORIGIN_H_
#define KEYDECIDE_DECIDE_ZH_PINYIN_ORIGIN_H_

#include <cstdint>

#include "lexicon/lexicon_format.h"

namespace keydecide {

struct PinyinOrigin {
  enum class Source : uint8_t {
    kUnknown,   // not recorded (the shortcut's expansion): resolved by its text
    kLetters,   // none of the searches' (the letters as typed): it converts all the letters
    kSentence,  // ZhState::ranked[index] (after the fixed part of a long composition)
    kUser,      // the person's word UserWords::word(index), converting `consumed` letters
    kWord,      // a PinyinCandidate of the word search: `consumed`, `entry`, `variant`
    kNextWord,  // a 联想 word, ZhState::next[index]
  };
  Source source = Source::kUnknown;
  uint32_t index = 0;
  uint32_t consumed = 0;
  uint32_t entry = lexicon::kNoEntry;
  uint32_t variant = 0;
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_ZH_PINYIN_ORIGIN_H_
