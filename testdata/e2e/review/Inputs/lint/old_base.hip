// Review of lint findings: a bank conflict that base already has (head only
// moves it down), which is not new.
#include <hip/hip_runtime.h>

#define TILE 32

__global__ void transpose_read(const float *in, float *out) {
#pragma ave launch block(32, 32)
  __shared__ float tile[TILE][TILE];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * TILE + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * TILE + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}
