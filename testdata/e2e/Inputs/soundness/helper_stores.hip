// A `__device__` helper that stores through a pointer it is given is not
// followed: its store may write any element of the output. The correct copy
// through `store_at` was violated ("an element of Y that no thread
// writes"); the copy one element late is not proven either. Executor
// (N=1000): copyThroughHelper passes, copyOneLate is rejected.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

__device__ __forceinline__ void store_at(float *p, int i, float v) { p[i] = v; }

__global__ void copyThroughHelper(const float *X AVE_TAG("X(i < N) = i"),
                                  float *Y AVE_TAG("Y(i < N) = i"), int N) {
#pragma ave launch block(256) grid((N + 255) / 256)
#pragma ave assume N >= 1 && N <= 1048576
  const int i = blockIdx.x * 256 + threadIdx.x;
  if (i < N)
    store_at(Y, i, X[i]);
}

__global__ void copyOneLate(const float *X AVE_TAG("X(i < N) = i"),
                            float *Y AVE_TAG("Y(i < N) = i"), int N) {
#pragma ave launch block(256) grid((N + 255) / 256)
#pragma ave assume N >= 1 && N <= 1048576
  const int i = blockIdx.x * 256 + threadIdx.x;
  if (i < N - 1)
    store_at(Y, i + 1, X[i]);
}
