// HIP half precision on CUDA: HIP's __half/__half2 and their intrinsics
// (__float2half, __hadd, __hmul, ...) have the same names in cuda_fp16.h.
#pragma once

#if !defined(__CUDACC__)
#error "ave hip_on_cuda: compile with nvcc -x cu (this header maps HIP onto the CUDA runtime)"
#endif

#include <cuda_fp16.h>
