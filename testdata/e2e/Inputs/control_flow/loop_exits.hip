// Loops left through `break`: the values at each break reach the code after
// the loop (merged with the loop's normal end under a fresh condition).
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

// The element is loaded inside a `while (true)` and leaves through a break.
__global__ void break_carries_value(const float *X AVE_TAG("X(i < N) = i"),
                                    float *Y AVE_TAG("Y(i < N) = i"), int N, int mode) {
#pragma ave launch block(64) grid(N / 64)
#pragma ave assume N % 64 == 0
  int i = blockIdx.x * 64 + threadIdx.x;
  float v = 0.0f;
  while (true) {
    if (mode > 3) {
      v = X[i];
      break;
    }
    v = X[i];
    break;
  }
  Y[i] = v;
}

// An early return, then a loop that always breaks: its body never reaches
// the back edge.
__global__ void guard_then_break(const float *X AVE_TAG("X(i < N) = i"),
                                 float *Y AVE_TAG("Y(i < N) = i"), int N, int mode) {
#pragma ave launch block(64) grid(N / 64)
#pragma ave assume N % 64 == 0
  int i = blockIdx.x * 64 + threadIdx.x;
  if (i >= N)
    return;
  float v = X[i];
  while (true) {
    if (mode > 3)
      break;
    v = X[i];
    break;
  }
#pragma ave assert i < N
  Y[i] = v;
}

// `for (;;)` with continue and two breaks; v is reassigned but never from
// another element.
__global__ void forever_with_continue(const float *X AVE_TAG("X(i < N) = i"),
                                      float *Y AVE_TAG("Y(i < N) = i"), int N, int mode) {
#pragma ave launch block(64) grid(N / 64)
#pragma ave assume N % 64 == 0
  int i = blockIdx.x * 64 + threadIdx.x;
  float v = X[i];
  for (;;) {
    if (mode == 1) {
      v = v + 0.0f;
      break;
    }
    if (mode == 2)
      continue;
    break;
  }
  Y[i] = v;
}
