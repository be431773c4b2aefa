// A loop written with a backward goto: not a for/while/do statement, so
// the checker says it cannot follow it instead of guessing.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

__global__ void goto_loop(const float *X AVE_TAG("X(i < N) = i"), float *Y AVE_TAG("Y(i < N) = i"),
                          int N) {
#pragma ave launch block(128)
  int i = blockIdx.x * 128 + threadIdx.x;
again:
  if (i < N) {
    Y[i] = X[i];
    i += 128 * gridDim.x;
    goto again;
  }
}
