// Not in compile_commands.json: it borrows the flags of its neighbour
// (src/scale.hip), as clang-tidy and clangd do.
#include "tile_config.h"
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

__global__ void unlisted_tile(const float *in AVE_TAG("X(i < N) = i"),
                           float *out AVE_TAG("X(i < N) = i"), int N) {
#pragma ave launch block(TILE * TILE) grid(N / (TILE * TILE))
#pragma ave assume N % (TILE * TILE) == 0 && N >= TILE * TILE
  __shared__ float stage[TILE][TILE];
  int t = threadIdx.x;
  int i = blockIdx.x * TILE_THREADS + t;
  stage[t / TILE][t % TILE] = in[i];
  __syncthreads();
  out[i] = stage[t / TILE][t % TILE];
}
