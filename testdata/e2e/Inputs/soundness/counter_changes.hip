// Loop counters that change other than by the loop's step. Wrong: the body
// skips k = 4 by assigning the counter (`k += (k == 3)`), through a pointer
// to it, through a reference, and in a lambda that captures it: each was
// proven (the loop was taken as canonical, k = 0, 1, ..., K - 1) and is
// unproven now (widened). Correct: a counter that the condition decrements
// (`k-- > 0`) and one that it increments (`k++ < K`) were *violated* ("the
// value still depends on 'k', which no loop reduced": k kept one value) and
// are unproven now, as loops the analysis widens.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

// Wrong: unproven.
__global__ void skip_in_body(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                       const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                       float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && K >= 16 && K <= 32768 && M <= 32768 &&
             N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) {
    acc += A[row * K + k] * B[k * N + col];
    k += (k == 3);
  }
  C[row * N + col] = acc;
}

// Wrong: unproven.
__global__ void skip_by_pointer(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                       const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                       float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && K >= 16 && K <= 32768 && M <= 32768 &&
             N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) {
    acc += A[row * K + k] * B[k * N + col];
    int *p = &k;
    *p += (k == 3);
  }
  C[row * N + col] = acc;
}

// Wrong: unproven.
__global__ void skip_by_reference(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                       const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                       float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && K >= 16 && K <= 32768 && M <= 32768 &&
             N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) {
    acc += A[row * K + k] * B[k * N + col];
    int &r = k;
    r += (k == 3);
  }
  C[row * N + col] = acc;
}

// Wrong: unproven.
__global__ void skip_in_lambda(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                       const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                       float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && K >= 16 && K <= 32768 && M <= 32768 &&
             N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) {
    acc += A[row * K + k] * B[k * N + col];
    auto bump = [&]() { k += (k == 3); };
    bump();
  }
  C[row * N + col] = acc;
}

// Correct: unproven, not violated.
__global__ void down_in_condition(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                       const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                       float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && K >= 16 && K <= 32768 && M <= 32768 &&
             N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int k = K; k-- > 0;)
    acc += A[row * K + k] * B[k * N + col];
  C[row * N + col] = acc;
}

// Correct: unproven, not violated.
__global__ void up_in_condition(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                       const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                       float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && K >= 16 && K <= 32768 && M <= 32768 &&
             N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  int k = 0;
  while (k++ < K)
    acc += A[row * K + k - 1] * B[(k - 1) * N + col];
  C[row * N + col] = acc;
}

// Correct: proven (the twin).
__global__ void canonical(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
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
}
