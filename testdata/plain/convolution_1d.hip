// 1-D convolution with a halo loaded into shared memory.
#include <hip/hip_runtime.h>

#define MASK_WIDTH 5
#define TILE_SIZE 256
#define HALO (MASK_WIDTH / 2)

__constant__ float d_mask[MASK_WIDTH];

__global__ void convolution1d(const float *in, float *out, int n) {
  __shared__ float tile[TILE_SIZE + MASK_WIDTH - 1];
  int tid = threadIdx.x;
  int i = blockIdx.x * TILE_SIZE + tid;
  int left = i - HALO;
  tile[tid + HALO] = i < n ? in[i] : 0.0f;
  if (tid < HALO) {
    tile[tid] = left >= 0 ? in[left] : 0.0f;
    int right = i + TILE_SIZE;
    tile[tid + TILE_SIZE + HALO] = right < n ? in[right] : 0.0f;
  }
  __syncthreads();
  float sum = 0.0f;
  for (int j = 0; j < MASK_WIDTH; ++j)
    sum += tile[tid + j] * d_mask[j];
  if (i < n)
    out[i] = sum;
}
