// An index that may leave a private (register) array is an `in-bounds`
// obligation of its own: violated with the thread and the counter where it
// leaves, where the analysis follows the index; the CPU executor's
// bounds-checked builds trap there. Each wrong kernel has a twin that
// stays inside in an unusual way.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

#define TAGS                                                                                       \
  const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),                                           \
      const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),                                       \
      float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K
#define SPEC                                                                                       \
  AVE_LAUNCH(block(64) grid(N / 256, M))                                                           \
  AVE_ASSUME(N % 256 == 0 && M >= 1 && K >= 1 && K <= 32768 && M <= 32768 && N <= 32768)

// Wrong: the slot loop starts one below the array (acc[-1] at e = 0).
__global__ void startsBelow(TAGS) {
  SPEC
  int row = blockIdx.y, col0 = (blockIdx.x * 64 + threadIdx.x) * 4;
  float acc[4];
  for (int e = 0; e < 4; ++e)
    acc[e] = 0.0f;
  for (int k = 0; k < K; ++k)
    for (int e = 0; e < 4; ++e)
      acc[e - 1] += A[row * K + k] * B[k * N + col0 + e];
  for (int e = 0; e < 4; ++e)
    C[row * N + col0 + e] = acc[e];
}

// Twin: the loop runs one past the array, and a guard keeps the last pass
// out of it.
__global__ void guardedPastTheEnd(TAGS) {
  SPEC
  int row = blockIdx.y, col0 = (blockIdx.x * 64 + threadIdx.x) * 4;
  float acc[4];
  for (int e = 0; e < 4; ++e)
    acc[e] = 0.0f;
  for (int k = 0; k < K; ++k)
    for (int e = 0; e <= 4; ++e)
      if (e < 4)
        acc[e] += A[row * K + k] * B[k * N + col0 + e];
  for (int e = 0; e < 4; ++e)
    C[row * N + col0 + e] = acc[e];
}

// Wrong: the zeroing loop's index comes from the thread (threadIdx.x % 8
// reaches 7 over a 4-element array).
__global__ void threadIndexed(TAGS) {
  SPEC
  int row = blockIdx.y, col0 = (blockIdx.x * 64 + threadIdx.x) * 4;
  float acc[4];
  for (int e = 0; e < 4; ++e)
    acc[e] = 0.0f;
  acc[threadIdx.x % 8] = 0.0f;
  for (int k = 0; k < K; ++k)
    for (int e = 0; e < 4; ++e)
      acc[e] += A[row * K + k] * B[k * N + col0 + e];
  for (int e = 0; e < 4; ++e)
    C[row * N + col0 + e] = acc[e];
}

// Twin: the same store with the index masked to the array.
__global__ void threadIndexedMasked(TAGS) {
  SPEC
  int row = blockIdx.y, col0 = (blockIdx.x * 64 + threadIdx.x) * 4;
  float acc[4];
  acc[threadIdx.x & 3] = 0.0f;
  for (int e = 0; e < 4; ++e)
    acc[e] = 0.0f;
  for (int k = 0; k < K; ++k)
    for (int e = 0; e < 4; ++e)
      acc[e] += A[row * K + k] * B[k * N + col0 + e];
  for (int e = 0; e < 4; ++e)
    C[row * N + col0 + e] = acc[e];
}
