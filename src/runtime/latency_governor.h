// LatencyGovernor: chooses the rung of the tier ladder (decision.h, Tier) from the
// latencies of recent decisions. Steps down one rung when the moving window's P90 breaks
// the budget, and back up when a full window stays well inside it; a rung that breaks the
// budget right after a step up is retried only after a doubled wait (GovernorOptions).
//
// Thread-safety: none; the Runtime guards it with a mutex. Record does not allocate.

#ifndef KEYDECIDE_RUNTIME_LATENCY_GOVERNOR_H_
#define KEYDECIDE_RUNTIME_LATENCY_GOVERNOR_H_

#include <cstdint>
#include <vector>

#include "keydecide/decision.h"
#include "keydecide/runtime.h"

namespace keydecide {

class LatencyGovernor {
 public:
  static constexpr int kMaxBackoffWindows = 64;

  // `ladder`: the rungs the engine can serve, costliest first. REQUIRES: not empty.
  LatencyGovernor(const GovernorOptions& options, std::vector<Tier> ladder);

  Tier tier() const { return ladder_[rung_]; }

  // Records the latency of one decision served on tier(). Returns true when tier() changed.
  bool Record(float us);

  // The q-quantile (0..1) of the samples in the window on the current rung; 0 when none.
  float WindowQuantile(float q) const;

  uint64_t changes() const { return changes_; }
  int backoff_windows() const { return backoff_windows_; }

 private:
  void MoveTo(int rung);

  GovernorOptions options_;
  std::vector<Tier> ladder_;
  int rung_ = 0;
  std::vector<float> window_;  // ring buffer of the latest samples on this rung
  size_t next_ = 0;
  uint64_t on_rung_ = 0;     // samples recorded since the rung changed
  bool probing_ = false;     // this rung was entered by a step up
  int backoff_windows_ = 1;  // full windows to wait before a step up
  mutable std::vector<float> scratch_;
  uint64_t changes_ = 0;
};

}  // namespace keydecide

#endif  // KEYDECIDE_RUNTIME_LATENCY_GOVERNOR_H_
