// A register tile held in a two-dimensional private array, `acc[i][j]`,
// written and read by nested loops over i and j (register_tiled_gemm.hip's
// shape). Each thread computes a 4x4 tile of C = A * B from global memory.
// The store of `acc[i][j]` was unproven: "private array written at an index
// the analysis does not model". The correct kernels prove; each wrong twin
// is violated or unproven, never proven; every verdict agrees with the CPU
// executor (harness --shape M=64,N=64,K=32).
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

#define TAGS                                                                                       \
  const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),                                           \
      const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),                                       \
      float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K
#define SPEC                                                                                       \
  _Pragma("ave launch block(4, 4) grid(N / 16, M / 16)")                                           \
      _Pragma("ave assume M % 16 == 0 && N % 16 == 0 && K >= 1 && K <= 4096 && M <= 4096 && N <= 4096")

// Correct: zeroed, accumulated and stored by nested loops.
__global__ void tile(TAGS) {
  SPEC
  int row0 = (blockIdx.y * 4 + threadIdx.y) * 4, col0 = (blockIdx.x * 4 + threadIdx.x) * 4;
  float acc[4][4];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      acc[i][j] = 0.0f;
  for (int k = 0; k < K; ++k)
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j)
        acc[i][j] += A[(row0 + i) * K + k] * B[k * N + col0 + j];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      C[(row0 + i) * N + col0 + j] = acc[i][j];
}

// Correct: the store loops interchanged (j outer), and the accumulation's
// loops too.
__global__ void interchanged(TAGS) {
  SPEC
  int row0 = (blockIdx.y * 4 + threadIdx.y) * 4, col0 = (blockIdx.x * 4 + threadIdx.x) * 4;
  float acc[4][4];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      acc[i][j] = 0.0f;
  for (int k = 0; k < K; ++k)
    for (int j = 0; j < 4; ++j)
      for (int i = 0; i < 4; ++i)
        acc[j][i] += A[(row0 + j) * K + k] * B[k * N + col0 + i];
  for (int j = 0; j < 4; ++j)
    for (int i = 0; i < 4; ++i)
      C[(row0 + i) * N + col0 + j] = acc[i][j];
}

// Correct: a flat array indexed `acc[i * 4 + j]`.
__global__ void flat(TAGS) {
  SPEC
  int row0 = (blockIdx.y * 4 + threadIdx.y) * 4, col0 = (blockIdx.x * 4 + threadIdx.x) * 4;
  float acc[16];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      acc[i * 4 + j] = 0.0f;
  for (int k = 0; k < K; ++k)
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j)
        acc[i * 4 + j] += A[(row0 + i) * K + k] * B[k * N + col0 + j];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      C[(row0 + i) * N + col0 + j] = acc[i * 4 + j];
}

// Wrong: the tile stored transposed.
__global__ void storedTransposed(TAGS) {
  SPEC
  int row0 = (blockIdx.y * 4 + threadIdx.y) * 4, col0 = (blockIdx.x * 4 + threadIdx.x) * 4;
  float acc[4][4];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      acc[i][j] = 0.0f;
  for (int k = 0; k < K; ++k)
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j)
        acc[i][j] += A[(row0 + i) * K + k] * B[k * N + col0 + j];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      C[(row0 + i) * N + col0 + j] = acc[j][i];
}

// Wrong: the last column of the tile is never zeroed.
__global__ void columnNotZeroed(TAGS) {
  SPEC
  int row0 = (blockIdx.y * 4 + threadIdx.y) * 4, col0 = (blockIdx.x * 4 + threadIdx.x) * 4;
  float acc[4][4];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 3; ++j)
      acc[i][j] = 0.0f;
  for (int k = 0; k < K; ++k)
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j)
        acc[i][j] += A[(row0 + i) * K + k] * B[k * N + col0 + j];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      C[(row0 + i) * N + col0 + j] = acc[i][j];
}

// Wrong: rows of the flat array overlap (i * 4 + j for j < 5): element 4
// gets (0, 4)'s products and (1, 0)'s.
__global__ void overlappingRows(TAGS) {
  SPEC
  int row0 = (blockIdx.y * 4 + threadIdx.y) * 4, col0 = (blockIdx.x * 4 + threadIdx.x) * 4;
  float acc[20];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      acc[i * 4 + j] = 0.0f;
  for (int k = 0; k < K; ++k)
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 5; ++j)
        acc[i * 4 + j] += A[(row0 + i) * K + k] * B[k * N + col0 + j % 4];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      C[(row0 + i) * N + col0 + j] = acc[i * 4 + j];
}

// Wrong: besides the tile, each k adds the corner's product once more.
__global__ void cornerTwice(TAGS) {
  SPEC
  int row0 = (blockIdx.y * 4 + threadIdx.y) * 4, col0 = (blockIdx.x * 4 + threadIdx.x) * 4;
  float acc[4][4];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      acc[i][j] = 0.0f;
  for (int k = 0; k < K; ++k)
    for (int i = 0; i < 4; ++i) {
      for (int j = 0; j < 4; ++j)
        acc[i][j] += A[(row0 + i) * K + k] * B[k * N + col0 + j];
      if (i == 3)
        acc[0][0] += A[row0 * K + k] * B[k * N + col0];
    }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      C[(row0 + i) * N + col0 + j] = acc[i][j];
}
