// PackTraits: what a host (a front end, the runtime, a tool) must know of a language to drive
// it, asked of its pack (Engine::Info::traits, LanguageTraits) rather than decided by comparing
// a language's name: what a word is, what Space and Enter do while one is composed, whether the
// suggestion bar always shows, the language's own punctuation.
//
// Thread-safety: plain values; ExtendsWord and LanguageTraits may be called from any thread.

#ifndef KEYDECIDE_PACK_TRAITS_H_
#define KEYDECIDE_PACK_TRAITS_H_

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "keydecide/export.h"
#include "keydecide/status.h"

namespace keydecide {

// What a word being composed is made of: the same rule the pack's sessions compose by, so that
// a host that must decide on a key before the engine answers (whether to keep it in its preedit
// or hand it to the application) decides as the session will.
struct WordRule {
  // Its letters: only a-z (pinyin), or every Unicode letter (false; é, ß, ж).
  bool ascii_lowercase = false;
  // Characters that continue a word already started, never start one: English's apostrophes
  // ("'" and "’": don't), pinyin's syllable separator "'" (xi'an).
  std::string joiners;
  // Whether two joiners may follow each other (pinyin: yes; English: "don''" ends the word).
  bool repeated_joiners = false;
  // Whether deleting back into a finished word makes it the composition again (English), or
  // the composition is only what was typed since the last commit (pinyin).
  bool reopens = true;
};

// Whether the character `ch` (one UTF-8 character) typed after `word` (the composition so far;
// "" for none) extends it, by `rule`. False for anything that is not one valid character.
KD_API bool ExtendsWord(const WordRule& rule, std::string_view word, std::string_view ch);

// What a key does while a word is being composed.
enum class KeyAction : int {
  kType = 0,         // the key is typed: it ends the word (an autocorrection then applies)
  kPickFirst = 1,    // the first candidate is picked (pinyin's Space: the sentence)
  kCommitTyped = 2,  // the letters are committed as typed (pinyin's Enter)
};

struct PackTraits {
  WordRule word;
  // The composition is a reading converted into other text (pinyin into hanzi): the
  // candidates, not the letters, are what the person means. Tools evaluate such a pack on
  // reading files (`keydecide eval pinyin`), not by replaying text.
  bool converts_reading = false;
  KeyAction space = KeyAction::kType;
  KeyAction enter = KeyAction::kType;
  // The bar shows whenever there are candidates (they are how letters become text), whatever
  // Decision::popup says.
  bool always_show_bar = false;
  // A picked candidate is followed by a space (a word language), or not (pinyin: the rest of
  // the letters stay to be converted).
  bool pick_adds_space = true;
  // Number keys pick a candidate even with nothing composed (pinyin's 联想); else they are
  // typed there (a word language offers next words with the bar, and digits are text).
  bool digits_pick_next_words = false;
  // ASCII punctuation the language writes in its own forms (pinyin: {",", "，"}, {".", "。"}),
  // which a host may type instead (fcitx5's full-width punctuation).
  std::vector<std::pair<std::string, std::string>> punctuation;
  // A short label for an input-method indicator ("EN", "拼").
  std::string indicator;
};

// The traits of the pack named `language`, without opening it. NotSupported for a language
// this build has no pack for.
KD_API Status LanguageTraits(std::string_view language, PackTraits* out);

}  // namespace keydecide

#endif  // KEYDECIDE_PACK_TRAITS_H_
