// ApostropheIndex: the lexicon's words with apostrophes ("don't", "i'm", "you're"), keyed by
// their letters alone, so that a person who types "dont" or "im", as most people do on a
// keyboard, is offered "don't" and "I'm" as completions and not as two-slip corrections.
//
// Built once per word pack that asks for it (WordPackSpec::index_apostrophes); immutable and
// shareable afterwards. Lookups do not allocate.

#ifndef KEYDECIDE_DECIDE_WORD_APOSTROPHE_INDEX_H_
#define KEYDECIDE_DECIDE_WORD_APOSTROPHE_INDEX_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace keydecide {

class Lexicon;

class ApostropheIndex {
 public:
  struct Word {
    std::string letters;  // the key without its apostrophes: "dont"
    uint32_t entry;       // the lexicon entry ("don't")
    uint32_t count;       // its lexicon count
  };

  // REQUIRES: lexicon outlives nothing here (the index copies what it needs).
  explicit ApostropheIndex(const Lexicon& lexicon);
  ApostropheIndex() = default;

  // The words whose letters start with `typed` (lower-cased, without apostrophes), in letter
  // order; valid as long as this object.
  std::span<const Word> WithPrefix(std::string_view typed) const;
  // The most frequent word whose letters are exactly `typed`, or nullptr.
  const Word* Exact(std::string_view typed) const;

  size_t size() const { return words_.size(); }

 private:
  std::vector<Word> words_;  // by letters, then count descending
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_WORD_APOSTROPHE_INDEX_H_
