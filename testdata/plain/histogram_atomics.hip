// 256-bin histogram: per-block bins in shared memory with atomics, merged
// into the global histogram at the end.
#include <hip/hip_runtime.h>

#define NUM_BINS 256

__global__ void histogram256(const unsigned char *data, unsigned int *hist, int n) {
  __shared__ unsigned int local_hist[NUM_BINS];
  int tid = threadIdx.x;
  for (int b = tid; b < NUM_BINS; b += blockDim.x)
    local_hist[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + tid; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&local_hist[data[i]], 1u);
  __syncthreads();
  for (int b = tid; b < NUM_BINS; b += blockDim.x)
    atomicAdd(&hist[b], local_hist[b]);
}
