// Local scalars changed through another name: a pointer, a reference, a
// helper taking a non-const reference, a lambda capturing by reference.
// Found 2026-12-05 with kernels of my own: the wrong ones were proven (the
// analysis saw no assignment and kept the old value); each is wrong on the
// CPU executor. Now every read of such a variable is a value the analysis
// does not follow.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

// Wrong (reads row * K + 2k): `bump(ia)`, an undefined helper taking int&.
// Was proven (the call left ia as it was); now unproven.
__device__ void bump_through_opaque_helper(int &x);
__global__ void through_opaque_helper(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                           const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                           float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K >= 1 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y;
  int col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  int ia = row * K;
  for (int k = 0; k < K; ++k) {
    acc += A[ia + k] * B[k * N + col];
    bump_through_opaque_helper(ia);
  }
  C[row * N + col] = acc;
}

// Wrong: the same with a helper that adds 2 through its reference. Was
// proven; now unproven.
__device__ void bump_through_helper(int &x) { x += 2; }
__global__ void through_helper(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                           const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                           float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K >= 1 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y;
  int col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  int ia = row * K;
  for (int k = 0; k < K; ++k) {
    acc += A[ia + k] * B[k * N + col];
    bump_through_helper(ia);
  }
  C[row * N + col] = acc;
}

// Wrong: `int *p = &ia;` before the loop, `*p += 1` in it. Was proven; now
// unproven.
__global__ void through_pointer(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                           const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                           float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K >= 1 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y;
  int col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  int ia = row * K;
  int *p = &ia;
  for (int k = 0; k < K; ++k) {
    acc += A[ia + k] * B[k * N + col];
    *p += 1;
  }
  C[row * N + col] = acc;
}

// Wrong: `int &r = ia;` before the loop, `r += 1` in it. Was proven; now
// unproven.
__global__ void through_reference(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                           const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                           float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K >= 1 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y;
  int col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  int ia = row * K;
  int &r = ia;
  for (int k = 0; k < K; ++k) {
    acc += A[ia + k] * B[k * N + col];
    r += 1;
  }
  C[row * N + col] = acc;
}

// Wrong: a lambda capturing ia by reference adds 1. Was proven; now
// unproven.
__global__ void through_lambda(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                           const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                           float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K >= 1 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y;
  int col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  int ia = row * K;
  auto step = [&]() { ia += 1; };
  for (int k = 0; k < K; ++k) {
    acc += A[ia + k] * B[k * N + col];
    step();
  }
  C[row * N + col] = acc;
}

// Wrong: the offset kept in an int array, `o[0] += 1`. Was violated with a
// counterexample at K = 1, where the kernel is right; now unproven.
__global__ void in_integer_array(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                           const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                           float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K >= 1 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y;
  int col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  int o[1];
  o[0] = row * K;
  for (int k = 0; k < K; ++k) {
    acc += A[o[0] + k] * B[k * N + col];
    o[0] += 1;
  }
  C[row * N + col] = acc;
}

// Correct: a helper taking the offset by const reference: proves.
__device__ int offset(const int &x, int k) { return x + k; }
__global__ void const_reference(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                           const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                           float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K >= 1 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y;
  int col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  int ia = row * K;
  for (int k = 0; k < K; ++k)
    acc += A[offset(ia, k)] * B[k * N + col];
  C[row * N + col] = acc;
}
