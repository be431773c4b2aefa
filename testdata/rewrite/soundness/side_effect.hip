// A subscript with a side effect (w++). lds-swizzle would repeat the row in
// its XOR mask (running w++ twice), so it refuses with the location;
// lds-pad leaves the subscripts as they are, and its patch is shown
// equivalent by execution.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

__global__ void side_effect(const float *in AVE_TAG("X(r < R, c < C) = r * C + c"),
                            float *out AVE_TAG("X(c < C, r < R) = c * R + r"), int R, int C) {
#pragma ave launch block(32, 32) grid(C / 32, R / 32)
#pragma ave assume R % 32 == 0 && C % 32 == 0 && R >= 32 && C >= 32
  __shared__ float tile[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  int w = ty;
  tile[w++][tx] = in[(blockIdx.y * 32 + ty) * C + blockIdx.x * 32 + tx];
  __syncthreads();
  float v = tile[tx][w - 1];
#pragma ave assert tag(v) == X(blockIdx.y * 32 + tx, blockIdx.x * 32 + ty)
  out[(blockIdx.x * 32 + ty) * R + blockIdx.y * 32 + tx] = v;
}
