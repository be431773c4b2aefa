#include <ave/annotations.h>
#include <hip/hip_runtime.h>
template <int TILE, typename T>
__global__ void scale(const T *X AVE_TAG("X(i < N) = i"), T *Y AVE_TAG("Y(i < N) = i"), int N) {
#pragma ave launch block(TILE) grid(N / TILE)
#pragma ave assume N % TILE == 0
  __shared__ T buf[TILE];
  int i = blockIdx.x * TILE + threadIdx.x;
  buf[threadIdx.x] = X[i] * T(1);
  __syncthreads();
  Y[i] = buf[threadIdx.x];
}
template __global__ void scale<64, float>(const float *, float *, int);
