// Integers a canonical loop moves besides its counter, loads under a
// conditional operator, and inner loops whose range moves with an outer
// loop. Found with kernels of my own (2026-12-05); each wrong kernel is wrong
// on the CPU executor (M=32, N=48, K=45), each correct one right.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

// Wrong (reads row * K + 2k): was proven, ia taken as row * K in every
// iteration; now violated (out of bounds, and the product disagrees on k).
__global__ void index_moves_wrong(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                       const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                       float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K >= 1 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  int ia = row * K;
  for (int k = 0; k < K; ++k) {
    acc += A[ia + k] * B[k * N + col];
    ia += 1;
  }
  C[row * N + col] = acc;
}

// Wrong (ia is 0 from k = 4 on): was proven; now unproven (ia widened).
__global__ void index_reset_wrong(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                       const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                       float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K >= 1 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  int ia = row * K;
  for (int k = 0; k < K; ++k) {
    acc += A[ia + k] * B[k * N + col];
    if (k == 3)
      ia = 0;
  }
  C[row * N + col] = acc;
}

// Correct: was violated ("the value still depends on 'k'"); proves.
__global__ void indices_walk(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                       const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                       float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K >= 1 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  int ia = row * K, ib = col;
  for (int k = 0; k < K; ++k) {
    acc += A[ia++] * B[ib];
    ib += N;
  }
  C[row * N + col] = acc;
}

// Correct: the loads run only where k < K; their bounds were violated at
// k = K. Now unproven (iterations past K add nothing, which coverage does
// not count).
__global__ void padded_ternary(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                       const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                       float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K >= 1 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < (K + 3) / 4 * 4; ++k) {
    float a = k < K ? A[row * K + k] : 0.0f;
    float b = k < K ? B[k * N + col] : 0.0f;
    acc += a * b;
  }
  C[row * N + col] = acc;
}

// Correct: an inner loop from kk to kk + 4, then the tail. Was violated (the
// inner loop's four iterations compared with K); proves.
__global__ void range_moves(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                       const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                       float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K >= 1 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int kk = 0; kk < K / 4 * 4; kk += 4)
    for (int k = kk; k < kk + 4; ++k)
      acc += A[row * K + k] * B[k * N + col];
  for (int k = K / 4 * 4; k < K; ++k)
    acc += A[row * K + k] * B[k * N + col];
  C[row * N + col] = acc;
}

// Wrong (the outer loop steps 8 over inner ranges of 4): violated.
__global__ void range_moves_gap(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                       const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                       float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K >= 1 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int kk = 0; kk < K / 4 * 4; kk += 8)
    for (int k = kk; k < kk + 4; ++k)
      acc += A[row * K + k] * B[k * N + col];
  for (int k = K / 4 * 4; k < K; ++k)
    acc += A[row * K + k] * B[k * N + col];
  C[row * N + col] = acc;
}

// Wrong (the outer loop steps 2: each k twice): violated.
__global__ void range_moves_overlap(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                       const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                       float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K >= 1 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int kk = 0; kk < K / 4 * 4; kk += 2)
    for (int k = kk; k < kk + 4; ++k)
      acc += A[row * K + k] * B[k * N + col];
  for (int k = K / 4 * 4; k < K; ++k)
    acc += A[row * K + k] * B[k * N + col];
  C[row * N + col] = acc;
}

// Correct: the inner bound min(kk + 4, K). Was violated; now unproven (a
// trip count that changes with the outer counter is not summed).
__global__ void range_moves_min(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                       const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                       float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K >= 1 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int kk = 0; kk < K; kk += 4)
    for (int k = kk; k < min(kk + 4, K); ++k)
      acc += A[row * K + k] * B[k * N + col];
  C[row * N + col] = acc;
}
