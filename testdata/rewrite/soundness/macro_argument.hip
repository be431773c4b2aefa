// STORE's argument c is both the tile's column and part of the global index:
// swizzling the column would edit the index too, so lds-swizzle refuses;
// LOAD uses each argument once, so on its own it may be edited. lds-pad
// changes only the declaration and is accepted.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

#define STORE(r, c) tile[r][c] = in[(blockIdx.y * 32 + (r)) * C + blockIdx.x * 32 + (c)]
#define LOAD(r, c) tile[r][c]

__global__ void macro_argument(const float *in AVE_TAG("X(r < R, c < C) = r * C + c"),
                               float *out AVE_TAG("X(c < C, r < R) = c * R + r"), int R, int C) {
#pragma ave launch block(32, 32) grid(C / 32, R / 32)
#pragma ave assume R % 32 == 0 && C % 32 == 0 && R >= 32 && C >= 32
  __shared__ float tile[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  STORE(ty, tx);
  __syncthreads();
  float v = LOAD(tx, ty);
#pragma ave assert tag(v) == X(blockIdx.y * 32 + tx, blockIdx.x * 32 + ty)
  out[(blockIdx.x * 32 + ty) * R + blockIdx.y * 32 + tx] = v;
}
