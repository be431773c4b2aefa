// Bitonic sort of one block of 512 keys in shared memory.
#include <hip/hip_runtime.h>

#define SORT_SIZE 512

__device__ inline void compareSwap(unsigned int &a, unsigned int &b, bool dir) {
  if ((a > b) == dir) {
    unsigned int t = a;
    a = b;
    b = t;
  }
}

__global__ void bitonicSortShared(unsigned int *keys) {
  __shared__ unsigned int s_key[SORT_SIZE];
  unsigned int tid = threadIdx.x;
  keys += blockIdx.x * SORT_SIZE;
  s_key[tid] = keys[tid];
  s_key[tid + SORT_SIZE / 2] = keys[tid + SORT_SIZE / 2];
  for (unsigned int size = 2; size <= SORT_SIZE; size <<= 1) {
    bool dir = (tid & (size / 2)) != 0;
    for (unsigned int stride = size / 2; stride > 0; stride >>= 1) {
      __syncthreads();
      unsigned int pos = 2 * tid - (tid & (stride - 1));
      compareSwap(s_key[pos], s_key[pos + stride], dir);
    }
  }
  __syncthreads();
  keys[tid] = s_key[tid];
  keys[tid + SORT_SIZE / 2] = s_key[tid + SORT_SIZE / 2];
}
