// Work-efficient (Blelloch) exclusive scan of one block of 2*BLOCK elements.
#include <hip/hip_runtime.h>

#define BLOCK 128

__global__ void scan_blelloch(const float *in, float *out, int n) {
  __shared__ float temp[2 * BLOCK];
  int thid = threadIdx.x;
  int base = blockIdx.x * 2 * BLOCK;
  temp[2 * thid] = base + 2 * thid < n ? in[base + 2 * thid] : 0.0f;
  temp[2 * thid + 1] = base + 2 * thid + 1 < n ? in[base + 2 * thid + 1] : 0.0f;
  int offset = 1;
  for (int d = BLOCK; d > 0; d >>= 1) {
    __syncthreads();
    if (thid < d) {
      int ai = offset * (2 * thid + 1) - 1;
      int bi = offset * (2 * thid + 2) - 1;
      temp[bi] += temp[ai];
    }
    offset *= 2;
  }
  if (thid == 0)
    temp[2 * BLOCK - 1] = 0.0f;
  for (int d = 1; d < 2 * BLOCK; d *= 2) {
    offset >>= 1;
    __syncthreads();
    if (thid < d) {
      int ai = offset * (2 * thid + 1) - 1;
      int bi = offset * (2 * thid + 2) - 1;
      float t = temp[ai];
      temp[ai] = temp[bi];
      temp[bi] += t;
    }
  }
  __syncthreads();
  if (base + 2 * thid < n)
    out[base + 2 * thid] = temp[2 * thid];
  if (base + 2 * thid + 1 < n)
    out[base + 2 * thid + 1] = temp[2 * thid + 1];
}
