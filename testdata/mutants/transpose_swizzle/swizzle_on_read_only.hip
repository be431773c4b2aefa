// MUTANT-OF: ../../transpose_swizzle.hip
// EXPECT: tag-mismatch line 25
// Seeded bug: the write drops the XOR swizzle the read applies.
// Matrix transpose out = in^T through a 32x32 LDS tile with an XOR swizzle:
// element (row, col) of the tile lives at tile[row][col ^ row] on both the
// write and the read side, so the column read hits 32 different banks. The
// verified result of the lds-swizzle rewrite on transpose_lds.hip.
// Launch: block(32, 32), grid(C / 32, R / 32).
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

__global__ void transpose_swizzle(const float *in AVE_TAG("X(r < R, c < C) = r * C + c"),
                                  float *out AVE_TAG("X(c < C, r < R) = c * R + r"), int R, int C) {
#pragma ave launch block(32, 32) grid(C / 32, R / 32)
#pragma ave assume R % 32 == 0 && C % 32 == 0 && R >= 32 && C >= 32 && C <= 32768 && R <= 32768
  __shared__ float tile[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  int r = blockIdx.y * 32 + ty;
  int c = blockIdx.x * 32 + tx;
  tile[ty][tx] = in[r * C + c]; // MUTATION: the write drops the XOR swizzle the read applies
  __syncthreads();
  int out_c = blockIdx.x * 32 + ty;
  int out_r = blockIdx.y * 32 + tx;
  float v = tile[tx][ty ^ tx];
#pragma ave assert tag(v) == X(out_r, out_c)
  out[out_c * R + out_r] = v;
}
