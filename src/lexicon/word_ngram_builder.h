// WordNgramBuilder: converts a teacher's ARPA language model (up to trigrams) into a WordNgram
// (word_ngram.h) over the words of a lexicon.
//
// An ARPA word is looked up as the lexicon's word ids number words (LexiconWordIds: English,
// lower-cased, by entry; Chinese, by hanzi text); `<s>` is the sentence start. N-grams with a
// word the lexicon lacks, or with `</s>`, are left out: they cannot be typed, and their mass
// stays with the back-off weights, as a pruned model's does. A lexicon word the teacher lacks
// gets the teacher's `<unk>` unigram (or, without one, its least likely word's). Where two
// teacher words are one lexicon word (English: "The" and "the"), the likelier n-gram is kept.
// Log10 scores become natural logs (word_ngram.h stores them to 0.001 nat).

#ifndef KEYDECIDE_LEXICON_WORD_NGRAM_BUILDER_H_
#define KEYDECIDE_LEXICON_WORD_NGRAM_BUILDER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "keydecide/status.h"
#include "lexicon/lexicon_word_ids.h"

namespace keydecide {

class Lexicon;

class WordNgramBuilder {
 public:
  struct Stats {
    uint64_t listed[3] = {};   // n-grams the ARPA file lists, by order
    uint64_t kept[3] = {};     // ... written
    uint32_t words = 0;        // word ids, the sentence start included
    uint32_t known_words = 0;  // lexicon words with a unigram of the teacher's
  };

  // REQUIRES: lexicon outlives the builder; its language is "zh" (pinyin-keyed) or "en".
  explicit WordNgramBuilder(const Lexicon& lexicon);

  // Reads an ARPA file's text. InvalidArgument naming the line for a malformed one, or for an
  // order above 3. Once per builder.
  Status ReadArpa(std::string_view arpa);

  // The file's bytes.
  void Finish(std::string* bytes);

  const Stats& stats() const { return stats_; }

 private:
  struct Bigram {
    uint32_t left, word;
    int16_t score, backoff;
  };
  struct Trigram {
    uint32_t older, left, word;
    int16_t score;
  };
  // The id of an ARPA word: 0 for <s>, kSkip for one the lexicon lacks or </s>.
  static constexpr uint32_t kSkip = 0xFFFFFFFFu;
  uint32_t IdOf(std::string_view word) const;
  Status AddLine(int order, std::string_view line, size_t number);

  const Lexicon& lexicon_;
  LexiconWordIds ids_;
  std::vector<int16_t> unigram_, unigram_backoff_;
  std::vector<bool> has_unigram_;
  std::vector<Bigram> bigrams_;
  std::vector<Trigram> trigrams_;
  double unknown_log10_ = 0;
  bool has_unknown_ = false;
  double lowest_log10_ = 0;
  Stats stats_;
};

}  // namespace keydecide

#endif  // KEYDECIDE_LEXICON_WORD_NGRAM_BUILDER_H_
