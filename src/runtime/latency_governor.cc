#include "runtime/latency_governor.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace keydecide {

namespace {

constexpr float kWindowQuantile = 0.9f;  // the governor watches P90: tails are what lag
constexpr int kMinWindow = 4;

}  // namespace

LatencyGovernor::LatencyGovernor(const GovernorOptions& options, std::vector<Tier> ladder)
    : options_(options), ladder_(std::move(ladder)) {
  options_.window = std::max(options_.window, kMinWindow);
  window_.assign(static_cast<size_t>(options_.window), 0.0f);
  scratch_.reserve(window_.size());
}

void LatencyGovernor::MoveTo(int rung) {
  rung_ = rung;
  on_rung_ = 0;
  next_ = 0;
  ++changes_;
}

float LatencyGovernor::WindowQuantile(float q) const {
  const size_t n = std::min<uint64_t>(on_rung_, window_.size());
  if (n == 0) return 0;
  scratch_.assign(window_.begin(), window_.begin() + static_cast<std::ptrdiff_t>(n));
  const size_t k = std::min(n - 1, static_cast<size_t>(std::floor(q * static_cast<float>(n))));
  std::nth_element(scratch_.begin(), scratch_.begin() + static_cast<std::ptrdiff_t>(k),
                   scratch_.end());
  return scratch_[k];
}

bool LatencyGovernor::Record(float us) {
  window_[next_] = us;
  next_ = (next_ + 1) % window_.size();
  ++on_rung_;
  if (options_.budget_us <= 0 || ladder_.size() < 2) return false;

  const uint64_t window = window_.size();
  const bool enough_to_judge = on_rung_ >= window / 4;
  if (!enough_to_judge) return false;
  const float p90 = WindowQuantile(kWindowQuantile);
  const int last = static_cast<int>(ladder_.size()) - 1;

  if (p90 > options_.budget_us && rung_ < last) {
    if (probing_ && on_rung_ <= window) {  // the step up did not hold: wait longer next time
      backoff_windows_ = std::min(backoff_windows_ * 2, kMaxBackoffWindows);
    }
    probing_ = false;
    MoveTo(rung_ + 1);
    return true;
  }
  if (probing_ && on_rung_ >= window) {  // the rung held a full window after a step up
    probing_ = false;
    backoff_windows_ = 1;
  }
  if (rung_ > 0 && on_rung_ >= window * static_cast<uint64_t>(backoff_windows_) &&
      p90 < options_.step_up_fraction * options_.budget_us) {
    probing_ = true;
    MoveTo(rung_ - 1);
    return true;
  }
  return false;
}

}  // namespace keydecide
