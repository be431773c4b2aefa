// A register tile whose reduction loop is the innermost: `acc[i] += a * b`
// in `for (i) for (k)`, the loop interchange of `for (k) for (i)` (issue 11:
// "loop interchange over a register tile", correct but rejected with "private
// array written at an index the analysis does not model"). In the loop over
// k the write is one element the loop does not move: a scalar accumulation
// at that element, folded over i (and j) afterwards. The correct kernels
// prove; each wrong twin is violated or unproven, never proven; every
// verdict agrees with the CPU executor (harness --shape M=64,N=64,K=32).
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

#define TAGS                                                                                       \
  const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),                                           \
      const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),                                       \
      float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K
#define SPEC                                                                                       \
  _Pragma("ave launch block(16, 4) grid(N / 16, M / 16)")                                          \
      _Pragma("ave assume M % 16 == 0 && N % 16 == 0 && K >= 2 && K <= 4096 && M <= 4096 && N <= 4096")

// Correct: a column of four rows, k innermost.
__global__ void column(TAGS) {
  SPEC
  int row0 = (blockIdx.y * 4 + threadIdx.y) * 4, col = blockIdx.x * 16 + threadIdx.x;
  float acc[4];
  for (int i = 0; i < 4; ++i)
    acc[i] = 0.0f;
  for (int i = 0; i < 4; ++i)
    for (int k = 0; k < K; ++k)
      acc[i] += A[(row0 + i) * K + k] * B[k * N + col];
  for (int i = 0; i < 4; ++i)
    C[(row0 + i) * N + col] = acc[i];
}

// Correct: a 4x4 tile per group of four threads, k innermost.
__global__ void tile(TAGS) {
  SPEC
  int row0 = (blockIdx.y * 4 + threadIdx.y) * 4;
  int col0 = blockIdx.x * 16 + threadIdx.x / 4 * 4;
  if (threadIdx.x % 4 != 0)
    return;
  float acc[4][4];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      acc[i][j] = 0.0f;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < K; ++k)
        acc[i][j] += A[(row0 + i) * K + k] * B[k * N + col0 + j];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      C[(row0 + i) * N + col0 + j] = acc[i][j];
}

// Wrong: the last k is skipped.
__global__ void lastKSkipped(TAGS) {
  SPEC
  int row0 = (blockIdx.y * 4 + threadIdx.y) * 4, col = blockIdx.x * 16 + threadIdx.x;
  float acc[4];
  for (int i = 0; i < 4; ++i)
    acc[i] = 0.0f;
  for (int i = 0; i < 4; ++i)
    for (int k = 0; k < K - 1; ++k)
      acc[i] += A[(row0 + i) * K + k] * B[k * N + col];
  for (int i = 0; i < 4; ++i)
    C[(row0 + i) * N + col] = acc[i];
}

// Wrong: row 0's accumulator also takes every other row's products.
__global__ void rowZeroTwice(TAGS) {
  SPEC
  int row0 = (blockIdx.y * 4 + threadIdx.y) * 4, col = blockIdx.x * 16 + threadIdx.x;
  float acc[4];
  for (int i = 0; i < 4; ++i)
    acc[i] = 0.0f;
  for (int i = 0; i < 4; ++i)
    for (int k = 0; k < K; ++k) {
      acc[i] += A[(row0 + i) * K + k] * B[k * N + col];
      if (i > 0)
        acc[0] += A[row0 * K + k] * B[k * N + col];
    }
  for (int i = 0; i < 4; ++i)
    C[(row0 + i) * N + col] = acc[i];
}

// Wrong: each iteration also clears the next row (which starts from zero
// anyway), and row 3's iterations write acc[4], past the array.
__global__ void nextRowCleared(TAGS) {
  SPEC
  int row0 = (blockIdx.y * 4 + threadIdx.y) * 4, col = blockIdx.x * 16 + threadIdx.x;
  float acc[4];
  for (int i = 0; i < 4; ++i)
    acc[i] = 0.0f;
  for (int i = 0; i < 4; ++i)
    for (int k = 0; k < K; ++k) {
      acc[i] += A[(row0 + i) * K + k] * B[k * N + col];
      acc[i + 1] = 0.0f;
    }
  for (int i = 0; i < 4; ++i)
    C[(row0 + i) * N + col] = acc[i];
}

// Wrong: stored one row down.
__global__ void storedShifted(TAGS) {
  SPEC
  int row0 = (blockIdx.y * 4 + threadIdx.y) * 4, col = blockIdx.x * 16 + threadIdx.x;
  float acc[4];
  for (int i = 0; i < 4; ++i)
    acc[i] = 0.0f;
  for (int i = 0; i < 4; ++i)
    for (int k = 0; k < K; ++k)
      acc[i] += A[(row0 + i) * K + k] * B[k * N + col];
  for (int i = 0; i < 3; ++i)
    C[(row0 + i + 1) * N + col] = acc[i];
  C[row0 * N + col] = acc[3];
}

// Wrong: the accumulator overwritten instead of accumulated.
__global__ void overwritten(TAGS) {
  SPEC
  int row0 = (blockIdx.y * 4 + threadIdx.y) * 4, col = blockIdx.x * 16 + threadIdx.x;
  float acc[4];
  for (int i = 0; i < 4; ++i)
    acc[i] = 0.0f;
  for (int i = 0; i < 4; ++i)
    for (int k = 0; k < K; ++k)
      acc[i] = A[(row0 + i) * K + k] * B[k * N + col];
  for (int i = 0; i < 4; ++i)
    C[(row0 + i) * N + col] = acc[i];
}
