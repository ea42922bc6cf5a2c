#include "model/kernels/targets.h"

#include <atomic>
#include <cctype>
#include <cstdlib>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

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
// Atomic only so that kernels on worker threads may read it while a test forces targets.
std::atomic<bool> g_avx_vnni{CpuHasAvxVnni()};

constexpr std::string_view kAvxVnni = "avxvnni";

bool IsAvx2(int64_t target) {
#if HWY_ARCH_X86
  return target == HWY_AVX2;
#else
  (void)target;
  return false;
#endif
}

// The best target in `mask` (lowest bit), and the int8 flavour for it.
std::string NameOf(int64_t target, bool avx_vnni) {
  return IsAvx2(target) && avx_vnni ? std::string(kAvxVnni) : Lower(hwy::TargetName(target));
}

}  // namespace

bool CpuHasAvxVnni() {
#if defined(__x86_64__) || defined(__i386__)
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (__get_cpuid_count(7, 1, &a, &b, &c, &d) == 0) return false;
  return (a & (1u << 4)) != 0;
#else
  return false;
#endif
}

bool UseAvxVnni() { return g_avx_vnni.load(std::memory_order_relaxed); }

std::vector<std::string> AvailableTargets() {
  const int64_t mask = CompiledAndSupported();
  if (g_forced != 0) hwy::SetSupportedTargetsForTest(g_forced);
  std::vector<std::string> names;
  for (int64_t t = mask; t != 0; t &= t - 1) {
    if (IsAvx2(t & -t) && CpuHasAvxVnni()) names.emplace_back(kAvxVnni);
    names.push_back(Lower(hwy::TargetName(t & -t)));
  }
  return names;
}

std::string ActiveTarget() {
  const int64_t mask = hwy::SupportedTargets() & HWY_TARGETS;
  return NameOf(mask & -mask, UseAvxVnni());
}

Status ForceTarget(std::string_view name) {
  const int64_t mask = CompiledAndSupported();
  g_forced = 0;
  g_avx_vnni = CpuHasAvxVnni();
  const std::string want = Lower(name);
  if (want.empty() || want == "best") return Status::OK();
  std::string names;
  for (int64_t t = mask; t != 0; t &= t - 1) {
    const int64_t target = t & -t;
    for (const bool vnni : {true, false}) {
      if (vnni && !(IsAvx2(target) && CpuHasAvxVnni())) continue;
      if (NameOf(target, vnni) == want) {
        g_forced = target;
        g_avx_vnni = vnni;
        hwy::SetSupportedTargetsForTest(target);
        return Status::OK();
      }
      names += (names.empty() ? "" : ", ") + NameOf(target, vnni);
    }
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
