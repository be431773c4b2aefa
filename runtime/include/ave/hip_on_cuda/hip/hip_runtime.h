// <hip/hip_runtime.h> for nvcc: the HIP host API (hip_runtime_api.h), the
// fp16/bf16 types, and the device-side spellings HIP kernels use.
//
// Use: nvcc -x cu -arch=sm_90 -I runtime/include/ave/hip_on_cuda file.hip
//
// Device side, CUDA already provides what HIP kernels here use under the same
// names: threadIdx/blockIdx/blockDim/gridDim, dim3, __syncthreads,
// __shared__, __global__, __device__, __launch_bounds__, atomicAdd, warpSize.
// HIP's mask-less warp shuffles and votes (__shfl_xor, __ballot, ...) come
// from hip_warp_functions.h, mapped to the _sync forms with a full mask.
// warpSize is 32 here and 64 on AMD CDNA (gfx9xx): kernels must read
// warpSize, never hard-code 64 (runtime/README.md). __builtin_amdgcn_* does not
// exist here; guard it with __HIP_PLATFORM_AMD__ / __AMDGCN__.
#pragma once

#include "hip_bf16.h"
#include "hip_fp16.h"
#include "hip_runtime_api.h"
#include "hip_warp_functions.h"

// HIP kernels carry tool pragmas (`#pragma ave ...` assertions for
// ave-rewrite) that nvcc does not know; its front end warns "unrecognized
// #pragma in device code" (#20199) for each. They are meant for other tools,
// so the warning is noise here.
#pragma nv_diag_suppress 20199

// hipLaunchKernelGGL(kernel, grid, block, dynamicSharedBytes, stream, args...)
// A template kernel with commas in its name needs HIP_KERNEL_NAME(...) or
// parentheses, exactly as with HIP on AMD.
#define hipLaunchKernelGGL(kernel, grid, block, sharedBytes, stream, ...)                          \
  (kernel)<<<(grid), (block), (sharedBytes), (stream)>>>(__VA_ARGS__)
#define HIP_KERNEL_NAME(...) __VA_ARGS__

// Dynamically sized LDS, HIP's spelling of `extern __shared__ T name[]`.
#define HIP_DYNAMIC_SHARED(type, name) extern __shared__ type name[];

// Pre-HIP-3 spellings of the thread coordinates, still found in older kernels.
#define hipThreadIdx_x (threadIdx.x)
#define hipThreadIdx_y (threadIdx.y)
#define hipThreadIdx_z (threadIdx.z)
#define hipBlockIdx_x (blockIdx.x)
#define hipBlockIdx_y (blockIdx.y)
#define hipBlockIdx_z (blockIdx.z)
#define hipBlockDim_x (blockDim.x)
#define hipBlockDim_y (blockDim.y)
#define hipBlockDim_z (blockDim.z)
#define hipGridDim_x (gridDim.x)
#define hipGridDim_y (gridDim.y)
#define hipGridDim_z (gridDim.z)
