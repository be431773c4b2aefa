// Row-wise softmax: one block per row, block-wide max and sum through
// shared memory with warp shuffles.
#include <hip/hip_runtime.h>

#define THREADS 256
#define WARPS (THREADS / 64)

__device__ float wave_max(float v) {
  for (int o = 32; o > 0; o >>= 1)
    v = fmaxf(v, __shfl_xor(v, o));
  return v;
}

__device__ float wave_sum(float v) {
  for (int o = 32; o > 0; o >>= 1)
    v += __shfl_xor(v, o);
  return v;
}

__global__ void softmax(const float *x, float *y, int cols) {
  __shared__ float red[WARPS];
  const float *row = x + blockIdx.x * cols;
  float *out = y + blockIdx.x * cols;
  int tid = threadIdx.x;
  int wave = tid / 64, lane = tid % 64;
  float m = -INFINITY;
  for (int c = tid; c < cols; c += THREADS)
    m = fmaxf(m, row[c]);
  m = wave_max(m);
  if (lane == 0)
    red[wave] = m;
  __syncthreads();
  m = red[0];
  for (int w = 1; w < WARPS; ++w)
    m = fmaxf(m, red[w]);
  __syncthreads();
  float s = 0.0f;
  for (int c = tid; c < cols; c += THREADS)
    s += expf(row[c] - m);
  s = wave_sum(s);
  if (lane == 0)
    red[wave] = s;
  __syncthreads();
  s = 0.0f;
  for (int w = 0; w < WARPS; ++w)
    s += red[w];
  for (int c = tid; c < cols; c += THREADS)
    out[c] = expf(row[c] - m) / s;
}
