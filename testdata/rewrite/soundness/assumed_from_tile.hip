// w is computed from a value read through the tile, and its tag is assumed
// rather than derived. A rewrite that moved the tile's elements wrongly would
// keep every proof built on the assumption; so the assumption is re-proven
// as an assertion on the patched kernel (the assumptions stage).
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

__global__ void assumed_from_tile(const float *in AVE_TAG("X(r < R, c < C) = r * C + c"),
                                  float *out AVE_TAG("X(c < C, r < R) = c * R + r"), int R,
                                  int C) {
#pragma ave launch block(32, 32) grid(C / 32, R / 32)
#pragma ave assume R % 32 == 0 && C % 32 == 0 && R >= 32 && C >= 32
  __shared__ float tile[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  tile[ty][tx] = in[(blockIdx.y * 32 + ty) * C + blockIdx.x * 32 + tx];
  __syncthreads();
  float v = tile[tx][ty];
  float w = v * 2.0f;
#pragma ave assume tag(w) == X(blockIdx.y * 32 + tx, blockIdx.x * 32 + ty)
  out[(blockIdx.x * 32 + ty) * R + blockIdx.y * 32 + tx] = w;
}
