// Accumulations on the sides of a branch, and statement wrappers. Found
// 2026-12-05 with kernels of my own; each wrong kernel is wrong on the CPU
// executor, each correct one right.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

// Wrong (two accumulations where k % 4 == 0, one elsewhere): was proven;
// the two cases of one side were each compared only with the other side's.
// Now unproven.
__global__ void twice_on_one_side(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                           const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                           float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K >= 1 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y;
  int col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) {
    if ((k & 3) == 0) {
      acc += A[row * K + k] * B[k * N + col];
      acc += A[row * K + k] * B[k * N + col];
    } else {
      acc += A[row * K + k] * B[k * N + col];
    }
  }
  C[row * N + col] = acc;
}

// Wrong (case 0 falls through into case 1: k % 4 == 0 counts twice): was
// proven; now unproven.
__global__ void switch_fallthrough(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                           const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                           float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K >= 1 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y;
  int col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) {
    switch (k & 3) {
    case 0: acc += A[row * K + k] * B[k * N + col];
    case 1: acc += A[row * K + k] * B[k * N + col]; break;
    default: acc += A[row * K + k] * B[k * N + col];
    }
  }
  C[row * N + col] = acc;
}

// Correct (one accumulation per case): proves.
__global__ void switch_alternatives(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                           const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                           float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K >= 1 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y;
  int col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) {
    switch (k & 3) {
    case 0: acc += A[row * K + k] * B[k * N + col]; break;
    case 1: acc += A[row * K + k] * B[k * N + col]; break;
    default: acc += A[row * K + k] * B[k * N + col];
    }
  }
  C[row * N + col] = acc;
}

// Correct (statements wrapped in `do { ... } while (0)`, as macros do): was
// unproven ("every store into C writes a constant": taken for loops); proves.
__global__ void macro_wrappers(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                           const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                           float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K >= 1 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y;
  int col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k)
    do { acc += A[row * K + k] * B[k * N + col]; } while (0);
  do { C[row * N + col] = acc; } while (0);
}
