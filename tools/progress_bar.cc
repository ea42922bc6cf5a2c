#include "tools/progress_bar.h"

#include <unistd.h>

#include <cstdio>

namespace keydecide {

ProgressBar::ProgressBar(std::string label, uint64_t total)
    : label_(std::move(label)),
      total_(total),
      enabled_(isatty(STDERR_FILENO) == 1 && total > 0),
      start_(std::chrono::steady_clock::now()),
      last_draw_(start_) {}

ProgressBar::~ProgressBar() {
  if (!enabled_) return;
  Draw(last_done_);
  std::fputc('\n', stderr);
}

void ProgressBar::Update(uint64_t done) {
  last_done_ = done;
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_draw_ < std::chrono::milliseconds(100)) return;
  last_draw_ = now;
  Draw(done);
}

void ProgressBar::Draw(uint64_t done) {
  constexpr int kWidth = 30;
  const double frac = total_ ? static_cast<double>(done) / static_cast<double>(total_) : 1.0;
  const int filled = static_cast<int>(frac * kWidth + 0.5);
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  std::fprintf(stderr, "\r%s [%.*s%*s] %5.1f%% %.1fs", label_.c_str(), filled,
               "##############################", kWidth - filled, "", frac * 100.0, secs);
  std::fflush(stderr);
}

}  // namespace keydecide
