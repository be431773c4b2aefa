#include <ave/annotations.h>
#include <hip/hip_runtime.h>

// Y = X row by row, through a tile of 64 in shared memory: K % 64 == 0 and
// K >= 64 let K be 64, one tile, at which a pipelined loop never prefetches.
__global__ void draft(const float *X AVE_TAG("X(r < R, i < K) = r * K + i"),
                      float *Y AVE_TAG("X(r < R, i < K) = r * K + i"), int R, int K) {
#pragma ave launch block(64) grid(R)
#pragma ave assume K % 64 == 0 && K >= 64 && K <= 4096 && R >= 1 && R <= 4096
  __shared__ float Ts[64];
  int tx = threadIdx.x;
  int r = blockIdx.x;
  for (int k0 = 0; k0 < K; k0 += 64) {
    Ts[tx] = X[r * K + k0 + tx];
    __syncthreads();
    Y[r * K + k0 + tx] = Ts[tx];
    __syncthreads();
  }
}
