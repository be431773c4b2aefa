// MUTANT-OF: ../../block_reduce.hip
// EXPECT: lds-race line 31
// Seeded bug: removed the __syncthreads() between levels of the tree.
// Row sums Y(r) = sum_c X(r, c): one block of 256 threads per row. Each thread
// accumulates a strided slice of the row in a register, then the block adds
// the 256 partial sums with an LDS tree reduction (__syncthreads between
// levels). The tags make it the einsum X(r, c) -> Y(r): c is reduced.
// Annotated with a mix of AVE_* macros and raw pragmas.
// Launch: block(256), grid(R).
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

__global__ void block_reduce(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                             float *Y AVE_TAG("Y(r < R) = r"), int R, int C) {
  AVE_LAUNCH(block(256) grid(R))
  AVE_ASSUME(R >= 1 && C % 256 == 0 && C >= 256 && C <= 32768 && R <= 32768)
  __shared__ float partial[256];
  int tid = threadIdx.x;
  int r = blockIdx.x;
  float sum = 0.0f;
  for (int c0 = 0; c0 < C; c0 += 256) {
    float x = X[r * C + c0 + tid];
    AVE_ASSERT(tag(x) == X(r, c0 + tid))
    sum += x;
  }
  partial[tid] = sum;
  __syncthreads();
  for (int stride = 128; stride > 0; stride /= 2) {
    if (tid < stride) {
#pragma ave assert tag(partial[tid + stride]).r == r
      partial[tid] += partial[tid + stride];
    }
    // MUTATION: removed the __syncthreads() between levels of the tree
  }
  if (tid == 0)
    Y[r] = partial[0];
}
