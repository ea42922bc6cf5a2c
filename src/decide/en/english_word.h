// What an English word is (the English pack's CompositionRule): letters, and an apostrophe
// after a letter ("don'" on the way to "don't"); deleting or trimming reopens the word before
// the cursor.

#ifndef KEYDECIDE_DECIDE_EN_ENGLISH_WORD_H_
#define KEYDECIDE_DECIDE_EN_ENGLISH_WORD_H_

#include "decide/typed_text.h"
#include "keydecide/pack_traits.h"

namespace keydecide {

// What hosts read of it (PackTraits::word), and what the composition extends by.
extern const WordRule kEnglishWord;
extern const CompositionRule kEnglishComposition;

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_EN_ENGLISH_WORD_H_
