// Whether a coordinate changes with a loop decides whether the loop sums it
// away. An answer the solver did not give, or gave only through a value the
// analysis approximates, decides nothing: the value is unknown and what
// reads it unproven. Both were taken as "changes": this correct kernel was
// reported violated four ways (m summed over k, counted twice, not covered,
// the store without m), and the soundness fuzzer's mma_sync_tile#182 (a
// short lane id, a signed char fragment index) as summing over n.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

__global__ void rowThroughDivision(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                                   const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                                   float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N,
                                   int K) {
#pragma ave launch block(16, 16) grid(N / 16, M / 16)
#pragma ave assume M % 16 == 0 && N % 16 == 0 && K >= 1 && K <= 32768 && M <= 32768 && N <= 32768
  int row = blockIdx.y * 16 + threadIdx.y;
  int col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) {
    int r = (row * K + k) / K;
    acc += A[r * K + k] * B[k * N + col];
  }
  C[row * N + col] = acc;
}
