// A dot product whose k loop may stop early: what the sum covers depends on
// the data, so reduction coverage cannot be proven.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

__global__ void break_reduction(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                                const float *B AVE_TAG("B(k < K) = k"),
                                float *C AVE_TAG("C(m < M) = m"), int M, int K) {
#pragma ave launch block(64) grid(M / 64)
#pragma ave assume M % 64 == 0 && K >= 1 && K <= 32768 && M <= 32768
  int m = blockIdx.x * 64 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) {
    float a = A[m * K + k];
    if (a == 0.0f)
      break;
    acc += a * B[k];
  }
  C[m] = acc;
}
