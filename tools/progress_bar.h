// ProgressBar: a one-line progress indicator on stderr, drawn only when stderr is a
// terminal (so logs and pipes stay clean).

#ifndef KEYDECIDE_TOOLS_PROGRESS_BAR_H_
#define KEYDECIDE_TOOLS_PROGRESS_BAR_H_

#include <chrono>
#include <cstdint>
#include <string>

namespace keydecide {

class ProgressBar {
 public:
  ProgressBar(std::string label, uint64_t total);
  ~ProgressBar();  // finishes the line

  // Redraws at most ~10 times a second.
  void Update(uint64_t done);

 private:
  void Draw(uint64_t done);

  std::string label_;
  uint64_t total_;
  bool enabled_;
  std::chrono::steady_clock::time_point start_, last_draw_;
  uint64_t last_done_ = 0;
};

}  // namespace keydecide

#endif  // KEYDECIDE_TOOLS_PROGRESS_BAR_H_
