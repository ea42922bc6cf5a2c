#include "decide/surface_form.h"

#include "text/letter_case.h"

namespace keydecide {

void WriteSurfaceForm(std::string_view spelling, bool capitalize, std::string* out) {
  out->clear();
  if (capitalize) {
    AppendCapitalizedUtf8(spelling, out);
  } else {
    out->append(spelling);
  }
}

bool AtSentenceStart(std::string_view text, size_t offset) {
  size_t i = offset;
  while (i > 0) {
    const char c = text[i - 1];
    if (c == ' ' || c == '\t' || c == '"' || c == '\'' || c == '(' || c == '[') {
      --i;
      continue;
    }
    return c == '\n' || c == '.' || c == '!' || c == '?';
  }
  return true;
}

}  // namespace keydecide
