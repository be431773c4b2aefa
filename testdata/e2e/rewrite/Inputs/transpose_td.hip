// transpose_lds with its tile size from the build: -DTD=32. A kernel that
// needs a -D flag, for the test that every stage gets the user's flags.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

__global__ void transpose_td(const float *in AVE_TAG("X(r < R, c < C) = r * C + c"),
                             float *out AVE_TAG("X(c < C, r < R) = c * R + r"), int R, int C) {
#pragma ave launch block(TD, TD) grid(C / TD, R / TD)
#pragma ave assume R % TD == 0 && C % TD == 0 && R >= TD && C >= TD && R <= 32768 && C <= 32768
  __shared__ float tile[TD][TD];
  int tx = threadIdx.x, ty = threadIdx.y;
  int r = blockIdx.y * TD + ty;
  int c = blockIdx.x * TD + tx;
  tile[ty][tx] = in[r * C + c];
  __syncthreads();
  int out_c = blockIdx.x * TD + ty;
  int out_r = blockIdx.y * TD + tx;
  float v = tile[tx][ty];
#pragma ave assert tag(v) == X(out_r, out_c)
  out[out_c * R + out_r] = v;
}
