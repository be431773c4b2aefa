// 32-bit index overflow. `row * K` is computed in int: at M = K = 65536 it
// passes INT_MAX, which C leaves undefined (in practice it wraps to a
// negative offset). Without an assumption that bounds the sizes, that is a
// violation; with one, the same kernel proves. An index computed in 64 bits
// is not asked. INT_MAX names the bound where <climits> is included.
#include <ave/annotations.h>
#include <climits>
#include <hip/hip_runtime.h>

// Wrong at M = K = 65536: m * K passes INT_MAX.
__global__ void unbounded(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                          float *S AVE_TAG("S(m < M) = m"), int M, int K) {
#pragma ave launch block(64) grid(M / 64)
#pragma ave assume M % 64 == 0 && K >= 1
  int m = blockIdx.x * 64 + threadIdx.x;
  float Acc = 0.0f;
  for (int k = 0; k < K; ++k)
    Acc += A[m * K + k];
  S[m] = Acc;
}

// Correct: each size bounded, M * K <= 2^30.
__global__ void bounded(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                        float *S AVE_TAG("S(m < M) = m"), int M, int K) {
#pragma ave launch block(64) grid(M / 64)
#pragma ave assume M % 64 == 0 && K >= 1 && M <= 16384 && K <= 65536
  int m = blockIdx.x * 64 + threadIdx.x;
  float Acc = 0.0f;
  for (int k = 0; k < K; ++k)
    Acc += A[m * K + k];
  S[m] = Acc;
}

// Correct: the product bounded.
__global__ void productBounded(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                               float *S AVE_TAG("S(m < M) = m"), int M, int K) {
#pragma ave launch block(64) grid(M / 64)
#pragma ave assume M % 64 == 0 && K >= 1 && M * K <= INT_MAX
  int m = blockIdx.x * 64 + threadIdx.x;
  float Acc = 0.0f;
  for (int k = 0; k < K; ++k)
    Acc += A[m * K + k];
  S[m] = Acc;
}

// Correct: the index is computed in 64 bits.
__global__ void wide(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                     float *S AVE_TAG("S(m < M) = m"), int M, int K) {
#pragma ave launch block(64) grid(M / 64)
#pragma ave assume M % 64 == 0 && K >= 1
  int m = blockIdx.x * 64 + threadIdx.x;
  float Acc = 0.0f;
  for (int k = 0; k < K; ++k)
    Acc += A[(long)m * K + k];
  S[m] = Acc;
}

// Wrong: bounds that still admit M * K = 2^32.
__global__ void tooSmallBound(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                              float *S AVE_TAG("S(m < M) = m"), int M, int K) {
#pragma ave launch block(64) grid(M / 64)
#pragma ave assume M % 64 == 0 && K >= 1 && M <= 65536 && K <= 65536
  int m = blockIdx.x * 64 + threadIdx.x;
  float Acc = 0.0f;
  for (int k = 0; k < K; ++k)
    Acc += A[m * K + k];
  S[m] = Acc;
}

// Wrong too, but the guard is computed from the overflowing index: where it
// overflows, the analysis does not follow the guard (unproven).
__global__ void guarded(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                        float *S AVE_TAG("S(m < M) = m"), int M, int K) {
#pragma ave launch block(64) grid(M / 64)
#pragma ave assume M % 64 == 0 && K >= 1
  int m = blockIdx.x * 64 + threadIdx.x;
  float Acc = 0.0f;
  for (int k = 0; k < K; ++k) {
    int I = m * K + k;
    if (I >= 0)
      Acc += A[I];
  }
  S[m] = Acc;
}
