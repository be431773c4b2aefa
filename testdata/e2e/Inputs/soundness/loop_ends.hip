// A loop whose condition nothing in it changes never ends once entered
// (`loop-ends`): violated where it is entered, with the thread. The CPU
// executor hangs there (its watchdog ends the run) or runs the counter past
// an array. Each wrong kernel has twins that end, in unusual ways.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

#define TAGS                                                                                       \
  const float *A AVE_TAG("A(m < M, k < K) = m * K + k"), float *C AVE_TAG("C(m < M) = m"), int M,  \
      int K
#define SPEC                                                                                       \
  AVE_LAUNCH(block(64) grid(M / 64))                                                               \
  AVE_ASSUME(M % 64 == 0 && K >= 1 && K <= 4096 && M <= 4096)

// Wrong: the condition names the row, not the counter.
__global__ void conditionOnRow(TAGS) {
  SPEC
  int row = blockIdx.x * 64 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; row < K; ++k)
    acc += A[row * K + k];
  C[row] = acc;
}

// Wrong: the step advances another variable.
__global__ void stepsAnother(TAGS) {
  SPEC
  int row = blockIdx.x * 64 + threadIdx.x, steps = 0;
  float acc = 0.0f;
  for (int k = 0; k < K; ++steps)
    acc += A[row * K + k];
  C[row] = acc + 0.0f * float(steps);
}

// Twin: the counter moves in the body of a while loop.
__global__ void whileCounts(TAGS) {
  SPEC
  int row = blockIdx.x * 64 + threadIdx.x, k = 0;
  float acc = 0.0f;
  while (k < K) {
    acc += A[row * K + k];
    ++k;
  }
  C[row] = acc;
}

// Twin: the condition never changes, but the loop leaves through a break.
__global__ void leavesByBreak(TAGS) {
  SPEC
  int row = blockIdx.x * 64 + threadIdx.x, k = 0;
  float acc = 0.0f;
  for (int spin = 0; row < M; ++spin) {
    acc += A[row * K + k];
    if (++k == K)
      break;
  }
  C[row] = acc;
}

// Twin: the condition never changes and is false on entry (K >= 1).
__global__ void neverEntered(TAGS) {
  SPEC
  int row = blockIdx.x * 64 + threadIdx.x, extra = 0;
  for (int j = 0; K < 1; ++j)
    ++extra;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k)
    acc += A[row * K + k];
  C[row] = acc + 0.0f * float(extra);
}
