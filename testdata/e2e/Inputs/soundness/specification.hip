// Assumptions no launch satisfies would prove anything: they are an error.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

__global__ void zeroBlock(const float *X AVE_TAG("X(i < N) = i"), float *Y AVE_TAG("Y(i < N) = i"),
                          int N) {
#pragma ave launch block(0) grid(N)
  Y[blockIdx.x * blockDim.x + threadIdx.x + 1] = X[blockIdx.x * blockDim.x + threadIdx.x];
}

__global__ void hugeBlock(const float *X AVE_TAG("X(i < N) = i"), float *Y AVE_TAG("Y(i < N) = i"),
                          int N) {
#pragma ave launch block(2000000000, 2000000000) grid(N)
  Y[blockIdx.x * blockDim.x + threadIdx.x + 1] = X[blockIdx.x * blockDim.x + threadIdx.x];
}

__global__ void tooManyThreads(const float *X AVE_TAG("X(i < N) = i"),
                               float *Y AVE_TAG("Y(i < N) = i"), int N) {
#pragma ave launch block(64, 64) grid(N / 4096)
  Y[blockIdx.x * 4096 + threadIdx.y * 64 + threadIdx.x + 1] =
      X[blockIdx.x * 4096 + threadIdx.y * 64 + threadIdx.x];
}

__global__ void contradictoryAssume(const float *X AVE_TAG("X(i < N) = i"),
                                    float *Y AVE_TAG("Y(i < N) = i"), int N) {
#pragma ave launch block(64) grid(N / 64)
#pragma ave assume N > 10 && N < 5
  Y[blockIdx.x * 64 + threadIdx.x + 1] = X[blockIdx.x * 64 + threadIdx.x];
}
