// HIP bfloat16 on CUDA: HIP names the type __hip_bfloat16 (and the pair
// __hip_bfloat162); CUDA calls them __nv_bfloat16 / __nv_bfloat162. The
// conversion intrinsics (__float2bfloat16, __bfloat162float) share names.
#pragma once

#if !defined(__CUDACC__)
#error "ave hip_on_cuda: compile with nvcc -x cu (this header maps HIP onto the CUDA runtime)"
#endif

#include <cuda_bf16.h>

using __hip_bfloat16 = __nv_bfloat16;
using __hip_bfloat162 = __nv_bfloat162;
