// The autocorrect levels of keydecide/options.h and their thresholds.

#include <string_view>

#include "decide/autocorrect.h"
#include "keydecide/options.h"

namespace keydecide {

namespace {

// Per level: the threshold on the model's autocorrect probability, and the share of it a
// lower-case word no word list knows needs (Autocorrect; a likely misspelling). A word of the
// model's vocabulary needs kModelWordThreshold at every level (autocorrect.h).
// Chosen on the tuning part of the English dev text (bytes 100,052-400,829 of data/en/dev.txt)
// with slice 1's pairs, misspellings no model trained on, as the reserved ones are:
// `keydecide eval autocorrect --typos data/en/typos_heldout_dev.tsv --text TUNE --threshold T`,
// thresholds 0.9 / 0.8 / 0.6 / 0.5 / 0.4 / 0.3 / 0.25 / 0.2 / 0.15 / 0.1 / 0.05 / 0.02, the false
// rate over every word typed as written (tools/eval.h; docs/BENCHMARKS.md, "The false rate over
// every word"):
// - normal, the most corrected at 0.5% or less (half of issue 15's 1%: other text runs higher):
//   0.886 at 0.47% (0.894 with the extension cost, which changes no false rate);
// - eager, the most corrected within 1%: 0.906 at 0.80% (0.916);
// - cautious, step 8's normal level (0.8; its unknown-word share 0.5, as since step 6): 0.802
//   at 0.18%.
struct LevelBar {
  float threshold;
  float unknown_word_share;
};
constexpr float kNever = 2.0f;  // above any probability
constexpr LevelBar kBars[] = {
    {kNever, 1.0f},               // off
    {0.8f, 0.5f},                 // cautious
    {0.2f, kUnknownWordFactor},   // normal
    {0.05f, kUnknownWordFactor},  // eager
};

constexpr const char* kNames[] = {"off", "cautious", "normal", "eager"};

}  // namespace

float AutocorrectThreshold(AutocorrectLevel level) {
  const int i = static_cast<int>(level);
  return i >= 0 && i < 4 ? kBars[i].threshold : kBars[2].threshold;
}

float UnknownWordThreshold(const SessionOptions& options) {
  if (options.autocorrect_threshold >= 0) {
    return options.autocorrect_threshold > 1 ? options.autocorrect_threshold
                                             : options.autocorrect_threshold * kUnknownWordFactor;
  }
  const int i = static_cast<int>(options.autocorrect_level);
  const LevelBar& bar = kBars[i >= 0 && i < 4 ? i : 2];
  return bar.threshold > 1 ? bar.threshold : bar.threshold * bar.unknown_word_share;
}

const char* AutocorrectLevelName(AutocorrectLevel level) {
  const int i = static_cast<int>(level);
  return i >= 0 && i < 4 ? kNames[i] : "normal";
}

Status ParseAutocorrectLevel(std::string_view name, AutocorrectLevel* out) {
  for (int i = 0; i < 4; ++i) {
    if (name == kNames[i]) {
      *out = static_cast<AutocorrectLevel>(i);
      return Status::OK();
    }
  }
  return Status::InvalidArgument("autocorrect level '" + std::string(name) +
                                 "' (off, cautious, normal or eager)");
}

}  // namespace keydecide
