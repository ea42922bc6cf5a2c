#include "model/kernels/targets.h"

#include <atomic>
#include <cctype>
#include <cstdlib>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
#if defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
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
std::atomic<ArmInt8> g_arm_int8{CpuArmInt8()};

constexpr std::string_view kAvxVnni = "avxvnni";

bool IsAvx2(int64_t target) {
#if HWY_ARCH_X86
  return target == HWY_AVX2;
#else
  (void)target;
  return false;
#endif
}

bool IsNeon(int64_t target) {
#if HWY_ARCH_ARM_A64
  return target == HWY_NEON;
#else
  (void)target;
  return false;
#endif
}

// A Highway target's int8 kernels: its own, or other ones under a pseudo-target's name.
struct Flavour {
  std::string name;
  bool avx_vnni;
  ArmInt8 arm;
};

// The flavours of `target` this CPU runs, best first; the target's own name last.
std::vector<Flavour> FlavoursOf(int64_t target) {
  std::vector<Flavour> out;
  if (IsAvx2(target) && CpuHasAvxVnni()) {
    out.push_back({std::string(kAvxVnni), true, ArmInt8::kPortable});
  }
  if (IsNeon(target) && CpuArmInt8() >= ArmInt8::kI8mm) {
    out.push_back({"neon_i8mm", false, ArmInt8::kI8mm});
  }
  if (IsNeon(target) && CpuArmInt8() >= ArmInt8::kDotprod) {
    out.push_back({"neon_dotprod", false, ArmInt8::kDotprod});
  }
  out.push_back({Lower(hwy::TargetName(target)), false, ArmInt8::kPortable});
  return out;
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

ArmInt8 CpuArmInt8() {
#if defined(__aarch64__) && defined(__linux__)
  // Bits of AT_HWCAP and AT_HWCAP2 (Linux arch/arm64/include/uapi/asm/hwcap.h), spelled out
  // for C libraries whose headers predate them.
  constexpr unsigned long kHwcapAsimdDp = 1UL << 20, kHwcap2I8mm = 1UL << 13;
  if ((getauxval(AT_HWCAP) & kHwcapAsimdDp) == 0) return ArmInt8::kPortable;
  return (getauxval(AT_HWCAP2) & kHwcap2I8mm) != 0 ? ArmInt8::kI8mm : ArmInt8::kDotprod;
#else
  return ArmInt8::kPortable;
#endif
}

ArmInt8 UseArmInt8() { return g_arm_int8.load(std::memory_order_relaxed); }

std::vector<std::string> AvailableTargets() {
  const int64_t mask = CompiledAndSupported();
  if (g_forced != 0) hwy::SetSupportedTargetsForTest(g_forced);
  std::vector<std::string> names;
  for (int64_t t = mask; t != 0; t &= t - 1) {
    for (Flavour& f : FlavoursOf(t & -t)) names.push_back(std::move(f.name));
  }
  return names;
}

std::string ActiveTarget() {
  const int64_t mask = hwy::SupportedTargets() & HWY_TARGETS;
  // The pseudo-target whose int8 kernels run now, else the target's own name.
  std::vector<Flavour> flavours = FlavoursOf(mask & -mask);
  for (Flavour& f : flavours) {
    if (f.avx_vnni == UseAvxVnni() && f.arm == UseArmInt8()) return std::move(f.name);
  }
  return std::move(flavours.back().name);
}

Status ForceTarget(std::string_view name) {
  const int64_t mask = CompiledAndSupported();
  g_forced = 0;
  g_avx_vnni = CpuHasAvxVnni();
  g_arm_int8 = CpuArmInt8();
  const std::string want = Lower(name);
  if (want.empty() || want == "best") return Status::OK();
  std::string names;
  for (int64_t t = mask; t != 0; t &= t - 1) {
    const int64_t target = t & -t;
    for (const Flavour& f : FlavoursOf(target)) {
      if (f.name == want) {
        g_forced = target;
        g_avx_vnni = f.avx_vnni;
        g_arm_int8 = f.arm;
        hwy::SetSupportedTargetsForTest(target);
        return Status::OK();
      }
      names += (names.empty() ? "" : ", ") + f.name;
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
