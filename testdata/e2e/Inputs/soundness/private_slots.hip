// A private array written by a loop holds the loop's value only at the
// elements its counter takes; elsewhere it keeps what it held before (or is
// uninitialised). Each wrong kernel stores a slot its loop skipped; each
// twin covers every slot in an unusual way.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

// The accumulation loop starts at 1 (attention_fwd's mutant #170): acc[0]
// is stored without ever being accumulated.
__global__ void skips_slot(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                           const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                           float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(64) grid(N / 256, M))
  AVE_ASSUME(N % 256 == 0 && M >= 1 && K >= 1 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y;
  int col0 = (blockIdx.x * 64 + threadIdx.x) * 4;
  float acc[4];
  for (int e = 0; e < 4; ++e)
    acc[e] = 0.0f;
  for (int k = 0; k < K; ++k) {
    float a = A[row * K + k];
    for (int e = 1; e < 4; ++e)
      acc[e] += a * B[k * N + col0 + e];
  }
  for (int e = 0; e < 4; ++e)
    C[row * N + col0 + e] = acc[e];
}

// The initialisation starts at 1: acc[0] is accumulated from an
// indeterminate value.
__global__ void uninitialised_slot(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                                   const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                                   float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N,
                                   int K) {
  AVE_LAUNCH(block(64) grid(N / 256, M))
  AVE_ASSUME(N % 256 == 0 && M >= 1 && K >= 1 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y;
  int col0 = (blockIdx.x * 64 + threadIdx.x) * 4;
  float acc[4];
  for (int e = 1; e < 4; ++e)
    acc[e] = 0.0f;
  for (int k = 0; k < K; ++k) {
    float a = A[row * K + k];
    for (int e = 0; e < 4; ++e)
      acc[e] += a * B[k * N + col0 + e];
  }
  for (int e = 0; e < 4; ++e)
    C[row * N + col0 + e] = acc[e];
}

// The twin: even and odd slots initialised by two strided loops.
__global__ void strided_init(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                             const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                             float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(64) grid(N / 256, M))
  AVE_ASSUME(N % 256 == 0 && M >= 1 && K >= 1 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y;
  int col0 = (blockIdx.x * 64 + threadIdx.x) * 4;
  float acc[4];
  for (int e = 0; e < 4; e += 2)
    acc[e] = 0.0f;
  for (int e = 1; e < 4; e += 2)
    acc[e] = 0.0f;
  for (int k = 0; k < K; ++k) {
    float a = A[row * K + k];
    for (int e = 0; e < 4; ++e)
      acc[e] += a * B[k * N + col0 + e];
  }
  for (int e = 0; e < 4; ++e)
    C[row * N + col0 + e] = acc[e];
}

// A slot written past the end of the array (e <= 4) touches other memory:
// not given a value.
__global__ void past_the_end(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                             const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                             float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(64) grid(N / 256, M))
  AVE_ASSUME(N % 256 == 0 && M >= 1 && K >= 1 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y;
  int col0 = (blockIdx.x * 64 + threadIdx.x) * 4;
  float acc[4];
  for (int e = 0; e < 4; ++e)
    acc[e] = 0.0f;
  for (int k = 0; k < K; ++k) {
    float a = A[row * K + k];
    for (int e = 0; e <= 4; ++e)
      acc[e] += a * B[k * N + col0 + e % 4];
  }
  for (int e = 0; e < 4; ++e)
    C[row * N + col0 + e] = acc[e];
}
