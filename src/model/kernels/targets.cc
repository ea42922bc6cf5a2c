#include "model/kernels/targets.h"

#include <cctype>
#include <cstdlib>

#include "hwy/highway.h"
#include "hwy/targets.h"

namespace keydecide::kernels {

namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Targets compiled into the kernels that the CPU supports, ignoring any forced choice.
// Bits of better targets are lower (hwy/detect_targets.h).
int64_t CompiledAndSupported() {
  hwy::SetSupportedTargetsForTest(0);
  return hwy::SupportedTargets() & HWY_TARGETS;
}

int64_t g_forced = 0;

}  // namespace

std::vector<std::string> AvailableTargets() {
  const int64_t mask = CompiledAndSupported();
  if (g_forced != 0) hwy::SetSupportedTargetsForTest(g_forced);
  std::vector<std::string> names;
  for (int64_t t = mask; t != 0; t &= t - 1) names.push_back(Lower(hwy::TargetName(t & -t)));
  return names;
}

std::string ActiveTarget() {
  const int64_t mask = hwy::SupportedTargets() & HWY_TARGETS;
  return Lower(hwy::TargetName(mask & -mask));
}

Status ForceTarget(std::string_view name) {
  const int64_t mask = CompiledAndSupported();
  g_forced = 0;
  const std::string want = Lower(name);
  if (want.empty() || want == "best") return Status::OK();
  std::string names;
  for (int64_t t = mask; t != 0; t &= t - 1) {
    const int64_t target = t & -t;
    if (Lower(hwy::TargetName(target)) == want) {
      g_forced = target;
      hwy::SetSupportedTargetsForTest(target);
      return Status::OK();
    }
    names += (names.empty() ? "" : ", ") + Lower(hwy::TargetName(target));
  }
  return Status::InvalidArgument("SIMD target '" + std::string(name) +
                                 "' is not available here (available: " + names + ")");
}

Status ApplyTargetFromEnvironment() {
  static const Status status = [] {
    const char* env = std::getenv("KEYDECIDE_SIMD");
    if (env == nullptr) return Status::OK();
    return ForceTarget(env).Annotated("KEYDECIDE_SIMD");
  }();
  return status;
}

}  // namespace keydecide::kernels
