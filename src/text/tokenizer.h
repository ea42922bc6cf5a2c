// Tokenizer: splits text into words, numbers, punctuation, URLs and e-mail addresses.
// Spaces separate tokens and are not returned. Used to count words for the lexicon and to
// read the committed context of a session.

#ifndef KEYDECIDE_TEXT_TOKENIZER_H_
#define KEYDECIDE_TEXT_TOKENIZER_H_

#include <cstddef>
#include <string_view>
#include <vector>

namespace keydecide {

// Persisted nowhere; order is free to change.
enum class TokenKind {
  kWord,    // letters, with inner apostrophes or hyphens: "don't", "well-known"
  kNumber,  // digits, with inner '.' or ',' between digits: "3.14", "1,000"
  kPunct,   // one punctuation or symbol character
  kUrl,     // "https://...", "www.example.org/..." kept whole
  kEmail,   // "name@example.org" kept whole
  kOther,   // any other character (emoji, invalid UTF-8 byte), one per token
};

struct Token {
  TokenKind kind;
  std::string_view text;  // a view into the tokenized input
  size_t offset;          // byte offset of text in the input
};

// Appends the tokens of `text` to *out. Views stay valid as long as `text` does.
// Invalid UTF-8 bytes become kOther tokens of one byte each; nothing is dropped but spaces.
void Tokenize(std::string_view text, std::vector<Token>* out);

const char* TokenKindName(TokenKind kind);

// True when text begins the way a URL token does: "http://", "https://", "ftp://" or
// "www." (any case).
bool StartsLikeUrl(std::string_view text);

}  // namespace keydecide

#endif  // KEYDECIDE_TEXT_TOKENIZER_H_
