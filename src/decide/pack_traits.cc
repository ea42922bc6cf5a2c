#include "keydecide/pack_traits.h"

#include "decide/language_pack.h"
#include "decide/word_rule.h"
#include "text/letter_case.h"
#include "text/utf8.h"

namespace keydecide {

namespace {

bool IsJoiner(const WordRule& rule, char32_t cp) {
  size_t pos = 0;
  char32_t joiner;
  while (pos < rule.joiners.size() && utf8::Decode(rule.joiners, &pos, &joiner)) {
    if (joiner == cp) return true;
  }
  return false;
}

}  // namespace

bool ExtendsWordAt(const WordRule& rule, std::string_view word, char32_t cp) {
  const bool letter = rule.ascii_lowercase ? (cp >= 'a' && cp <= 'z') : IsLetter(cp);
  if (letter) return true;
  if (word.empty() || !IsJoiner(rule, cp)) return false;
  if (rule.repeated_joiners) return true;
  size_t last = utf8::LastCharStart(word);
  char32_t before;
  return !utf8::Decode(word, &last, &before) || !IsJoiner(rule, before);
}

bool ExtendsWord(const WordRule& rule, std::string_view word, std::string_view ch) {
  size_t pos = 0;
  char32_t cp;
  if (!utf8::Validate(ch).ok() || !utf8::Decode(ch, &pos, &cp) || pos != ch.size()) return false;
  return ExtendsWordAt(rule, word, cp);
}

Status LanguageTraits(std::string_view language, PackTraits* out) {
  for (const LanguagePack& pack : LanguagePacks()) {
    if (pack.language == language) {
      *out = *pack.traits;
      return Status::OK();
    }
  }
  return Status::NotSupported("language '" + std::string(language) + "'");
}

}  // namespace keydecide
