// Which SIMD target the kernels dispatch to. By default the best one this CPU supports;
// KEYDECIDE_SIMD=<name> (e.g. avx3_dl, avx3, avxvnni, avx2, sse4, scalar, neon, sve) forces
// one so every path can be run and tested on one machine.
//
// The names are Highway's targets plus "avxvnni": Highway's AVX2 target whose int8 kernels
// use AVX-VNNI (vpdpbusd on 256-bit registers), listed just before "avx2" on CPUs that
// have it. "avx2" forced on such a CPU runs the plain AVX2 int8 kernels.
//
// On 64-bit Arm, "neon_i8mm" and "neon_dotprod" are Highway's NEON target whose int8 kernels
// (matmul_q8_arm.h) use smmla (FEAT_I8MM; its matrix-vector products use sdot) and sdot
// (FEAT_DotProd), listed just before "neon" on CPUs that have them. "neon" forced runs
// Highway's portable int8 path (widening to int16), and so does any other Arm target forced
// ("sve", "sve2", ...); unforced, every Arm target uses the best int8 kernels of the CPU.

#ifndef KEYDECIDE_MODEL_KERNELS_TARGETS_H_
#define KEYDECIDE_MODEL_KERNELS_TARGETS_H_

#include <string>
#include <string_view>
#include <vector>

#include "keydecide/status.h"

namespace keydecide::kernels {

// Lower-case names of the targets compiled in that this CPU runs, best first.
std::vector<std::string> AvailableTargets();
// The target kernels dispatch to now.
std::string ActiveTarget();
// Dispatches to `name` (case-insensitive) from now on; "" or "best" restores the default.
// InvalidArgument naming the available targets when `name` is not one of them.
// Not thread-safe with running kernels: call at start-up (or between tests).
Status ForceTarget(std::string_view name);
// Applies KEYDECIDE_SIMD if set (first call only; later calls return the first result).
Status ApplyTargetFromEnvironment();

// Whether the CPU has AVX-VNNI (CPUID.(EAX=7,ECX=1):EAX[4]); false off x86.
bool CpuHasAvxVnni();
// Whether the int8 kernels of the AVX2 and AVX-512 (non-VNNI) targets use AVX-VNNI now:
// the CPU has it and neither "avx2" nor "avx3" was forced. Read by the kernels.
bool UseAvxVnni();

// The int8 kernels of the Arm targets, each needing the ones before it.
enum class ArmInt8 { kPortable, kDotprod, kI8mm };
// The best the CPU has (Linux getauxval: HWCAP_ASIMDDP, HWCAP2_I8MM); kPortable off Arm.
ArmInt8 CpuArmInt8();
// The ones the Arm targets use now: CpuArmInt8() unless a target was forced (then the one the
// forced name says). Read by the kernels.
ArmInt8 UseArmInt8();

}  // namespace keydecide::kernels

#endif  // KEYDECIDE_MODEL_KERNELS_TARGETS_H_
