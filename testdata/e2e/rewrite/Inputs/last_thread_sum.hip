// Row sums Y(r) = sum_c X(r, c), one block per row: each thread adds a
// strided slice of the row, and the block's last thread adds the 256
// partial sums from LDS after the barrier. The rewrite execution test drops
// that barrier (--inject-bug drop-barrier): in the CPU executor's schedule
// (one thread at a time, handing over only at barriers) the last thread
// still runs after every other one and reads every partial sum, so the
// values stay the same bits; on a GPU it may read a partial sum not yet
// written. Only the race check shows the bug.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

__global__ void last_thread_sum(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                                float *Y AVE_TAG("Y(r < R) = r"), int R, int C) {
  AVE_LAUNCH(block(32, 8) grid(R))
  AVE_ASSUME(R >= 1 && C % 256 == 0 && C >= 256 && C <= 32768 && R <= 32768)
  __shared__ float partial[8][32];
  int tx = threadIdx.x, ty = threadIdx.y, r = blockIdx.x;
  float sum = 0.0f;
  for (int c0 = 0; c0 < C; c0 += 256)
    sum += X[r * C + c0 + ty * 32 + tx];
  partial[ty][tx] = sum;
  __syncthreads();
  if (tx == 31 && ty == 7) {
    float total = 0.0f;
    for (int y = 0; y < 8; ++y)
      for (int x = 0; x < 32; ++x)
        total += partial[y][x];
    Y[r] = total;
  }
}
