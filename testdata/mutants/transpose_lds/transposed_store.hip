// MUTANT-OF: ../../transpose_lds.hip
// EXPECT: tag-mismatch line 28
// Seeded bug: the store index swaps out_r and out_c.
// Matrix transpose out = in^T through a 32x32 LDS tile without padding: the
// column read tile[tx][ty] puts all 32 lanes of a row of threads on one bank
// (a 32-way bank conflict) -- the input of the lds-pad / lds-swizzle rewrites.
// Both pointers carry tag X, so the analysis checks that out(c, r) == in(r, c).
// Launch: block(32, 32), grid(C / 32, R / 32).
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

__global__ void transpose_lds(const float *in AVE_TAG("X(r < R, c < C) = r * C + c"),
                              float *out AVE_TAG("X(c < C, r < R) = c * R + r"), int R, int C) {
#pragma ave launch block(32, 32) grid(C / 32, R / 32)
#pragma ave assume R % 32 == 0 && C % 32 == 0 && R >= 32 && C >= 32 && C <= 32768 && R <= 32768
  __shared__ float tile[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  int r = blockIdx.y * 32 + ty;
  int c = blockIdx.x * 32 + tx;
  tile[ty][tx] = in[r * C + c];
  __syncthreads();
  // Thread (tx, ty) writes row out_c, column out_r of out: consecutive tx
  // write consecutive addresses, so the tile is read down a column.
  int out_c = blockIdx.x * 32 + ty;
  int out_r = blockIdx.y * 32 + tx;
  float v = tile[tx][ty];
#pragma ave assert tag(v) == X(out_r, out_c)
  out[out_r * R + out_c] = v; // MUTATION: the store index swaps out_r and out_c
}
