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

void WriteUpperForm(std::string_view spelling, std::string* out) {
  out->clear();
  AppendUpperUtf8(spelling, out);
}

bool AtSentenceStart(std::string_view text, size_t offset) {
  size_t i = offset;
  bool spaced = false;  // a space or tab lies between the word and what ends the sentence
  while (i > 0) {
    const char c = text[i - 1];
    if (c == ' ' || c == '\t' || c == '"' || c == '\'' || c == '(' || c == '[') {
      spaced = spaced || c == ' ' || c == '\t';
      --i;
      continue;
    }
    // A full stop right against the word is inside it: a domain, a file name, a version
    // ("www.debian", "tar.gz", "3.1").
    return c == '\n' || (spaced && (c == '.' || c == '!' || c == '?'));
  }
  return true;
}

}  // namespace keydecide
