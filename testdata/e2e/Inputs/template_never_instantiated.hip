#include <ave/annotations.h>
#include <hip/hip_runtime.h>
template <int TILE>
__global__ void scale(const float *X AVE_TAG("X(i < N) = i"), float *Y AVE_TAG("Y(i < N) = i"), int N) {
#pragma ave launch block(TILE)
  int i = blockIdx.x * TILE + threadIdx.x;
  Y[i] = X[i] * 2.0f;
}
