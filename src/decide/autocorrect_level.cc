// The autocorrect levels of keydecide/options.h and their thresholds.

#include <string_view>

#include "keydecide/options.h"

namespace keydecide {

namespace {

// Thresholds on the model's autocorrect probability, chosen on the tuning part of the English
// dev text (bytes 100,052-400,829; docs/BENCHMARKS.md, "Autocorrect levels"): kNormal is the
// threshold the heads were tuned at; kCautious and kEager the ones where the rate of correctly
// typed words changed came to about 0.1% and 1%.
constexpr float kCautiousThreshold = 0.7f;
constexpr float kNormalThreshold = 0.4f;
constexpr float kEagerThreshold = 0.2f;
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
