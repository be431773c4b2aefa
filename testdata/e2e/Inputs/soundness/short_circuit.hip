// Loads on the right of `&&` and `||`, which C evaluates only where the left
// side does not decide. Found 2026-12-05 with kernels of my own.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

// Correct: the look-ahead read runs only where `k + 1 < K &&` lets it. Was
// violated (its bound at k = K - 1); proves.
__global__ void guarded_by_and(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                           const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                           float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K >= 1 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y;
  int col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) {
    bool next = k + 1 < K && A[row * K + k + 1] > 1e30f;
    acc += A[row * K + k] * B[k * N + col] + (next ? 0.0f : 0.0f);
  }
  C[row * N + col] = acc;
}

// Correct: the same behind `k + 1 >= K ||`. Was violated; proves.
__global__ void guarded_by_or(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                           const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                           float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K >= 1 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y;
  int col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) {
    bool next = k + 1 >= K || A[row * K + k + 1] > 1e30f;
    acc += A[row * K + k] * B[k * N + col] + (next ? 0.0f : 0.0f);
  }
  C[row * N + col] = acc;
}

// Wrong (`k < K &&` lets the read of A[row * K + K] run): violated.
__global__ void guard_too_weak(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                           const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                           float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K >= 1 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y;
  int col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) {
    bool next = k < K && A[row * K + k + 1] > 1e30f;
    acc += A[row * K + k] * B[k * N + col] + (next ? 0.0f : 0.0f);
  }
  C[row * N + col] = acc;
}
