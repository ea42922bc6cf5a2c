// How a candidate is written at the cursor: its usual spelling ("I", "London", "the"),
// capitalised when the person started the word with a capital or a sentence starts here, in
// capitals when every letter typed was one ("MOU" offers "MOUNT").

#ifndef KEYDECIDE_DECIDE_SURFACE_FORM_H_
#define KEYDECIDE_DECIDE_SURFACE_FORM_H_

#include <string>
#include <string_view>

namespace keydecide {

// Replaces *out with `spelling`, capitalised when `capitalize`. Does not allocate when
// out has the capacity.
void WriteSurfaceForm(std::string_view spelling, bool capitalize, std::string* out);
// Replaces *out with `spelling` in capitals. Does not allocate when out has the capacity.
void WriteUpperForm(std::string_view spelling, std::string* out);

// True when the text before `offset` ends a sentence: nothing but spaces, quotes and
// brackets after the start of text, a newline, or one of . ! ? followed by a space or tab
// (a full stop right against the word is inside it: "www.debian", "tar.gz").
bool AtSentenceStart(std::string_view text, size_t offset);

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_SURFACE_FORM_H_
