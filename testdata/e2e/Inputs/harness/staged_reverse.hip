// A copy staged through dynamic shared memory (extern __shared__): each
// block of 256 threads reverses 2048 elements (8 KiB) in the stage and back,
// so Y == X. The launch pragma gives no shared(BYTES): the bench bundle
// needs --shared-bytes (harness_kernels.test).
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

__global__ void staged_reverse(const float *X AVE_TAG("X(i < N) = i"),
                               float *Y AVE_TAG("Y(i < N) = i"), int N) {
#pragma ave launch block(256) grid(N / 2048)
#pragma ave assume N % 2048 == 0 && N >= 2048
  extern __shared__ float stage[];
  int t = threadIdx.x, base = blockIdx.x * 2048;
  for (int l = 0; l < 8; ++l)
    stage[2047 - (t + l * 256)] = X[base + t + l * 256];
  __syncthreads();
  for (int l = 0; l < 8; ++l)
    Y[base + 2047 - (t + l * 256)] = stage[t + l * 256];
}
