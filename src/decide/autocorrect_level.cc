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
// rate over every word typed as written (tools/eval.h; docs/history/BENCHMARKS-to-2026-12-07.md,
// "The false rate over every word"):
// - normal, the most corrected at 0.5% or less (half of issue 15's 1%: other text runs higher):
//   0.886 at 0.47% (0.894 with the extension cost, which changes no false rate);
// - eager, the most corrected within 1%: 0.906 at 0.80% (0.916);
// - cautious, step 8's normal level (0.8; its unknown-word share 0.5, as since step 6): 0.802
//   at 0.18%.
// The near-misspelling share (autocorrect.h) is the normal and eager levels' only: cautious keeps
// its unknown-word share there.
struct LevelBar {
  float threshold;
  float unknown_word_share;
  float near_misspelling_share;
};
constexpr float kNever = 2.0f;  // above any probability
constexpr LevelBar kBars[] = {
    {kNever, 1.0f, 1.0f},                                 // off
    {0.8f, 0.5f, 0.5f},                                   // cautious
    {0.2f, kUnknownWordFactor, kNearMisspellingFactor},   // normal
    {0.05f, kUnknownWordFactor, kNearMisspellingFactor},  // eager
};

constexpr const char* kNames[] = {"off", "cautious", "normal", "eager"};

}  // namespace

float AutocorrectThreshold(AutocorrectLevel level) {
  const int i = static_cast<int>(level);
  return i >= 0 && i < 4 ? kBars[i].threshold : kBars[2].threshold;
}

AutocorrectBars AutocorrectBarsFor(const SessionOptions& options) {
  float threshold = options.autocorrect_threshold;
  LevelBar shares = kBars[2];  // an explicit threshold takes the normal level's shares
  if (threshold < 0) {
    const int i = static_cast<int>(options.autocorrect_level);
    shares = kBars[i >= 0 && i < 4 ? i : 2];
    threshold = shares.threshold;
  }
  if (threshold > 1) return {threshold, threshold, threshold};  // off
  return {threshold, threshold * shares.unknown_word_share,
          threshold * shares.near_misspelling_share};
}

float UnknownWordThreshold(const SessionOptions& options) {
  return AutocorrectBarsFor(options).unknown;
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
