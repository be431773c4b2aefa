// Seeded bug: the path that jumps out of the loop with goto carries the
// neighbour's element to the store (the walk used to drop that path).
#include <ave/annotations.h>
#include <hip/hip_runtime.h>
__global__ void goto_out_wrong(const float *X AVE_TAG("X(i < N) = i"), float *Y AVE_TAG("Y(i < N) = i"), int N, int mode) {
#pragma ave launch block(64) grid(N / 64)
  int i = blockIdx.x * 64 + threadIdx.x;
  float v = X[i];
  for (int q = 0; q < 4; ++q) {
    if (mode == q) {
      v = X[(i + 1) % N];
      goto done;
    }
  }
  v = v + 0.0f;
done:
  Y[i] = v;
}
