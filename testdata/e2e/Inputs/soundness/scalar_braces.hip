// Scalars initialised with braces: `float acc = {}` is zero, `int start = {1}`
// is 1 (both were expressions the analysis did not model: unproven). The
// second kernel skips column 0 and is violated.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

__global__ void rowSums(const float *X AVE_TAG("X(r < R, c < 64) = r * 64 + c"),
                        float *Y AVE_TAG("Y(r < R) = r"), int R) {
#pragma ave launch block(64) grid(R / 64)
#pragma ave assume R % 64 == 0 && R >= 64 && R <= 65536
  int r = blockIdx.x * 64 + threadIdx.x;
  float acc = {};
  int start{0};
  for (int c = start; c < 64; ++c)
    acc += X[r * 64 + c];
  Y[r] = acc;
}

__global__ void rowSumsFromOne(const float *X AVE_TAG("X(r < R, c < 64) = r * 64 + c"),
                               float *Y AVE_TAG("Y(r < R) = r"), int R) {
#pragma ave launch block(64) grid(R / 64)
#pragma ave assume R % 64 == 0 && R >= 64 && R <= 65536
  int r = blockIdx.x * 64 + threadIdx.x;
  float acc = {};
  int start = {1};
  for (int c = start; c < 64; ++c)
    acc += X[r * 64 + c];
  Y[r] = acc;
}
