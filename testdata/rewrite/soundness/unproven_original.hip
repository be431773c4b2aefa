// The write goes through a conditional lvalue, which the analysis does not
// log: the assertion is unproven on the original. A rewrite of this kernel
// cannot be shown to keep it, so it is refused unless --allow-unproven; and
// even then the lds-pairing proof fails, naming the access the analysis did
// not follow.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

__global__ void unproven_original(const float *in AVE_TAG("X(r < R, c < C) = r * C + c"),
                                  float *out AVE_TAG("X(c < C, r < R) = c * R + r"), int R,
                                  int C) {
#pragma ave launch block(32, 32) grid(C / 32, R / 32)
#pragma ave assume R % 32 == 0 && C % 32 == 0 && R >= 32 && C >= 32
  __shared__ float tile[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  (ty < 32 ? tile[ty][tx] : tile[0][tx]) = in[(blockIdx.y * 32 + ty) * C + blockIdx.x * 32 + tx];
  __syncthreads();
  float v = tile[tx][ty];
#pragma ave assert tag(v) == X(blockIdx.y * 32 + tx, blockIdx.x * 32 + ty)
  out[(blockIdx.x * 32 + ty) * R + blockIdx.y * 32 + tx] = v;
}
