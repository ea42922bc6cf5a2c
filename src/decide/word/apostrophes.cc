#include "decide/word/apostrophes.h"

namespace keydecide {

void StraightenApostrophes(std::string* s) {
  size_t out = 0;
  for (size_t i = 0; i < s->size();) {
    if (std::string_view(*s).substr(i).starts_with(kRightQuoteUtf8)) {
      (*s)[out++] = '\'';
      i += kRightQuoteUtf8.size();
    } else {
      (*s)[out++] = (*s)[i++];
    }
  }
  s->resize(out);
}

void CurlApostrophes(std::string* s) {
  for (size_t i = s->find('\''); i != std::string::npos; i = s->find('\'', i + 3)) {
    s->replace(i, 1, kRightQuoteUtf8);
  }
}

}  // namespace keydecide
