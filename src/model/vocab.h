// Vocab: a typing model's word vocabulary (the "words" metadata of its weight file, in
// word-index order, most frequent first after the four specials), its language and, for a
// zh model, each word's pinyin reading. Immutable after Load.

#ifndef KEYDECIDE_MODEL_VOCAB_H_
#define KEYDECIDE_MODEL_VOCAB_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "keydecide/status.h"

namespace keydecide {

class SafetensorsFile;

class Vocab {
 public:
  // Reads `n_words` words (and the language and readings) from the metadata of `file`, which
  // must outlive the Vocab (readings are views into it). InvalidArgument/NotSupported naming
  // the first problem: a word count other than n_words, invalid UTF-8, an unknown language, a
  // reading line that is not pinyin.
  Status Load(const SafetensorsFile& file, int n_words);

  int size() const { return static_cast<int>(words_.size()); }
  std::string_view Word(int index) const { return words_[index]; }
  // Word index of a lower-cased token, or ModelConfig::kUnkWord. The first of equal words wins.
  int Find(std::string_view lower) const;
  // True for vocabulary words that contain a letter (not punctuation or specials).
  bool IsLetterWord(int index) const { return letter_word_[index] != 0; }
  // The language the model was trained for: metadata "language", "en" when absent.
  std::string_view language() const { return language_; }
  // A zh model's reading of each word (toneless syllables joined by apostrophes, "zhong'guo";
  // empty for specials, latin words and punctuation); empty for every word of other models.
  std::string_view Reading(int index) const {
    return readings_.empty() ? std::string_view() : readings_[index];
  }

 private:
  Status LoadReadings(std::string_view pinyin);

  std::vector<std::string> words_;
  std::string language_ = "en";
  std::vector<std::string_view> readings_;
  std::unordered_map<std::string_view, int> index_;  // views into words_
  std::vector<uint8_t> letter_word_;
};

}  // namespace keydecide

#endif  // KEYDECIDE_MODEL_VOCAB_H_
