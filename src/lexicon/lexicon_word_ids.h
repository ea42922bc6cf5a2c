// LexiconWordIds: how the word models of a lexicon (WordBigram, WordNgram) number its words, so
// that both number them alike and a session looks a word up once for both.
//
// Id 0 is the start of a sentence. A lexicon keyed by its lower-cased words (English, German; read
// from its keys and spellings, not its language's name): a word is a lexicon entry, all its
// spellings ("the", "The") one word, numbered 1.. in the byte order of the keys, so the words
// with a given prefix are one range of ids. A lexicon keyed by readings (pinyin): a word is a
// distinct spelling text (hanzi), numbered 1.. in the order of its first spelling.
//
// Build-time helper: the runtime reads the numbering from the model files.

#ifndef KEYDECIDE_LEXICON_LEXICON_WORD_IDS_H_
#define KEYDECIDE_LEXICON_LEXICON_WORD_IDS_H_

#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace keydecide {

class Lexicon;

class LexiconWordIds {
 public:
  // REQUIRES: lexicon outlives this object.
  explicit LexiconWordIds(const Lexicon& lexicon);

  bool by_entry() const { return by_entry_; }          // English: one word per entry
  uint32_t word_count() const { return word_count_; }  // the sentence start included
  // Per lexicon spelling (Lexicon::VariantIndex): its word id (≥ 1).
  const std::vector<uint32_t>& word_of_variant() const { return word_of_variant_; }
  // English only: the id of a lexicon entry.
  uint32_t OfEntry(uint32_t entry) const { return id_of_entry_[entry]; }
  // The id of a word's text, or 0 when the lexicon has no such spelling (English: no entry for
  // its lower-cased key).
  uint32_t Find(std::string_view text) const;

 private:
  const Lexicon& lexicon_;
  bool by_entry_ = false;
  uint32_t word_count_ = 1;
  std::vector<uint32_t> id_of_entry_;                          // English
  std::unordered_map<std::string_view, uint32_t> id_of_text_;  // Chinese
  std::vector<uint32_t> word_of_variant_;
};

}  // namespace keydecide

#endif  // KEYDECIDE_LEXICON_LEXICON_WORD_IDS_H_
