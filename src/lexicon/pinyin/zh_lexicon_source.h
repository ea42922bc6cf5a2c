// Chinese (Simplified) lexicon sources: jieba's dictionary for word counts and libime's sc.dict
// (dumped to text) for readings, turned into pinyin-keyed words for LexiconBuilder.
//
// The trie key of a word is its toneless pinyin, syllables concatenated, `ü` as `v`
// (中国 -> "zhongguo", 旅行 -> "lvxing"); the stored spelling is the hanzi word and its count is
// jieba's. Homophones share one key and become the variants of one entry (see
// LexiconBuilder::AddKeyedWord). A word with several readings (e.g. 银行 yin'hang, 行 xing / hang)
// is stored under each; jieba's count is split among them in proportion to 10^score, score
// being sc.dict's third column (a log10 weight, 0 for most readings).
//
// Input formats (UTF-8, one entry a line; blank lines ignored; fields separated by spaces or
// tabs):
//   counts   (jieba.dict.utf8):  WORD COUNT [TAG]             e.g. "中国 129470 ns"
//   readings (sc.dict as text):  WORD PIN'YIN [SCORE]         e.g. "中国 zhong'guo 0"
// A line that does not match is malformed: it is skipped, counted and (the first few) described
// as "NAME:LINE: reason". A reading with a syllable outside pinyin::Syllables() (after the aliases
// lue/nue) is dropped and counted, not malformed (sc.dict has a few, e.g. "ng", "m").

#ifndef KEYDECIDE_LEXICON_PINYIN_ZH_LEXICON_SOURCE_H_
#define KEYDECIDE_LEXICON_PINYIN_ZH_LEXICON_SOURCE_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "keydecide/status.h"

namespace keydecide {

class LexiconBuilder;

struct ZhLexiconStats {
  size_t count_lines = 0;         // non-blank lines read from the counts file
  size_t reading_lines = 0;       // non-blank lines read from the readings file
  size_t words = 0;               // distinct words with a count > 0
  size_t words_added = 0;         // words with at least one usable reading (added to the builder)
  size_t skipped_no_reading = 0;  // words without a usable reading: left out
  size_t skipped_long_key = 0;    // words whose every key is over kMaxKeyBytes
  size_t skipped_mojibake = 0;    // words that start as UTF-8 punctuation read as GBK (both files)
  size_t readings_bad_syllable = 0;  // readings dropped for a syllable outside the table
  size_t malformed_lines = 0;        // in both files
  std::vector<std::string> errors;   // the first kMaxErrors malformed lines, described
  static constexpr size_t kMaxErrors = 10;
};

// The characters that UTF-8 CJK punctuation turns into when its first two bytes are read as
// GBK: "、" (E3 80 81) and "。" start as 銆, "，" (EF BC 8C) and the other full-width forms as
// 锛, "“" and "…" (E2 80 ..) as 鈥. jieba's dictionary holds such words ("銆 6982",
// "锛 12605"), which then outranked real ones ("mo" offered 銆 first). Computed with iconv
// from the punctuation, not listed by hand. A word that starts with one is left out of the
// lexicon, at the price of the few real words that do (锛子, an adze).
const std::vector<char32_t>& GbkMisreadPunctuation();

// True when `word` starts with one of GbkMisreadPunctuation().
bool StartsWithGbkMisread(std::string_view word);

// Converts a reading with syllables separated by apostrophes ("zhong'guo", "lü'xing",
// "lue'duo") into a trie key ("zhongguo", "lvxing", "lveduo"): ASCII letters lower-cased, ü as
// v, aliases canonicalised. False (and *key unspecified) when a syllable is not in the table.
bool PinyinReadingToKey(std::string_view reading, std::string* key);

// Parses both sources and adds every word with a reading to *builder with AddKeyedWord.
// `counts_name` / `readings_name` name the sources in error messages. Returns
// InvalidArgument, with the first malformed lines in the message, when more than
// `max_malformed` lines are malformed (nothing is added then); OK otherwise, *stats filled.
Status AddZhLexiconWords(std::string_view counts, std::string_view counts_name,
                         std::string_view readings, std::string_view readings_name,
                         size_t max_malformed, LexiconBuilder* builder, ZhLexiconStats* stats);

}  // namespace keydecide

#endif  // KEYDECIDE_LEXICON_PINYIN_ZH_LEXICON_SOURCE_H_
