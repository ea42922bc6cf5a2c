// The Chinese (pinyin) language pack: pinyin letters converted to hanzi sentences and words
// (zh_session.h) by the pinyin-keyed lexicon, the word bigram and teacher beside it and, when
// there is one, the zh model (models/zh/README.md).

#ifndef KEYDECIDE_DECIDE_ZH_ZH_PACK_H_
#define KEYDECIDE_DECIDE_ZH_ZH_PACK_H_

#include "decide/language_pack.h"

namespace keydecide {

// Its line of the pack table (pack_table.cc).
LanguagePack ChinesePack();

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_ZH_ZH_PACK_H_
