// Loops whose body always breaks (the back edge is never taken), as they
// stood in control_flow/loop_exits.hip until 2026-12-05: both were proven,
// and both are wrong on the CPU executor (Y = 0 at mode > 3; Y = 2X at
// mode <= 3). The walk took them for loops and lost the constant and the
// factor; a loop statement whose back edge no path reaches is straight-line
// code now (as `do { ... } while (0)` is), and they are violated / unproven.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

// Wrong at mode > 3 (stores 0): violated.
__global__ void break_carries_value(const float *X AVE_TAG("X(i < N) = i"),
                                    float *Y AVE_TAG("Y(i < N) = i"), int N, int mode) {
#pragma ave launch block(64) grid(N / 64)
#pragma ave assume N % 64 == 0
  int i = blockIdx.x * 64 + threadIdx.x;
  float v = 0.0f;
  while (true) {
    if (mode > 3)
      break;
    v = X[i];
    break;
  }
  Y[i] = v;
}

// Wrong at mode <= 3 (stores 2 * X[i]): unproven (a constant factor).
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
    v = v * 2.0f;
    break;
  }
#pragma ave assert i < N
  Y[i] = v;
}
