// Building lexicon files from text, for the `keydecide lexicon build` command and tests.

#ifndef KEYDECIDE_LEXICON_TOOL_H_
#define KEYDECIDE_LEXICON_TOOL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "keydecide/status.h"

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
};

struct LexiconBuildReport {
  uint64_t input_bytes = 0;
  size_t distinct_spellings = 0;
  size_t words = 0;  // entries written
  uint64_t output_bytes = 0;
};

// Counts the words of every input and writes the lexicon file. The output is written to a
// temporary file and renamed into place, so a failure never leaves a half-written file.
Status BuildLexicon(const LexiconBuildOptions& options, LexiconBuildReport* report);

// Builds a lexicon from in-memory text (tests, small tools): returns the file's bytes.
Status BuildLexiconFromText(const std::string& text, uint32_t min_count, std::string* bytes);

}  // namespace keydecide

#endif  // KEYDECIDE_LEXICON_TOOL_H_
