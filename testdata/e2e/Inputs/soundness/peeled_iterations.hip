// One iteration of a K loop taken out of it: after the loop, between two
// loops, as a sum of its own. The correct kernels (right on the CPU executor
// at M=32, N=48, K=45) were violated: the iteration after a loop kept 'k'
// unreduced ("the value still depends on 'k', which no loop reduced"), and
// `A[row * K + K - 1]` was matched as m = row + 1, k = -1, whose retry
// (a division by K) timed out. Each wrong twin is wrong there too. The read
// `A[row * K + (K - 1) * (row % 2)]` is in bounds: its out-of-bounds
// counterexample (the coefficient match's m = row + 1, k = -1 at an odd row)
// was printed as violated; the kernel is wrong for its double count only.
// Found 2026-12-05.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

__global__ void peeled_last(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                           const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                           float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K >= 2 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y;
  int col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K - 1; ++k)
    acc += A[row * K + k] * B[k * N + col];
  acc += A[row * K + K - 1] * B[(K - 1) * N + col];
  C[row * N + col] = acc;
}

__global__ void peeled_middle(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                           const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                           float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K >= 2 && K <= 32768 && M <= 32768 && N <= 32768)
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

__global__ void peeled_two(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                           const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                           float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K >= 2 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y;
  int col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K - 2; ++k)
    acc += A[row * K + k] * B[k * N + col];
  acc += A[row * K + K - 2] * B[(K - 2) * N + col];
  acc += A[row * K + K - 1] * B[(K - 1) * N + col];
  C[row * N + col] = acc;
}

__global__ void peeled_as_sum(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                           const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                           float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K >= 2 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y;
  int col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K - 1; ++k)
    acc += A[row * K + k] * B[k * N + col];
  float last = A[row * K + K - 1] * B[(K - 1) * N + col];
  acc = last + acc;
  C[row * N + col] = acc;
}

__global__ void peeled_first_after(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                           const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                           float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K >= 2 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y;
  int col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 1; k < K; ++k)
    acc += A[row * K + k] * B[k * N + col];
  acc += A[row * K] * B[col];
  C[row * N + col] = acc;
}

__global__ void peeled_wrong_index(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                           const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                           float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K >= 2 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y;
  int col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K - 1; ++k)
    acc += A[row * K + k] * B[k * N + col];
  acc += A[row * K + K - 2] * B[(K - 2) * N + col];
  C[row * N + col] = acc;
}

__global__ void peeled_and_looped(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                           const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                           float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K >= 2 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y;
  int col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k)
    acc += A[row * K + k] * B[k * N + col];
  acc += A[row * K + K - 1] * B[(K - 1) * N + col];
  C[row * N + col] = acc;
}

__global__ void peeled_twice(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                           const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                           float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K >= 2 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y;
  int col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K - 1; ++k)
    acc += A[row * K + k] * B[k * N + col];
  acc += A[row * K + K - 1] * B[(K - 1) * N + col];
  acc += A[row * K + K - 1] * B[(K - 1) * N + col];
  C[row * N + col] = acc;
}

__global__ void peeled_operands_disagree(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                           const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                           float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K >= 2 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y;
  int col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K - 1; ++k)
    acc += A[row * K + k] * B[k * N + col];
  acc += A[row * K + K - 1] * B[(K - 2) * N + col];
  C[row * N + col] = acc;
}

__global__ void peeled_at_odd_rows(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                           const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                           float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K >= 2 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y;
  int col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K - 1; ++k)
    acc += A[row * K + k] * B[k * N + col];
  acc += A[row * K + (K - 1) * (row % 2)] * B[(K - 1) * (row % 2) * N + col];
  C[row * N + col] = acc;
}
