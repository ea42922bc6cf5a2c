#include "decide/en/english_word.h"

#include <string>

#include "decide/word/apostrophes.h"
#include "decide/word_rule.h"
#include "text/letter_case.h"
#include "text/utf8.h"

namespace keydecide {

namespace {

char32_t CharBefore(std::string_view text, size_t end, size_t* start) {
  *start = utf8::LastCharStart(text.substr(0, end));
  size_t pos = *start;
  char32_t cp;
  utf8::Decode(text, &pos, &cp);
  return cp;
}

// Byte offset where the word being typed starts in `text`: after the last character that
// is neither a letter nor an apostrophe following a letter ("don'" on the way to "don't").
size_t CompositionStart(std::string_view text, size_t /*start*/) {
  size_t start = text.size();
  while (start > 0) {
    size_t prev;
    const char32_t cp = CharBefore(text, start, &prev);
    size_t before;
    if (IsLetter(cp) ||
        (IsApostrophe(cp) && prev > 0 && IsLetter(CharBefore(text, prev, &before)))) {
      start = prev;
      continue;
    }
    break;
  }
  // A quote mark, not the word.
  for (;;) {
    if (start < text.size() && text[start] == '\'') {
      ++start;
    } else if (text.substr(start).starts_with(kRightQuoteUtf8)) {
      start += kRightQuoteUtf8.size();
    } else {
      break;
    }
  }
  return start;
}

// The word goes on with a letter, or with an apostrophe after a letter ("don'").
bool ExtendsEnglishWord(char32_t cp, std::string_view word) {
  return ExtendsWordAt(kEnglishWord, word, cp);
}

}  // namespace

const WordRule kEnglishWord = {
    .ascii_lowercase = false, .joiners = "'\u2019", .repeated_joiners = false, .reopens = true};

const CompositionRule kEnglishComposition = {ExtendsEnglishWord, CompositionStart,
                                             std::string::npos};

}  // namespace keydecide
