// Loops unrolled by hand: one iteration adds several contributions to one
// accumulator, one after the other. Each index must be reduced once over
// the iterations and the contributions together; a tail loop takes what
// the unrolled loop leaves. A loop that starts where a widened loop ended
// starts at a value the analysis does not follow.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

#define ROW_DOT(NAME) \
  __global__ void NAME(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"), \
                       float *Y AVE_TAG("Y(m < M) = m"), int M, int K)

// Correct: four contributions per iteration, k stepping by 4.
ROW_DOT(by_four) {
  AVE_LAUNCH(block(64) grid(M / 64))
  AVE_ASSUME(M % 64 == 0 && K % 16 == 0 && K >= 16 && K <= 32768 && M <= 32768)
  int m = blockIdx.x * 64 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; k += 4) {
    acc += A[m * K + k];
    acc += A[m * K + k + 1];
    acc += A[m * K + k + 2];
    acc += A[m * K + k + 3];
  }
  Y[m] = acc;
}

// Correct: by three within each tile of 16, and a tail loop of one.
ROW_DOT(by_three_with_tail) {
  AVE_LAUNCH(block(64) grid(M / 64))
  AVE_ASSUME(M % 64 == 0 && K % 16 == 0 && K >= 16 && K <= 32768 && M <= 32768)
  int m = blockIdx.x * 64 + threadIdx.x;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += 16) {
    for (int k = 0; k < 15; k += 3) {
      acc += A[m * K + k0 + k];
      acc += A[m * K + k0 + k + 1];
      acc += A[m * K + k0 + k + 2];
    }
    for (int k = 15; k < 16; ++k)
      acc += A[m * K + k0 + k];
  }
  Y[m] = acc;
}

// Wrong: the tail loop was dropped (index 15 of every tile is never added).
ROW_DOT(tail_dropped) {
  AVE_LAUNCH(block(64) grid(M / 64))
  AVE_ASSUME(M % 64 == 0 && K % 16 == 0 && K >= 16 && K <= 32768 && M <= 32768)
  int m = blockIdx.x * 64 + threadIdx.x;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += 16)
    for (int k = 0; k < 15; k += 3) {
      acc += A[m * K + k0 + k];
      acc += A[m * K + k0 + k + 1];
      acc += A[m * K + k0 + k + 2];
    }
  Y[m] = acc;
}

// Wrong: one contribution is one element off (k + 2 twice, k + 3 never).
ROW_DOT(one_off) {
  AVE_LAUNCH(block(64) grid(M / 64))
  AVE_ASSUME(M % 64 == 0 && K % 16 == 0 && K >= 16 && K <= 32768 && M <= 32768)
  int m = blockIdx.x * 64 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; k += 4) {
    acc += A[m * K + k];
    acc += A[m * K + k + 1];
    acc += A[m * K + k + 2];
    acc += A[m * K + k + 2];
  }
  Y[m] = acc;
}

// Wrong: a duplicated statement in a plain loop counts every index twice.
ROW_DOT(duplicated) {
  AVE_LAUNCH(block(64) grid(M / 64))
  AVE_ASSUME(M % 64 == 0 && K % 16 == 0 && K >= 16 && K <= 32768 && M <= 32768)
  int m = blockIdx.x * 64 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) {
    acc += A[m * K + k];
    acc += A[m * K + k];
  }
  Y[m] = acc;
}

// Not modelled: the second contribution is guarded by the thread.
ROW_DOT(guarded_part) {
  AVE_LAUNCH(block(64) grid(M / 64))
  AVE_ASSUME(M % 64 == 0 && K % 16 == 0 && K >= 16 && K <= 32768 && M <= 32768)
  int m = blockIdx.x * 64 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; k += 2) {
    acc += A[m * K + k];
    if (threadIdx.x < 32)
      acc += A[m * K + k + 1];
  }
  Y[m] = acc;
}

// Correct, not followed: the tail loop starts where a loop the analysis
// widens (its condition is not `k < bound`) stopped. Its counter's range
// is not known: unproven, never an out-of-bounds read at k = -1.
__global__ void tail_after_widened(const float *X AVE_TAG("X(m < M, j < 16) = m * 16 + j"),
                                   float *Y AVE_TAG("Y(m < M) = m"), int M) {
  AVE_LAUNCH(block(64) grid(M / 64))
  AVE_ASSUME(M % 64 == 0 && M <= 32768)
  __shared__ float S[64][16];
  int m = blockIdx.x * 64 + threadIdx.x;
  for (int j = 0; j < 16; ++j)
    S[threadIdx.x][j] = X[m * 16 + j];
  __syncthreads();
  float acc = 0.0f;
  int k = 0;
  for (; k + 3 <= 16; k += 3)
    acc += S[threadIdx.x][k] + S[threadIdx.x][k + 1] + S[threadIdx.x][k + 2];
  for (; k < 16; ++k)
    acc += S[threadIdx.x][k];
  Y[m] = acc;
}
