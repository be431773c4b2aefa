// Review of lint findings: 32 KiB of LDS (base); head adds 64 KiB more.
#include <hip/hip_runtime.h>

__global__ void staged(float *out) {
  __shared__ float a[64][128];
  a[threadIdx.y][threadIdx.x] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = a[0][threadIdx.x];
}
