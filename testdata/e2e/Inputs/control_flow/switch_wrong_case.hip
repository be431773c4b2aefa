// Seeded bug: case 2 reads the neighbouring column.
// (threadIdx.x % 4 == 2 reads column c ^ 1.)
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

__global__ void switch_select(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                              float *Y AVE_TAG("Y(r < R, c < C) = r * C + c"), int R, int C) {
#pragma ave launch block(64) grid(C / 64, R)
#pragma ave assume C % 64 == 0 && C <= 32768 && R <= 32768
  int r = blockIdx.y;
  int c = blockIdx.x * 64 + threadIdx.x;
  float v = 0.0f;
  switch (threadIdx.x % 4) {
  case 0:
  case 1:
    v = X[r * C + c];
    break;
  case 2:
    v = X[r * C + (c ^ 1)];
    break;
  default:
    v = X[r * C + (c | 0)];
  }
#pragma ave assert tag(v) == X(r, c)
  Y[r * C + c] = v;
}
