// Issue 11, class 3: integer conversions were evaluated as the int they
// came from. A conversion to a narrower type is C's: the value where the
// target holds it, the value modulo 2^bits in the target's range elsewhere.
// A possibly negative int converted to a 32-bit unsigned, which wraps, is
// the int where it is not negative and a value the analysis does not follow
// where it is: what depends on the wrap is unproven, never decided on the
// int (which made the correct unsigned_guard_wraps violated at j = 0).
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

// Wrong for K > 65536: the unsigned short index wraps. Was proven, then
// unproven; violated at K = 65537.
__global__ void ushort_index(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                             float *Y AVE_TAG("Y(m < M) = m"), int M, int K) {
  AVE_LAUNCH(block(64) grid(M / 64))
  AVE_ASSUME(M % 64 == 0 && K >= 1 && K <= 1048576 && M <= 1024)
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
  AVE_ASSUME(M % 64 == 0 && K >= 1 && K <= 4096 && K <= 32768 && M <= 32768)
  int m = blockIdx.x * 64 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) {
    unsigned short kk = k;
    acc += A[m * K + kk];
  }
  Y[m] = acc;
}

// Correct: the same guard on a value that is never negative is exact.
__global__ void unsigned_guard_exact(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                                     float *Y AVE_TAG("Y(m < M) = m"), int M, int K) {
  AVE_LAUNCH(block(64) grid(M / 64))
  AVE_ASSUME(M % 64 == 0 && K >= 1 && K <= 32768 && M <= 32768)
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
  AVE_ASSUME(M % 64 == 0 && K >= 1 && K <= 32768 && M <= 32768)
  int m = blockIdx.x * 64 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) {
    unsigned u = k;
    acc += A[m * K + u];
  }
  Y[m] = acc;
}

// Correct: at j = 0, j - 1 wraps to 4294967295 and the guard skips it. Taken
// as the int, the read of A[m * K - 1] was reported out of bounds.
__global__ void unsigned_guard_wraps(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                                     float *Y AVE_TAG("Y(m < M) = m"), int M, int K) {
  AVE_LAUNCH(block(64) grid(M / 64))
  AVE_ASSUME(M % 64 == 0 && K >= 1 && K <= 32768 && M <= 32768)
  int m = blockIdx.x * 64 + threadIdx.x;
  float acc = 0.0f;
  for (int j = 0; j <= K; ++j)
    if (j - 1 < (unsigned)K)
      acc += A[m * K + j - 1];
  Y[m] = acc;
}
