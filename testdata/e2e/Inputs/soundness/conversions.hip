// Issue 11, class 3: integer conversions were evaluated as the int they
// came from. A conversion that may change the value (to a narrower type, or
// a possibly negative int to unsigned, which wraps) is not followed: what
// depends on it is unproven. One that provably keeps it is exact.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

// Wrong for K > 65536: the unsigned short index wraps. Was proven.
__global__ void ushort_index(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                             float *Y AVE_TAG("Y(m < M) = m"), int M, int K) {
  AVE_LAUNCH(block(64) grid(M / 64))
  AVE_ASSUME(M % 64 == 0 && K >= 1)
  int m = blockIdx.x * 64 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) {
    unsigned short kk = k;
    acc += A[m * K + kk];
  }
  Y[m] = acc;
}

// Correct: K fits an unsigned short.
__global__ void ushort_index_fits(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                                  float *Y AVE_TAG("Y(m < M) = m"), int M, int K) {
  AVE_LAUNCH(block(64) grid(M / 64))
  AVE_ASSUME(M % 64 == 0 && K >= 1 && K <= 4096)
  int m = blockIdx.x * 64 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) {
    unsigned short kk = k;
    acc += A[m * K + kk];
  }
  Y[m] = acc;
}

// Wrong: `k - 1 < (unsigned)K` compares unsigned, so at k = 0 the guard is
// false (k - 1 is 4294967295) and index K - 1 is never summed. It was
// taken as -1 < K: the guard true, the read of A[m * K - 1] "violated", a
// read that never happens. The conversion is not followed: unproven.
__global__ void unsigned_guard(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                               float *Y AVE_TAG("Y(m < M) = m"), int M, int K) {
  AVE_LAUNCH(block(64) grid(M / 64))
  AVE_ASSUME(M % 64 == 0 && K >= 1)
  int m = blockIdx.x * 64 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k)
    if (k - 1 < (unsigned)K)
      acc += A[m * K + k - 1];
  Y[m] = acc;
}

// Correct: the same guard on a value that is never negative is exact.
__global__ void unsigned_guard_exact(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                                     float *Y AVE_TAG("Y(m < M) = m"), int M, int K) {
  AVE_LAUNCH(block(64) grid(M / 64))
  AVE_ASSUME(M % 64 == 0 && K >= 1)
  int m = blockIdx.x * 64 + threadIdx.x;
  float acc = 0.0f;
  for (int j = 1; j <= K; ++j)
    if (j - 1 < (unsigned)K)
      acc += A[m * K + j - 1];
  Y[m] = acc;
}

// Correct: a non-negative int converted to unsigned keeps its value.
__global__ void unsigned_index(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                               float *Y AVE_TAG("Y(m < M) = m"), int M, int K) {
  AVE_LAUNCH(block(64) grid(M / 64))
  AVE_ASSUME(M % 64 == 0 && K >= 1)
  int m = blockIdx.x * 64 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) {
    unsigned u = k;
    acc += A[m * K + u];
  }
  Y[m] = acc;
}
