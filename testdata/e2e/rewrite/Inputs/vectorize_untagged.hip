#include <ave/annotations.h>
#include <hip/hip_runtime.h>

// Untagged: copies rows of X (with a one-float header per row) into Y. A
// float4 at X + r * (C + 4) + 1 + c0 is never 16-byte aligned, and without
// a tag nothing puts X's alignment to the solver.
__global__ void copy_hdr(const float *X, float *Y, int R, int C) {
#pragma ave launch block(64) grid(C / 256, R)
#pragma ave assume C % 256 == 0 && R >= 1 && C <= 32768 && R <= 32768
  const int r = blockIdx.y;
  const int c0 = (blockIdx.x * 64 + threadIdx.x) * 4;
  float v[4];
  for (int j = 0; j < 4; ++j)
    v[j] = X[r * (C + 4) + 1 + c0 + j];
  for (int j = 0; j < 4; ++j)
    Y[r * C + c0 + j] = v[j];
}

// Tagged, aligned rows: vectorized, and the alignment is proven.
__global__ void copy_rows(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                          float *Y AVE_TAG("X(r < R, c < C) = r * C + c"), int R, int C) {
#pragma ave launch block(64) grid(C / 256, R)
#pragma ave assume C % 256 == 0 && R >= 1 && C <= 32768 && R <= 32768
  const int r = blockIdx.y;
  const int c0 = (blockIdx.x * 64 + threadIdx.x) * 4;
  float v[4];
  for (int j = 0; j < 4; ++j)
    v[j] = X[r * C + c0 + j];
  for (int j = 0; j < 4; ++j)
    Y[r * C + c0 + j] = v[j];
}
