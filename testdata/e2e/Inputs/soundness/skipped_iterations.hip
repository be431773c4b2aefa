// A loop that runs more often than the bound while an iteration adds
// nothing can still sum each index once: its 'complete' obligation is
// unproven, not violated (it was violated with iterations=K+1, a count of
// iterations that do not all contribute). Fewer iterations than the bound,
// or a skip when they are as many, is a real gap and stays violated.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>
// Correct: K + 1 iterations, the first adds nothing.
__global__ void skip_first(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                           float *Y AVE_TAG("Y(m < M) = m"), int M, int K) {
  AVE_LAUNCH(block(64) grid(M / 64))
  AVE_ASSUME(M % 64 == 0 && K >= 1 && K <= 32768 && M <= 32768)
  int m = blockIdx.x * 64 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k <= K; ++k)
    if (k > 0)
      acc += A[m * K + k - 1];
  Y[m] = acc;
}
// Wrong: K iterations, the first adds nothing.
__global__ void skip_first_short(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                                 float *Y AVE_TAG("Y(m < M) = m"), int M, int K) {
  AVE_LAUNCH(block(64) grid(M / 64))
  AVE_ASSUME(M % 64 == 0 && K >= 1 && K <= 32768 && M <= 32768)
  int m = blockIdx.x * 64 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k)
    if (k > 0)
      acc += A[m * K + k];
  Y[m] = acc;
}
