// `assume tag(v) == A(...)` is for values the analysis cannot see. On a value
// it follows, the assumption was taken on trust: `v = A[m*K + min(k + 1, K -
// 1)]` assumed to be A(m, k) was proven (found by an adversarial run). Now
// the assumption is asserted on the value the analysis follows: violated
// there, proven where it agrees; an opaque value keeps the assumption.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

__device__ float opaque(float x);

__global__ void assumed_wrong(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                              float *S AVE_TAG("S(m < M) = m"), int M, int K) {
#pragma ave launch block(64) grid(M / 64)
#pragma ave assume M % 64 == 0 && K >= 2 && K <= 4096 && M <= 4096
  int m = blockIdx.x * 64 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) {
    float v = A[m * K + min(k + 1, K - 1)];
#pragma ave assume tag(v) == A(m, k)
    acc += v;
  }
  S[m] = acc;
}

__global__ void assumed_right(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                              float *S AVE_TAG("S(m < M) = m"), int M, int K) {
#pragma ave launch block(64) grid(M / 64)
#pragma ave assume M % 64 == 0 && K >= 2 && K <= 4096 && M <= 4096
  int m = blockIdx.x * 64 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) {
    float v = A[m * K + k];
#pragma ave assume tag(v) == A(m, k)
    acc += v;
  }
  S[m] = acc;
}

__global__ void assumed_opaque(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                               float *S AVE_TAG("S(m < M) = m"), int M, int K) {
#pragma ave launch block(64) grid(M / 64)
#pragma ave assume M % 64 == 0 && K >= 2 && K <= 4096 && M <= 4096
  int m = blockIdx.x * 64 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) {
    float v = opaque(A[m * K + k]);
#pragma ave assume tag(v) == A(m, k)
    acc += v;
  }
  S[m] = acc;
}
