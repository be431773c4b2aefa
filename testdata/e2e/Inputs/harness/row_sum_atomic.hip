// A row sum that accumulates into its output: each thread adds one element
// of X to its row's Y with atomicAdd. Correct only when Y starts at zero:
// the bench bundle needs --output-init zero (harness_kernels.test).
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

__global__ void row_sum_atomic(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                               float *Y AVE_TAG("Y(r < R) = r"), int R, int C) {
#pragma ave launch block(64) grid(C / 64, R)
#pragma ave assume C % 64 == 0 && C >= 64 && C <= 32768 && R <= 32768
  int r = blockIdx.y, c = blockIdx.x * 64 + threadIdx.x;
  atomicAdd(&Y[r], X[r * C + c]);
}
