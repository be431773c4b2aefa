// HIP's mask-less warp shuffles and votes for nvcc: `__shfl`, `__shfl_up`,
// `__shfl_down`, `__shfl_xor`, `__all`, `__any`, `__ballot` and `__lane_id`.
//
// HIP kernels call these without a lane mask; CUDA (sm_70 and later) has
// only the `_sync` forms. Each HIP name maps to its `_sync` form with the
// full mask 0xffffffff, so every lane of the warp must reach the call
// together, as HIP on AMD expects of its wavefront. A kernel that calls a
// shuffle from divergent code is wrong here (on sm_70+ it may hang or read
// garbage), as it is undefined on AMD. The width argument defaults to
// warpSize (32 here, 64 on CDNA), exactly as HIP's. `__ballot` returns
// unsigned long long, as HIP's does; only its low 32 bits can be set here.
//
// CUDA itself still declares deprecated mask-less forms (`__shfl` for int,
// unsigned and float in its host pass, `extern "C" __any/__all/__ballot`
// everywhere), which compile to the pre-Volta non-`.sync` instructions. The
// HIP names are therefore object-like macros that rename every later use to
// the functions below: a later header that uses the same name for something
// else (libcu++ has a `struct __any`) is renamed consistently and still
// compiles, and the shuffle templates forward every type `__shfl_sync` takes
// (long long, double, __half, __half2, __nv_bfloat16, ...).
#pragma once

#include <cuda_runtime.h>

template <typename T>
__device__ inline T ave_hip_on_cuda_shfl(T var, int srcLane, int width = warpSize) {
  return __shfl_sync(0xffffffffu, var, srcLane, width);
}
template <typename T>
__device__ inline T ave_hip_on_cuda_shfl_up(T var, unsigned int laneDelta, int width = warpSize) {
  return __shfl_up_sync(0xffffffffu, var, laneDelta, width);
}
template <typename T>
__device__ inline T ave_hip_on_cuda_shfl_down(T var, unsigned int laneDelta, int width = warpSize) {
  return __shfl_down_sync(0xffffffffu, var, laneDelta, width);
}
template <typename T>
__device__ inline T ave_hip_on_cuda_shfl_xor(T var, int laneMask, int width = warpSize) {
  return __shfl_xor_sync(0xffffffffu, var, laneMask, width);
}
__device__ inline int ave_hip_on_cuda_all(int predicate) {
  return __all_sync(0xffffffffu, predicate);
}
__device__ inline int ave_hip_on_cuda_any(int predicate) {
  return __any_sync(0xffffffffu, predicate);
}
__device__ inline unsigned long long ave_hip_on_cuda_ballot(int predicate) {
  return __ballot_sync(0xffffffffu, predicate);
}

#define __shfl ave_hip_on_cuda_shfl
#define __shfl_up ave_hip_on_cuda_shfl_up
#define __shfl_down ave_hip_on_cuda_shfl_down
#define __shfl_xor ave_hip_on_cuda_shfl_xor
#define __all ave_hip_on_cuda_all
#define __any ave_hip_on_cuda_any
#define __ballot ave_hip_on_cuda_ballot

// The lane of the calling thread within its warp (HIP's `__lane_id()`).
__device__ inline unsigned int __lane_id() {
  unsigned int lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
}
