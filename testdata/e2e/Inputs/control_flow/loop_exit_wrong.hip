#include <ave/annotations.h>
#include <hip/hip_runtime.h>

// Seeded bug: the value that leaves through the break is the neighbour's.
__global__ void break_carries_value(const float *X AVE_TAG("X(i < N) = i"),
                                    float *Y AVE_TAG("Y(i < N) = i"), int N, int mode) {
#pragma ave launch block(64) grid(N / 64)
#pragma ave assume N % 64 == 0
  int i = blockIdx.x * 64 + threadIdx.x;
  float v = 0.0f;
  while (true) {
    if (mode > 3) {
      v = X[i];
      break;
    }
    v = X[(i + 1) % N]; // the neighbour
    break;
  }
  Y[i] = v;
}

