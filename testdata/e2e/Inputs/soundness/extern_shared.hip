// Two extern __shared__ arrays are one buffer: the write to b overwrites
// what a[t] holds, so the kernel stores Z, not X. The twin
// with one extern array proves.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

__global__ void aliased(const float *X AVE_TAG("X(i < N) = i"), const float *Z AVE_TAG("Z(i < N) = i"),
                        float *Y AVE_TAG("Y(i < N) = i"), int N) {
#pragma ave launch block(64) grid(N / 64) shared(64 * 4)
#pragma ave assume N % 64 == 0
  extern __shared__ float a[];
  extern __shared__ float b[];
  int t = threadIdx.x, i = blockIdx.x * 64 + t;
  a[t] = X[i];
  b[t] = Z[i];
  __syncthreads();
  Y[i] = a[t];
}

__global__ void single(const float *X AVE_TAG("X(i < N) = i"), float *Y AVE_TAG("Y(i < N) = i"),
                       int N) {
#pragma ave launch block(64) grid(N / 64) shared(64 * 4)
#pragma ave assume N % 64 == 0
  extern __shared__ float a[];
  int t = threadIdx.x, i = blockIdx.x * 64 + t;
  a[t] = X[i];
  __syncthreads();
  Y[i] = a[t];
}
