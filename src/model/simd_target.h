// The instruction set the model's kernels run on, for the layers above src/model (which know
// the model through its headers, not its kernels). KEYDECIDE_SIMD=<name> forces one
// (model/kernels/targets.h lists the names).

#ifndef KEYDECIDE_MODEL_SIMD_TARGET_H_
#define KEYDECIDE_MODEL_SIMD_TARGET_H_

#include <string>

#include "keydecide/status.h"

namespace keydecide {

// Applies KEYDECIDE_SIMD if set (the first call decides; later calls return its result).
// InvalidArgument naming the available targets when it names none of them.
Status SelectSimdTarget();
// The target the kernels dispatch to now, e.g. "avx2".
std::string SimdTargetName();

}  // namespace keydecide

#endif  // KEYDECIDE_MODEL_SIMD_TARGET_H_
