// All-pairs n-body forces with body positions staged through shared memory.
#include <hip/hip_runtime.h>

#define BLOCK 128

__global__ void bodyForce(const float4 *pos, float3 *acc, int n, float soft) {
  __shared__ float4 shPos[BLOCK];
  int i = blockIdx.x * BLOCK + threadIdx.x;
  float4 me = i < n ? pos[i] : make_float4(0, 0, 0, 0);
  float3 a = make_float3(0, 0, 0);
  for (int tile = 0; tile < (n + BLOCK - 1) / BLOCK; ++tile) {
    int j = tile * BLOCK + threadIdx.x;
    shPos[threadIdx.x] = j < n ? pos[j] : make_float4(0, 0, 0, 0);
    __syncthreads();
    for (int k = 0; k < BLOCK; ++k) {
      float4 other = shPos[k];
      float dx = other.x - me.x, dy = other.y - me.y, dz = other.z - me.z;
      float inv = rsqrtf(dx * dx + dy * dy + dz * dz + soft);
      float s = other.w * inv * inv * inv;
      a.x += dx * s;
      a.y += dy * s;
      a.z += dz * s;
    }
    __syncthreads();
  }
  if (i < n)
    acc[i] = a;
}
