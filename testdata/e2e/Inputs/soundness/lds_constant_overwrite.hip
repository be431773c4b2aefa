// A soundness hole (check_lds_constants.test): the transpose of
// testdata/transpose_lds.hip, whose threads of row 5 then store 0.0f over
// the element of the tile they staged. Wrong on the CPU executor (R=C=64:
// 128 of 4096 elements are 0), and was proven: a constant written into shared
// memory after a tagged value, by the same thread, was dropped from the
// read's join. Now the read is unknown there: unproven. (Zero first and the
// value after still proves.)
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
  if (ty == 5) tile[ty][tx] = 0.0f;
  __syncthreads();
  // Thread (tx, ty) writes row out_c, column out_r of out: consecutive tx
  // write consecutive addresses, so the tile is read down a column.
  int out_c = blockIdx.x * 32 + ty;
  int out_r = blockIdx.y * 32 + tx;
  float v = tile[tx][ty];
#pragma ave assert tag(v) == X(out_r, out_c)
  out[out_c * R + out_r] = v;
}
