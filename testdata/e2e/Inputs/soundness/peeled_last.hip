// Correct kernels with one iteration of the K loop taken out of it: the last
// one peeled after the loop, the middle one between two loops. Right on the
// CPU executor (M=32, N=48, K=45), and violated ("the value still depends on
// 'k', which no loop reduced"): the first iteration peeled before a loop is
// a piece of its reduction (initialPieces), one after a loop is not. Found
// 2026-12-05; kept in check_known_holes.test.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

__global__ void peeled_last(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                           const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                           float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K >= 1 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y;
  int col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  int ia = row * K;
  for (int k = 0; k < K - 1; ++k) {
    acc += A[ia] * B[k * N + col];
    ++ia;
  }
  acc += A[row * K + K - 1] * B[(K - 1) * N + col];
  C[row * N + col] = acc;
}

__global__ void peeled_middle(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                           const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                           float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K >= 1 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y;
  int col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K / 2; ++k)
    acc += A[row * K + k] * B[k * N + col];
  acc += A[row * K + K / 2] * B[(K / 2) * N + col];
  for (int k = K / 2 + 1; k < K; ++k)
    acc += A[row * K + k] * B[k * N + col];
  C[row * N + col] = acc;
}
