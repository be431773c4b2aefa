// testdata/block_reduce.hip with its column loop's counter made `short`
// (the soundness fuzzer's block_reduce#23 and #156). The loop is widened
// (its counter may not hold every value), so the per-thread sums' column is
// an approximated value that no followed loop reduces, and the LDS tree's
// `partial[tid] += partial[tid + stride]` was violated: "operands of sum
// disagree on 'c'", with a counterexample at C=32512 where the kernel runs
// correctly (the short counter never overflows there). A coordinate built
// from an approximated value need not agree: unproven, with the reason.
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
  for (short c0 = 0; c0 < C; c0 += 256) {
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
    __syncthreads();
  }
  if (tid == 0)
    Y[r] = partial[0];
}
