// Building lexicon files from text, for the `keydecide lexicon build` and `lexicon bigram`
// commands and tests.

#ifndef KEYDECIDE_LEXICON_LEXICON_TOOL_H_
#define KEYDECIDE_LEXICON_LEXICON_TOOL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "keydecide/status.h"
#include "lexicon/word_ngram_builder.h"

namespace keydecide {

struct LexiconBuildOptions {
  struct Input {
    std::string path;     // a UTF-8 text file (invalid bytes are repaired, not fatal)
    double weight = 1.0;  // each word occurrence counts this much (down-weight a source)
  };
  std::vector<Input> inputs;
  std::string output_path;
  uint32_t min_count = 2;       // words seen fewer times are left out
  uint32_t max_words = 100000;  // most frequent words kept
  std::string language = "en";

  // With these two files (instead of `inputs`, which must then be empty): a pinyin-keyed
  // Simplified Chinese lexicon (src/lexicon/zh_lexicon_source.h), tagged `language`.
  std::string zh_counts_path;     // jieba dictionary: WORD COUNT [TAG] lines
  std::string zh_readings_path;   // libime sc.dict dumped to text: WORD PIN'YIN [SCORE] lines
  uint32_t zh_max_malformed = 0;  // more malformed lines than this fail the build
  bool keyed_by_reading() const { return !zh_counts_path.empty() || !zh_readings_path.empty(); }
};

struct LexiconBuildReport {
  uint64_t input_bytes = 0;
  size_t distinct_spellings = 0;
  size_t words = 0;  // entries written
  uint64_t output_bytes = 0;

  // A pinyin-keyed build only (keyed_by_reading).
  size_t zh_words = 0;               // distinct words in the counts file
  size_t zh_words_added = 0;         // words with a reading, before min_count / max_words
  size_t zh_skipped_no_reading = 0;  // words without a usable reading: left out
  size_t zh_skipped_long_key = 0;    // words whose pinyin is longer than a key may be
  size_t zh_skipped_mojibake = 0;    // words (in either file) that are punctuation read as GBK
  size_t zh_readings_bad_syllable = 0;
  size_t zh_malformed_lines = 0;
  std::vector<std::string> zh_errors;  // the first malformed lines, "FILE:LINE: reason"
  size_t variants = 0;                 // spellings written (hanzi words when keyed by reading)
};

// Counts the words of every input and writes the lexicon file. The output is written to a
// temporary file and renamed into place, so a failure never leaves a half-written file.
Status BuildLexicon(const LexiconBuildOptions& options, LexiconBuildReport* report);

// Builds a pinyin-keyed Chinese lexicon from in-memory sources (tests): returns the file's
// bytes. `report`'s zh_* fields are filled (may be null).
Status BuildZhLexiconFromText(const std::string& counts, const std::string& readings,
                              uint32_t min_count, std::string* bytes,
                              LexiconBuildReport* report = nullptr);

// Builds a lexicon from in-memory text (tests, small tools): returns the file's bytes.
Status BuildLexiconFromText(const std::string& text, uint32_t min_count, std::string* bytes);

// A word bigram model for a lexicon, trained on text in its language (word_bigram_builder.h):
// Chinese, the pinyin sentence search's language model; English, the completions' context
// beside the typing model.
struct WordBigramBuildOptions {
  std::string lexicon_path;         // the lexicon the model is for (zh or en)
  std::vector<std::string> inputs;  // UTF-8 text files
  std::string output_path;
  uint32_t min_pair_count = 1;  // rarer word pairs are dropped (1: keep all, the shipped model)
  float discount = 0.75f;       // absolute discount, in (0, 1)
  float unigram_weight = 0.9f;  // weight of the text's own word counts against the lexicon's
  // A teacher's expected counts (WordBigramBuilder::AddTeacherCounts), times teacher_weight;
  // empty: none.
  std::string teacher_path;
  double teacher_weight = 1.0;
  bool teacher_split_words = false;  // WordBigramBuilder::Options::split_teacher_words
};

struct WordBigramBuildReport {
  uint64_t input_bytes = 0;
  uint64_t han_chars = 0;
  uint64_t unknown_chars = 0;  // hanzi the lexicon has no word for
  uint64_t unknown_words = 0;  // English words the lexicon lacks
  uint64_t tokens = 0;         // words after segmentation
  uint64_t pairs_seen = 0;
  uint64_t pairs_kept = 0;
  uint64_t teacher_lines = 0;    // teacher lines used
  uint64_t teacher_skipped = 0;  // ... dropped (a word the lexicon does not spell)
  uint64_t output_bytes = 0;
};

// Writes the model to a temporary file renamed into place (never a half-written file).
Status BuildWordBigram(const WordBigramBuildOptions& options, WordBigramBuildReport* report);

// A teacher's ARPA language model converted into a WordNgram for a lexicon (zh or en;
// word_ngram_builder.h). Writes to a temporary file renamed into place. `stats` may be null.
Status BuildWordNgram(const std::string& lexicon_path, const std::string& arpa_path,
                      const std::string& output_path, WordNgramBuilder::Stats* stats,
                      uint64_t* output_bytes);

// The known-words filter beside an English lexicon (word_set.h) from word lists, one word a
// line (Debian's wamerican-huge): each line lower-cased, empty lines and duplicates skipped.
// Writes to a temporary file renamed into place. `words` (may be null): the words added.
Status BuildWordSet(const std::vector<std::string>& inputs, const std::string& output_path,
                    uint64_t* words);

}  // namespace keydecide

#endif  // KEYDECIDE_LEXICON_LEXICON_TOOL_H_
