// Sums and differences of tagged values. The tags' einsum is a sum of
// products of one element of each input. Wrong: `A[..] + B[..]` merged the
// two elements' coordinates like a product and was proven; `acc - acc`
// (zero) was proven; the difference of two partial sums was violated only
// as halves of K that neither covers. Each is now also unproven with the
// arithmetic. Correct: two partial sums over the
// halves of K, added, prove.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

// Wrong: unproven.
__global__ void sum_not_product(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                       const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                       float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && K >= 16 && K <= 32768 && M <= 32768 &&
             N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k)
    acc += A[row * K + k] + B[k * N + col];
  C[row * N + col] = acc;
}

// Wrong: unproven.
__global__ void self_difference(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                       const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                       float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && K >= 16 && K <= 32768 && M <= 32768 &&
             N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k)
    acc += A[row * K + k] * B[k * N + col];
  C[row * N + col] = acc - acc;
}

// Wrong: unproven.
__global__ void partial_difference(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                       const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                       float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && K >= 16 && K <= 32768 && M <= 32768 &&
             N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
  float even = 0.0f, odd = 0.0f;
  for (int k = 0; k < K; k += 2) {
    even += A[row * K + k] * B[k * N + col];
    odd += A[row * K + k + 1] * B[(k + 1) * N + col];
  }
  C[row * N + col] = even - odd;
}

// Correct: proven.
__global__ void partial_sum(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                       const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                       float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && K >= 16 && K <= 32768 && M <= 32768 &&
             N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
  float even = 0.0f, odd = 0.0f;
  for (int k = 0; k < K; k += 2) {
    even += A[row * K + k] * B[k * N + col];
    odd += A[row * K + k + 1] * B[(k + 1) * N + col];
  }
  C[row * N + col] = even + odd;
}
