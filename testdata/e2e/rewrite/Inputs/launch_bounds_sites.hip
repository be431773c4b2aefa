#include <ave/annotations.h>
#include <hip/hip_runtime.h>

__global__ void scale(const float *X AVE_TAG("X(i < N) = i"), float *Y AVE_TAG("X(i < N) = i"),
                      int N) {
#pragma ave launch block(256) grid(N / 256)
#pragma ave assume N % 256 == 0 && N >= 256 && N <= 1048576
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N)
    Y[i] = X[i];
}

void launch_scale(const float *X, float *Y, int N, bool big) {
  // big problems use 512-thread blocks
  if (big)
    scale<<<N / 512, 512>>>(X, Y, N);
  else
    scale<<<N / 256, 256>>>(X, Y, N);
}

__global__ void copy(const float *X AVE_TAG("X(i < N) = i"), float *Y AVE_TAG("X(i < N) = i"),
                     int N) {
#pragma ave launch block(256) grid(N / 256)
#pragma ave assume N % 256 == 0 && N >= 256 && N <= 1048576
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  Y[i] = X[i];
}

void launch_copy(const float *X, float *Y, int N, dim3 block) {
  copy<<<N / 256, dim3(128, 2)>>>(X, Y, N);
  copy<<<N / block.x, block>>>(X, Y, N);
}
