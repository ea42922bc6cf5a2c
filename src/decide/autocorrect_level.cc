// The autocorrect levels of keydecide/options.h and their thresholds.

#include <string_view>

#include "keydecide/options.h"

namespace keydecide {

namespace {

// Thresholds on the model's autocorrect probability, chosen on the tuning part of the English
// dev text (bytes 100,052-400,829 of data/en/dev.txt; the allowed typo pairs typed into it:
// `keydecide eval autocorrect --typos data/en/typos_train.tsv --text TUNE --threshold T`;
// docs/BENCHMARKS.md, "Autocorrect levels"). Corrected / correctly typed words changed:
// 0.7: 0.828 / 0.23%, 0.4: 0.870 / 0.56% (the threshold the heads were tuned at), 0.3: 0.881 /
// 0.89%, the most typos fixed within the 1% of correct words changed that issue 15 allows.
constexpr float kCautiousThreshold = 0.7f;
constexpr float kNormalThreshold = 0.4f;
constexpr float kEagerThreshold = 0.3f;
constexpr float kNever = 2.0f;  // above any probability

constexpr const char* kNames[] = {"off", "cautious", "normal", "eager"};

}  // namespace

float AutocorrectThreshold(AutocorrectLevel level) {
  switch (level) {
    case AutocorrectLevel::kOff:
      return kNever;
    case AutocorrectLevel::kCautious:
      return kCautiousThreshold;
    case AutocorrectLevel::kNormal:
      return kNormalThreshold;
    case AutocorrectLevel::kEager:
      return kEagerThreshold;
  }
  return kNormalThreshold;
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
