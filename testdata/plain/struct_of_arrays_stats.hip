// Per-block mean and variance with two shared arrays and a guarded final
// step, plus a device helper and a switch on the statistic.
#include <hip/hip_runtime.h>

enum Stat { kMean = 0, kVar = 1 };

__device__ __forceinline__ float square(float v) { return v * v; }

__global__ void block_stats(const float *data, float *result, int n, int which) {
  __shared__ float s_sum[256];
  __shared__ float s_sq[256];
  int tid = threadIdx.x;
  int i = blockIdx.x * 256 + tid;
  float v = i < n ? data[i] : 0.0f;
  s_sum[tid] = v;
  s_sq[tid] = square(v);
  __syncthreads();
  for (int stride = 128; stride > 0; stride /= 2) {
    if (tid < stride) {
      s_sum[tid] += s_sum[tid + stride];
      s_sq[tid] += s_sq[tid + stride];
    }
    __syncthreads();
  }
  if (tid == 0) {
    float mean = s_sum[0] / 256.0f;
    switch (which) {
    case kMean:
      result[blockIdx.x] = mean;
      break;
    case kVar:
      result[blockIdx.x] = s_sq[0] / 256.0f - mean * mean;
      break;
    default:
      break;
    }
  }
}
