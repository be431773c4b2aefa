// Constant stores into an output that also gets computed values. The tags'
// einsum has no constant element: a constant store is right only as an
// initialisation the same thread overwrites later. Wrong: a constant stored
// after the computed value (one column zeroed), on the other side of an
// if/else from it, into another thread's element, or a parameter stored
// over the value: each was proven (output-written counted the constant
// store as a write, and nothing checked its value). The if/else one is
// violated (an element no computed store reaches), the others unproven.
// Correct: a zero stored first and the value after proves.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

// Wrong: unproven.
__global__ void zero_after(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                       const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                       float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && K >= 16 && K <= 32768 && M <= 32768 &&
             N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k)
    acc += A[row * K + k] * B[k * N + col];
  C[row * N + col] = acc;
  if (col == 3)
    C[row * N + col] = 0.0f;
}

// Wrong: violated (column 3 gets no computed value).
__global__ void zero_on_one_side(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                       const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                       float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && K >= 16 && K <= 32768 && M <= 32768 &&
             N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k)
    acc += A[row * K + k] * B[k * N + col];
  if (col == 3)
    C[row * N + col] = 0.0f;
  else
    C[row * N + col] = acc;
}

// Wrong: unproven (thread (N - 1, 0) zeroes the element thread (3, 0) computes).
__global__ void zero_elsewhere(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                       const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                       float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && K >= 16 && K <= 32768 && M <= 32768 &&
             N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k)
    acc += A[row * K + k] * B[k * N + col];
  C[row * N + col] = acc;
  if (row == 0 && col == N - 1)
    C[3] = 0.0f;
}

// Wrong: unproven.
__global__ void parameter_after(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                       const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                       float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && K >= 16 && K <= 32768 && M <= 32768 &&
             N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k)
    acc += A[row * K + k] * B[k * N + col];
  C[row * N + col] = acc;
  if (col == 3)
    C[row * N + col] = (float)K;
}

// Correct: proven.
__global__ void zero_first(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                       const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                       float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && K >= 16 && K <= 32768 && M <= 32768 &&
             N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
  C[row * N + col] = 0.0f;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k)
    acc += A[row * K + k] * B[k * N + col];
  C[row * N + col] = acc;
}
