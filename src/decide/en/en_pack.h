// The English language pack: words typed letter by letter (the word engine, word_engine.h) with
// English's word rule (english_word.h), contractions (apostrophe_words.h, spelling_rules.h), and
// whatever its folder holds: lexicon, word bigram, teacher, typing models, popup network, intent
// n-grams (models/en/README.md).

#ifndef KEYDECIDE_DECIDE_EN_EN_PACK_H_
#define KEYDECIDE_DECIDE_EN_EN_PACK_H_

#include "decide/language_pack.h"

namespace keydecide {

// Its line of the pack table (pack_table.cc).
LanguagePack EnglishPack();

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_EN_EN_PACK_H_
