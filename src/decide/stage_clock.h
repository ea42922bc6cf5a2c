// Timing of the per-keystroke stages (Decision::timings). Internal to src/decide.

#ifndef KEYDECIDE_DECIDE_STAGE_CLOCK_H_
#define KEYDECIDE_DECIDE_STAGE_CLOCK_H_

#include <chrono>

namespace keydecide {

using Clock = std::chrono::steady_clock;

// Microseconds since *t; moves *t to now (one call per pipeline stage).
inline float MicrosSince(Clock::time_point* t) {
  const Clock::time_point now = Clock::now();
  const float us = std::chrono::duration<float, std::micro>(now - *t).count();
  *t = now;
  return us;
}

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_STAGE_CLOCK_H_
