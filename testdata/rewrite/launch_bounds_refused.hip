// Kernels launch-bounds refuses, each with the reason, and one it bounds.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

#define THREADS 128

// No launch pragma: nothing says how many threads a block has.
__global__ void no_pragma(const float *X AVE_TAG("X(i < N) = i"), float *Y AVE_TAG("Y(i < N) = i"),
                          int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N)
    Y[i] = X[i];
}

// Bounds already given.
__launch_bounds__(64) __global__
    void bounded(const float *X AVE_TAG("X(i < N) = i"), float *Y AVE_TAG("Y(i < N) = i"), int N) {
#pragma ave launch block(64) grid(N / 64)
#pragma ave assume N % 64 == 0 && N <= 32768
  int i = blockIdx.x * 64 + threadIdx.x;
  Y[i] = X[i];
}

// A block of a named constant, 128 x 2 threads: bounded at 256.
__global__ void named(const float *X AVE_TAG("X(i < N) = i"), float *Y AVE_TAG("Y(i < N) = i"),
                      int N) {
#pragma ave launch block(THREADS, 2) grid(N / 256)
#pragma ave assume N % 256 == 0 && N <= 32768
  int i = blockIdx.x * 256 + threadIdx.y * THREADS + threadIdx.x;
  Y[i] = X[i];
}
