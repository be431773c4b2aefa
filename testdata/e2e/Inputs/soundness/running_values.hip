// Running values restarted or stored inside their loop. Wrong on the CPU
// executor (M=32, N=48, K=45) and proven before 2026-12-05: reset_in_loop
// (`if (k == K / 2) acc = 0.0f;`) and reset_by_ternary (`acc = (k % 8 == 0 ?
// 0.0f : acc) + x`); the join kept the running value and forgot the
// restart. Right there and violated: assigned_at_first_iteration,
// stored_every_iteration, stored_at_last_iteration (the store of a partial
// sum read as a value still depending on k). All unproven now;
// reset_at_first_iteration (right, proven before) is unproven too: a
// restart at the first iteration only is not told apart.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

__global__ void reset_in_loop(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                   const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                   float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K >= 2 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y;
  int col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) {
    if (k == K / 2) acc = 0.0f;
    acc += A[row * K + k] * B[k * N + col];
  }
  C[row * N + col] = acc;
}

__global__ void reset_by_ternary(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                   const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                   float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K >= 2 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y;
  int col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k)
    acc = (k % 8 == 0 ? 0.0f : acc) + A[row * K + k] * B[k * N + col];
  C[row * N + col] = acc;
}

__global__ void reset_at_first_iteration(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                   const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                   float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K >= 2 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y;
  int col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) {
    if (k == 0) acc = 0.0f;
    acc += A[row * K + k] * B[k * N + col];
  }
  C[row * N + col] = acc;
}

__global__ void assigned_at_first_iteration(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                   const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                   float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K >= 2 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y;
  int col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) {
    float x = A[row * K + k] * B[k * N + col];
    if (k == 0) acc = x; else acc += x;
  }
  C[row * N + col] = acc;
}

__global__ void stored_every_iteration(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                   const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                   float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K >= 2 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y;
  int col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) {
    acc += A[row * K + k] * B[k * N + col];
    C[row * N + col] = acc;
  }
}

__global__ void stored_at_last_iteration(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                   const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                   float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K >= 2 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y;
  int col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) {
    acc += A[row * K + k] * B[k * N + col];
    if (k == K - 1) C[row * N + col] = acc;
  }
}

// A GEMV that stores its running sum after each tile of 16 (the last store
// holds the whole sum): right, and the coverage of the tile's loop alone
// (16 of K) was violated. Unproven now. Its twin restarts the sum in each
// tile, so the last store holds one tile: wrong, still violated.
__global__ void stored_after_each_tile(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                                       const float *x AVE_TAG("x(k < K) = k"),
                                       float *y AVE_TAG("y(m < M) = m"), int M, int K) {
  AVE_LAUNCH(block(64) grid(M / 64))
  AVE_ASSUME(M % 64 == 0 && K >= 32 && K % 16 == 0 && M <= 8192 && K <= 8192)
  int m = blockIdx.x * 64 + threadIdx.x;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += 16) {
    for (int k = 0; k < 16; ++k)
      acc += A[m * K + k0 + k] * x[k0 + k];
    y[m] = acc;
  }
}

__global__ void tile_sum_stored_after_each_tile(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                                                const float *x AVE_TAG("x(k < K) = k"),
                                                float *y AVE_TAG("y(m < M) = m"), int M, int K) {
  AVE_LAUNCH(block(64) grid(M / 64))
  AVE_ASSUME(M % 64 == 0 && K >= 32 && K % 16 == 0 && M <= 8192 && K <= 8192)
  int m = blockIdx.x * 64 + threadIdx.x;
  for (int k0 = 0; k0 < K; k0 += 16) {
    float acc = 0.0f;
    for (int k = 0; k < 16; ++k)
      acc += A[m * K + k0 + k] * x[k0 + k];
    y[m] = acc;
  }
}
