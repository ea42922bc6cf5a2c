// WordBigramBuilder: trains a WordBigram (word_bigram.h) from text in the lexicon's language.
//
// Chinese (a pinyin-keyed lexicon): every run of hanzi is split into the lexicon's words by
// maximum unigram probability (the lexicon's counts; as jieba segments without its HMM), and the
// pairs of neighbouring words are counted, each run starting from the sentence-start word. A
// hanzi the lexicon lacks ends the run there. A word is a distinct spelling text.
//
// English (a lexicon keyed by lower-cased words): a word is a lexicon entry (all its spellings,
// "the" and "The", are one word), numbered in the byte order of the keys (so the words with a
// given prefix are one range of ids, and so are a row's followers), read from the text as the
// English session reads one: letters,
// with an apostrophe between letters ("don't", straight or typographic). Two words are a pair
// only when nothing but spaces separates them, which is when the session sees the first as the
// word before the one being typed; any other word follows the sentence start, as does every
// word after one the lexicon lacks.
//
// A teacher language model may add its expected counts on top (AddTeacherCounts): the pairs and
// words it would give in so many words of text, as if that text had been read too
// (training/keydecide_train/sunpinyin_teacher.py writes them; docs/MODEL.md). A teacher lists
// only the pairs its model holds explicitly; the rest of a word's occurrences were followed by
// words of its back-off, so they count in the word's c(v) without a pair, and that mass stays
// with the back-off weight (word_bigram.h) instead of being spread over the listed pairs.

#ifndef KEYDECIDE_LEXICON_WORD_BIGRAM_BUILDER_H_
#define KEYDECIDE_LEXICON_WORD_BIGRAM_BUILDER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "keydecide/status.h"
#include "lexicon/lexicon_word_ids.h"

namespace keydecide {

class Lexicon;

class WordBigramBuilder {
 public:
  struct Options {
    uint32_t min_pair_count = 1;  // rarer pairs are dropped (their words still count in n(v))
    float discount = 0.75f;       // D of word_bigram.h, in (0, 1)
    float unigram_weight = 0.9f;  // λ of word_bigram.h, in [0, 1]
    size_t max_word_chars = 8;    // longest word looked for in the text
    // AddTeacherCounts: read a teacher's word the lexicon does not spell as the lexicon words
    // it splits into (else its lines are dropped).
    bool split_teacher_words = false;
  };

  struct Stats {
    uint64_t han_chars = 0;
    uint64_t unknown_chars = 0;  // hanzi without a lexicon word
    uint64_t unknown_words = 0;  // English words without a lexicon entry
    uint64_t tokens = 0;         // words
    uint64_t pairs_seen = 0;     // distinct pairs
    uint64_t pairs_kept = 0;
    uint32_t words = 0;            // word ids, the sentence start included
    uint64_t teacher_lines = 0;    // AddTeacherCounts lines used
    uint64_t teacher_skipped = 0;  // ... dropped: a word the lexicon does not spell, or count 0
  };

  // REQUIRES: lexicon outlives the builder; its language is "zh" (pinyin-keyed) or "en".
  WordBigramBuilder(const Lexicon& lexicon, const Options& options);

  // Counts the word pairs of `text` (UTF-8; invalid bytes end a run like any non-hanzi, or a
  // word like any non-letter).
  void AddText(std::string_view text);

  // Adds a teacher's expected counts: "left<TAB>right<TAB>count" lines for word pairs (left
  // "<s>": the sentence start) and "<unigram><TAB>word<TAB>count" lines for a word's own count,
  // each count times `weight` (rounded). A line whose word the lexicon does not spell, or whose
  // count rounds to 0, is dropped. InvalidArgument, naming the line, for a malformed line (the
  // lines before it stay added) or a weight that is not finite and positive.
  Status AddTeacherCounts(std::string_view tsv, double weight);

  // The word ids of one run of hanzi, in order (0 where a hanzi has no word), into *ids.
  void Segment(std::string_view run, std::vector<uint32_t>* ids) const;

  // The id of a word's text, or 0 when the lexicon has no such spelling (English: no entry
  // for its lower-cased key).
  uint32_t WordId(std::string_view text) const;

  // The file's bytes. InvalidArgument for bad options.
  Status Finish(std::string* bytes, Stats* stats) const;

  const Stats& stats() const { return stats_; }

 private:
  void AddHanText(std::string_view text);
  void AddRun(std::string_view run);
  void AddLetterText(std::string_view text);
  // The word ids of a teacher's word: its own, or (split_teacher_words) those Segment gives
  // when every hanzi has a word. False (ids unspecified) when it has none.
  bool SegmentTeacherWord(std::string_view text, std::vector<uint32_t>* ids) const;

  const Lexicon& lexicon_;
  Options options_;
  LexiconWordIds ids_;
  bool by_entry_ = false;  // English: one word per lexicon entry
  std::vector<float> log_p_;  // per word id: log(count / total) from the lexicon
  std::unordered_map<uint64_t, uint32_t> pairs_;  // (left << 32 | right) -> count
  std::vector<uint32_t> word_total_;              // per word id: occurrences in the text
  // Per word id: a teacher's occurrences of it not followed by one of its listed pairs.
  std::vector<uint64_t> unlisted_followers_;
  Stats stats_;
};

}  // namespace keydecide

#endif  // KEYDECIDE_LEXICON_WORD_BIGRAM_BUILDER_H_
