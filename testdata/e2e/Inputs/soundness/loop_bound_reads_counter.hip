// A for loop's bound is evaluated once per test: a bound that reads the
// counter (`k < k + chunk`, always true until it overflows) or a variable
// the body assigns is no canonical bound. The soundness fuzzer's
// splitk_gemm mutant (k0 -> k in the bound) was proven with the bound taken
// as k0 + chunk; it runs past K and faults.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

// Wrong: the bound reads the counter.
__global__ void boundReadsCounter(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                                  float *Y AVE_TAG("Y(r < R) = r"), int R, int C) {
#pragma ave launch block(64) grid(R / 64)
#pragma ave assume R % 64 == 0 && R <= 32768 && C >= 1 && C <= 32768
  int r = blockIdx.x * 64 + threadIdx.x;
  int c0 = 0;
  float s = 0.0f;
  for (int c = c0; c < c + C; ++c)
    s += X[r * C + c];
  Y[r] = s;
}

// Correct twin: the bound reads the start.
__global__ void boundReadsStart(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                                float *Y AVE_TAG("Y(r < R) = r"), int R, int C) {
#pragma ave launch block(64) grid(R / 64)
#pragma ave assume R % 64 == 0 && R <= 32768 && C >= 1 && C <= 32768
  int r = blockIdx.x * 64 + threadIdx.x;
  int c0 = 0;
  float s = 0.0f;
  for (int c = c0; c < c0 + C; ++c)
    s += X[r * C + c];
  Y[r] = s;
}
