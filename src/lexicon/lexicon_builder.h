// LexiconBuilder: counts words in text and writes a *.kdlex file (lexicon_format.h).
// Not thread-safe; build once, offline.

#ifndef KEYDECIDE_LEXICON_LEXICON_BUILDER_H_
#define KEYDECIDE_LEXICON_LEXICON_BUILDER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

#include "keydecide/status.h"

namespace keydecide {

class LexiconBuilder {
 public:
  struct Options {
    // Words seen fewer times are dropped (mostly typos, names): both their weighted count and
    // their occurrences must reach it, so a weight above 1 cannot admit a word seen once.
    uint32_t min_count = 2;
    uint32_t max_words = 100000;      // keep the most frequent keys
    uint32_t max_variants = 4;        // spellings kept per key ("us", "US", "Us")
    double min_variant_share = 0.05;  // rarer spellings are dropped but still counted
    // Set for pinyin-keyed (Chinese) lexicons: every spelling of a key is kept as one of its
    // variants (homophones: "shiyan" -> 实验, 试验, 誓言...), whatever max_variants and
    // min_variant_share say (up to 65535 per key).
    bool keep_all_keyed_variants = false;
    std::string language = "en";
  };

  // One spelling's tally.
  struct Count {
    double weighted = 0;
    double seen = 0;  // occurrences, unweighted
  };

  // Counts the words of `text` (tokenizer words, split at hyphens so that every stored key
  // is one typed word), each occurrence adding `weight` to the count (and one occurrence).
  // Invalid UTF-8 is repaired first. A capitalised word that begins a sentence or a line
  // counts for its key but does not vote on the key's spelling: its capital is the
  // position's, not the word's ("The", "However").
  void AddText(std::string_view text, double weight = 1.0);

  // Ends one source (a corpus of one writer or one house style). Each source votes on each
  // key's spelling with its own shares, weighted by log(1 + its weighted count of the key),
  // so one large source's convention does not decide for all: the State of the Union's
  // 5,326 "Government" against eleven sources' lower case. The counts themselves, and so
  // which keys are kept and their order, are the same with or without sources. Text added
  // after the last EndSource is one more source.
  void EndSource();

  // Adds `count` occurrences of one spelling (count and occurrences alike). Ignored when it is
  // empty or not valid UTF-8, or when count is not in (0, 1e9].
  void AddWord(std::string_view spelling, double count);

  // Adds `count` occurrences of `spelling` stored under an explicit trie key instead of its
  // lower-cased self: the pinyin letters of a Chinese word ("zhongguo" -> 中国). Several
  // spellings may share a key; they become the variants of one entry (most frequent first)
  // and the entry's count is their sum. Ignored when key or spelling is empty, not valid
  // UTF-8 or contains white space, or when count is not in (0, 1e9].
  void AddKeyedWord(std::string_view key, std::string_view spelling, double count);

  size_t distinct_spellings() const { return counts_.size() + keyed_counts_.size(); }

  // Writes the lexicon file's bytes to *out. InvalidArgument when no word passes the
  // options' filters.
  Status Finish(const Options& options, std::string* out) const;

 private:
  void AddSpelling(std::string_view spelling, double weighted, double seen, bool cased);

  std::unordered_map<std::string, Count> counts_;           // every occurrence, the whole build
  std::unordered_map<std::string, double> source_cased_;    // this source's voting occurrences
  std::unordered_map<std::string, double> spelling_votes_;  // the ended sources' votes
  std::unordered_map<std::string, double> key_votes_;       // each key's total vote weight
  std::unordered_map<std::string, Count> keyed_counts_;     // key + '\0' + spelling
};

}  // namespace keydecide

#endif  // KEYDECIDE_LEXICON_LEXICON_BUILDER_H_
