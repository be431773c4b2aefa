// Which callees are barriers, fences and intrinsics. Matching is by name
// because that is what survives both the HIP headers (where `__syncthreads`
// wraps `__barrier`) and uninstantiated templates (where a call may still be
// an unresolved lookup).

#include "ModelParts.h"

#include "llvm/ADT/StringSwitch.h"

namespace ave::model::detail {

std::optional<SyncKind> classifySync(llvm::StringRef Callee) {
  if (Callee.starts_with("__threadfence") || Callee == "__builtin_amdgcn_fence" ||
      Callee == "__atomic_work_item_fence")
    return SyncKind::Fence;
  if (Callee == "__syncthreads" || Callee.starts_with("__syncthreads_") ||
      Callee == "__builtin_amdgcn_s_barrier" || Callee == "__barrier" ||
      Callee == "__work_group_barrier" || Callee == "__syncwarp")
    return SyncKind::Barrier;
  return std::nullopt;
}

// Device math functions (HIP's ocml wrappers and the CUDA fast-math
// spellings) that the analysis treats as value-preserving unary/binary ops.
static bool isMathFunction(llvm::StringRef Name) {
  llvm::StringRef Base = Name;
  Base.consume_front("__builtin_");
  Base.consume_front("__");
  return llvm::StringSwitch<bool>(Base)
      .Cases("expf", "exp", "exp2f", "exp2", "exp10f", "expm1f", true)
      .Cases("logf", "log", "log2f", "log2", "log10f", "log1pf", true)
      .Cases("sqrtf", "sqrt", "rsqrtf", "rsqrt", "cbrtf", "powf", "pow", true)
      .Cases("sinf", "sin", "cosf", "cos", "tanf", "tanhf", "tanh", true)
      .Cases("fmaxf", "fmax", "fminf", "fmin", "fmaf", "fma", true)
      .Cases("fabsf", "fabs", "floorf", "ceilf", "roundf", "truncf", true)
      .Cases("erff", "erf", "fdividef", "frcp_rn", "frsqrt_rn", "fsqrt_rn", true)
      .Cases("hexp", "hexp2", "hsqrt", "hrsqrt", "hfma", "hmax", "hmin", true)
      .Default(false);
}

std::optional<IntrinsicKind> classifyIntrinsic(llvm::StringRef Callee) {
  if (Callee.empty() || classifySync(Callee))
    return std::nullopt;
  if (Callee.starts_with("__builtin_amdgcn_mfma_") ||
      Callee.starts_with("__builtin_amdgcn_smfmac_"))
    return IntrinsicKind::Mfma;
  if (Callee.starts_with("__builtin_amdgcn_"))
    return IntrinsicKind::Amdgcn;
  if (Callee.starts_with("__shfl"))
    return IntrinsicKind::Shuffle;
  if (Callee == "__ballot" || Callee == "__any" || Callee == "__all" || Callee == "__activemask" ||
      Callee == "__lane_id" || Callee.starts_with("__reduce_"))
    return IntrinsicKind::Wave;
  if (Callee.starts_with("atomic") || Callee.starts_with("__hip_atomic_") ||
      Callee.starts_with("__atomic_") || Callee.starts_with("unsafeAtomic") ||
      Callee.starts_with("safeAtomic"))
    return IntrinsicKind::Atomic;
  if (Callee == "__ldg")
    return IntrinsicKind::Load;
  if (Callee.starts_with("__builtin_nontemporal_"))
    return IntrinsicKind::Nontemporal;
  if (isMathFunction(Callee))
    return IntrinsicKind::Math;
  return std::nullopt;
}

} // namespace ave::model::detail
