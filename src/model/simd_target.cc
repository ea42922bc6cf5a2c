#include "model/simd_target.h"

#include "model/kernels/targets.h"

namespace keydecide {

Status SelectSimdTarget() { return kernels::ApplyTargetFromEnvironment(); }

std::string SimdTargetName() { return kernels::ActiveTarget(); }

}  // namespace keydecide
