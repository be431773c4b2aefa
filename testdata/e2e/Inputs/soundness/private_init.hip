// Private arrays given an initialiser list. A 2x2 register tile from
// `{{0.0f, 0.0f}, {0.0f, 0.0f}}`, `{0.0f}`, `{}` or `{{0.0f}, {}}` starts at
// zero (the elements a list leaves out are zero, as in C), and proves; it
// was "never written" (unproven) unless every element was listed in one
// flat list. A tile whose first element starts at 1.0f is off by one in
// that element: unproven, with the start (it was proven: reading a slot at
// any index dropped the slots' constants). Without an initialiser the
// elements are unknown.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

__global__ void nested_zeros(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                       const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                       float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 32, M / 32))
  AVE_ASSUME(M % 32 == 0 && N % 32 == 0 && M >= 32 && N >= 32 && K >= 1 && M <= 4096 &&
             N <= 4096 && K <= 4096)
  int r0 = blockIdx.y * 32 + threadIdx.y * 2, c0 = blockIdx.x * 32 + threadIdx.x * 2;
  float acc[2][2] = {{0.0f, 0.0f}, {0.0f, 0.0f}};
  for (int k = 0; k < K; ++k)
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j)
        acc[i][j] += A[(r0 + i) * K + k] * B[k * N + c0 + j];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      C[(r0 + i) * N + c0 + j] = acc[i][j];
}

__global__ void first_zero(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                       const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                       float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 32, M / 32))
  AVE_ASSUME(M % 32 == 0 && N % 32 == 0 && M >= 32 && N >= 32 && K >= 1 && M <= 4096 &&
             N <= 4096 && K <= 4096)
  int r0 = blockIdx.y * 32 + threadIdx.y * 2, c0 = blockIdx.x * 32 + threadIdx.x * 2;
  float acc[2][2] = {0.0f};
  for (int k = 0; k < K; ++k)
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j)
        acc[i][j] += A[(r0 + i) * K + k] * B[k * N + c0 + j];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      C[(r0 + i) * N + c0 + j] = acc[i][j];
}

__global__ void empty_list(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                       const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                       float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 32, M / 32))
  AVE_ASSUME(M % 32 == 0 && N % 32 == 0 && M >= 32 && N >= 32 && K >= 1 && M <= 4096 &&
             N <= 4096 && K <= 4096)
  int r0 = blockIdx.y * 32 + threadIdx.y * 2, c0 = blockIdx.x * 32 + threadIdx.x * 2;
  float acc[2][2] = {};
  for (int k = 0; k < K; ++k)
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j)
        acc[i][j] += A[(r0 + i) * K + k] * B[k * N + c0 + j];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      C[(r0 + i) * N + c0 + j] = acc[i][j];
}

__global__ void rows_partial(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                       const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                       float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 32, M / 32))
  AVE_ASSUME(M % 32 == 0 && N % 32 == 0 && M >= 32 && N >= 32 && K >= 1 && M <= 4096 &&
             N <= 4096 && K <= 4096)
  int r0 = blockIdx.y * 32 + threadIdx.y * 2, c0 = blockIdx.x * 32 + threadIdx.x * 2;
  float acc[2][2] = {{0.0f}, {}};
  for (int k = 0; k < K; ++k)
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j)
        acc[i][j] += A[(r0 + i) * K + k] * B[k * N + c0 + j];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      C[(r0 + i) * N + c0 + j] = acc[i][j];
}

__global__ void first_one(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                       const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                       float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 32, M / 32))
  AVE_ASSUME(M % 32 == 0 && N % 32 == 0 && M >= 32 && N >= 32 && K >= 1 && M <= 4096 &&
             N <= 4096 && K <= 4096)
  int r0 = blockIdx.y * 32 + threadIdx.y * 2, c0 = blockIdx.x * 32 + threadIdx.x * 2;
  float acc[2][2] = {1.0f};
  for (int k = 0; k < K; ++k)
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j)
        acc[i][j] += A[(r0 + i) * K + k] * B[k * N + c0 + j];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      C[(r0 + i) * N + c0 + j] = acc[i][j];
}

__global__ void no_initialiser(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                       const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                       float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 32, M / 32))
  AVE_ASSUME(M % 32 == 0 && N % 32 == 0 && M >= 32 && N >= 32 && K >= 1 && M <= 4096 &&
             N <= 4096 && K <= 4096)
  int r0 = blockIdx.y * 32 + threadIdx.y * 2, c0 = blockIdx.x * 32 + threadIdx.x * 2;
  float acc[2][2] ;
  for (int k = 0; k < K; ++k)
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j)
        acc[i][j] += A[(r0 + i) * K + k] * B[k * N + c0 + j];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      C[(r0 + i) * N + c0 + j] = acc[i][j];
}

// Wrong, and proven before: a flat list whose first element starts at 1.0f.
__global__ void flat_first_one(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                               const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                               float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N,
                               int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 64, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 64 == 0 && M >= 16 && N >= 64 && K >= 1 && M <= 4096 &&
             N <= 4096 && K <= 4096)
  int r = blockIdx.y * 16 + threadIdx.y, c0 = blockIdx.x * 64 + threadIdx.x * 4;
  float acc[4] = {1.0f, 0.0f, 0.0f, 0.0f};
  for (int k = 0; k < K; ++k)
    for (int j = 0; j < 4; ++j)
      acc[j] += A[r * K + k] * B[k * N + c0 + j];
  for (int j = 0; j < 4; ++j)
    C[r * N + c0 + j] = acc[j];
}
