// MUTANT-OF: ../../naive_gemm.hip
// EXPECT: reduction-coverage line 19
// Seeded bug: the first k is not accumulated
// Naive SGEMM, C = A * B: one thread per element of C, the k loop reads A and
// B straight from global memory (no LDS). The baseline every rewrite starts
// from; annotated with the AVE_* macros instead of raw pragmas.
// Launch: block(16, 16), grid(N / 16, M / 16).
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

__global__ void naive_gemm(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                           const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                           float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K >= 1 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y;
  int col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) {
    float a = A[row * K + k];
    float b = B[k * N + col];
    AVE_ASSERT(tag(a) == A(row, k) && tag(b) == B(k, col))
    if (k > 0) acc += a * b; // MUTATION: k = 0 never accumulated
  }
  C[row * N + col] = acc;
}
