// threadIdx & co as the analysis recognises them, without the HIP headers:
// prepended (after ann::test::MinimalPrelude) to the kernels the invariants
// tests parse.
#pragma once

namespace ave::inv::test {

inline constexpr const char *DeviceBuiltins = R"cu(
struct AveDim3 { unsigned x, y, z; };
extern __device__ const AveDim3 threadIdx, blockIdx, blockDim, gridDim;
#define __syncthreads() __builtin_amdgcn_s_barrier()
)cu";

} // namespace ave::inv::test
