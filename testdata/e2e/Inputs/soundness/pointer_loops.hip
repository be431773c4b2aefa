// Pointers a loop moves (`acc += *a++ * *b; b += N;`): a pointer that moves
// by the same launch-fixed amount in every iteration of a canonical `for`
// has its value in that iteration. The walk over A's row and B's column
// proves, in one loop and across a tiled pair of loops; forgetting to move
// b, or moving a by 2, is violated. A pointer reset in the body, one moved
// under a condition, and one moved in a loop that is not a canonical `for`
// are not followed (unproven). A pointer assigned in a loop kept its entry
// value: every walk read one element K times (violated), and the reset one
// was proven.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

// correct
__global__ void row_column_walk(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                       const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                       float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K % 4 == 0 && M >= 16 && N >= 16 && K >= 4 &&
             M <= 4096 && N <= 4096 && K <= 4096)
  int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
  const float *a = A + row * K;
  const float *b = B + col;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) {
    acc += *a++ * *b;
    b += N;
  }
  C[row * N + col] = acc;
}

// correct
__global__ void tiled_walk(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                       const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                       float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K % 4 == 0 && M >= 16 && N >= 16 && K >= 4 &&
             M <= 4096 && N <= 4096 && K <= 4096)
  int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
  const float *a = A + row * K;
  const float *b = B + col;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += 4) {
    for (int k = 0; k < 4; ++k) {
      acc += *a++ * *b;
      b += N;
    }
  }
  C[row * N + col] = acc;
}

// wrong
__global__ void b_not_moved(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                       const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                       float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K % 4 == 0 && M >= 16 && N >= 16 && K >= 4 &&
             M <= 4096 && N <= 4096 && K <= 4096)
  int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
  const float *a = A + row * K;
  const float *b = B + col;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k)
    acc += *a++ * *b;
  C[row * N + col] = acc;
}

// wrong
__global__ void a_moved_by_two(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                       const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                       float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K % 4 == 0 && M >= 16 && N >= 16 && K >= 4 &&
             M <= 4096 && N <= 4096 && K <= 4096)
  int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
  const float *a = A + row * K;
  const float *b = B + col;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) {
    acc += *a * *b;
    a += 2;
    b += N;
  }
  C[row * N + col] = acc;
}

// correct only for row 0
__global__ void reset_in_body(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                       const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                       float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K % 4 == 0 && M >= 16 && N >= 16 && K >= 4 &&
             M <= 4096 && N <= 4096 && K <= 4096)
  int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
  const float *a = A + row * K;
  const float *b = B + col;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) {
    acc += a[k] * B[k * N + col];
    a = A;
  }
  C[row * N + col] = acc;
}

// wrong
__global__ void moved_under_condition(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                       const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                       float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K % 4 == 0 && M >= 16 && N >= 16 && K >= 4 &&
             M <= 4096 && N <= 4096 && K <= 4096)
  int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
  const float *a = A + row * K;
  const float *b = B + col;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) {
    acc += *a * *b;
    if (k % 2)
      a += 2;
    b += N;
  }
  C[row * N + col] = acc;
}

// correct
__global__ void while_walk(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                       const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                       float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K % 4 == 0 && M >= 16 && N >= 16 && K >= 4 &&
             M <= 4096 && N <= 4096 && K <= 4096)
  int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
  const float *a = A + row * K;
  const float *b = B + col;
  float acc = 0.0f;
  int k = 0;
  while (k < K) {
    acc += *a++ * *b;
    b += N;
    ++k;
  }
  C[row * N + col] = acc;
}
