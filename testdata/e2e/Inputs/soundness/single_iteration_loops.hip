// Loops that run at most once: a tail loop of one iteration after a loop to
// K - 1, and a GEMM whose assumption fixes K == 1. Their index has one value,
// the same in "every" iteration, so it was left unreduced and the correct
// kernels violated (right on the CPU executor). Found 2026-12-05.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

// Correct: proves.
__global__ void tail_loop_of_one(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                           const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                           float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K >= 1 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y;
  int col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K - 1; ++k)
    acc += A[row * K + k] * B[k * N + col];
  for (int k = K - 1; k < K; ++k)
    acc += A[row * K + k] * B[k * N + col];
  C[row * N + col] = acc;
}

// Correct: proves.
__global__ void one_iteration_k(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                           const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                           float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K == 1 && M <= 32768 && N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y;
  int col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k)
    acc += __ldg(&A[row * K + k]) * __ldg(&B[k * N + col]);
  C[row * N + col] = acc;
}

// Wrong (the tail loop takes K - 2 again and never K - 1): violated.
__global__ void tail_loop_repeats(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                           const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                           float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K >= 1 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y;
  int col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K - 1; ++k)
    acc += A[row * K + k] * B[k * N + col];
  for (int k = K - 2; k < K - 1; ++k)
    acc += A[row * K + k] * B[k * N + col];
  C[row * N + col] = acc;
}
