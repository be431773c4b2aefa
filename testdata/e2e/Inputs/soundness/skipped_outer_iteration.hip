// An inner loop skipped in the first iteration of the loop around it
// (`for (t = 0; t <= nt; ++t) if (t > 0) for (k...)`): the loops run more
// often than the bound and every index is summed once. It was violated
// (more iterations than the bound) with a counterexample execution does not
// reproduce; counting only the contributing iterations is not modelled, so
// it is unproven, as the flat `if (k > 0)` form is. One tile short (t < nt)
// is unproven too (the skip question is asked per iteration; the
// obligation itself sits under `t > 0`), never proven.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

// CORRECT: row sums over tiles of 16; iteration t > 0 adds tile t - 1; the loop runs nt + 1 times.
__global__ void skip_nested_reg(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                                float *Y AVE_TAG("Y(r < R) = r"), int R, int C) {
#pragma ave launch block(64) grid(R / 64)
#pragma ave assume R % 64 == 0 && R >= 64 && C % 16 == 0 && C >= 16 && R <= 4096 && C <= 4096
  int tid = threadIdx.x, r = blockIdx.x * 64 + tid;
  int nt = C / 16;
  float acc = 0.0f;
  for (int t = 0; t <= nt; ++t) {
    if (t > 0) {
      for (int k = 0; k < 16; ++k)
        acc += X[r * C + (t - 1) * 16 + k];
    }
  }
  Y[r] = acc;
}

// CORRECT: same with an LDS stage per thread (own row of 16).
__global__ void skip_nested_lds(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                                float *Y AVE_TAG("Y(r < R) = r"), int R, int C) {
#pragma ave launch block(64) grid(R / 64)
#pragma ave assume R % 64 == 0 && R >= 64 && C % 16 == 0 && C >= 16 && R <= 4096 && C <= 4096
  __shared__ float s[64][16];
  int tid = threadIdx.x, r = blockIdx.x * 64 + tid;
  int nt = C / 16;
  float acc = 0.0f;
  for (int t = 0; t <= nt; ++t) {
    if (t > 0) {
      for (int k = 0; k < 16; ++k)
        acc += s[tid][k];
    }
    __syncthreads();
    if (t < nt)
      for (int k = 0; k < 16; ++k)
        s[tid][k] = X[r * C + t * 16 + k];
    __syncthreads();
  }
  Y[r] = acc;
}

// WRONG: the loop runs nt times and skips its first: one tile short.
__global__ void skip_nested_short(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                                  float *Y AVE_TAG("Y(r < R) = r"), int R, int C) {
#pragma ave launch block(64) grid(R / 64)
#pragma ave assume R % 64 == 0 && R >= 64 && C % 16 == 0 && C >= 16 && R <= 4096 && C <= 4096
  int tid = threadIdx.x, r = blockIdx.x * 64 + tid;
  int nt = C / 16;
  float acc = 0.0f;
  for (int t = 0; t < nt; ++t) {
    if (t > 0) {
      for (int k = 0; k < 16; ++k)
        acc += X[r * C + (t - 1) * 16 + k];
    }
  }
  Y[r] = acc;
}
