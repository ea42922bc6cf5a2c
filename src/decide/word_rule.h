// The word rule of a pack (WordRule, keydecide/pack_traits.h) on a decoded character: what the
// packs' CompositionRules compose by, so that the rule a host reads is the one sessions use.
// Internal to src/decide.

#ifndef KEYDECIDE_DECIDE_WORD_RULE_H_
#define KEYDECIDE_DECIDE_WORD_RULE_H_

#include <string_view>

#include "keydecide/pack_traits.h"

namespace keydecide {

// Whether `cp` typed after `word` extends it by `rule` (ExtendsWord on one code point).
bool ExtendsWordAt(const WordRule& rule, std::string_view word, char32_t cp);

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_WORD_RULE_H_
