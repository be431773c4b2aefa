// Shapes the CFG walk once refused as "a jump into the body of a loop".
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

// A do loop that starts a for body: one block is both the for body's start
// and the do loop's header.
__global__ void do_starts_for_body(const float *X AVE_TAG("X(i < N) = i"),
                                   float *Y AVE_TAG("Y(i < N) = i"), int N, int mode) {
#pragma ave launch block(64) grid(N / 64)
#pragma ave assume N % 64 == 0
  int i = blockIdx.x * 64 + threadIdx.x;
  float v = X[i];
  int j = 0;
  for (int q = 0; q < 2; ++q) {
    do {
      j += 1;
      if (mode == 7)
        break;
    } while (j < 6);
  }
  Y[i] = v;
}

// A goto out of a loop to labels after it (empty blocks of their own).
__global__ void goto_out_of_loop(const float *X AVE_TAG("X(i < N) = i"),
                                 float *Y AVE_TAG("Y(i < N) = i"), int N, int mode) {
#pragma ave launch block(64) grid(N / 64)
#pragma ave assume N % 64 == 0
  int i = blockIdx.x * 64 + threadIdx.x;
  float v = X[i];
  for (int q = 0; q < 4; ++q) {
    if (mode == q)
      goto done;
  }
  v = v + 0.0f;
done:
found:
  Y[i] = v;
}
