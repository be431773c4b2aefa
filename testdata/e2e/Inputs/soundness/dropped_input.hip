// Every tagged input is a factor of the einsum the tags spell: C(m, n) =
// sum_k A(m, k) B(k, n) S(n). A kernel that never multiplies by S stores
// values with the output's coordinates (B gives n), so the store check alone
// proved it, and the harness's reference, which multiplies by S, rejects it.
// Now unproven: S does not reach the stored value. The twin applies S and
// proves; a kernel with two outputs does not say which inputs are whose and
// is not asked.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

// WRONG: the column scale S is never applied.
__global__ void scale_dropped(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                              const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                              const float *S AVE_TAG("S(n < N) = n"),
                              float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
#pragma ave launch block(16, 16) grid(N / 16, M / 16)
#pragma ave assume M % 16 == 0 && N % 16 == 0 && K >= 1 && K <= 4096 && M <= 4096 && N <= 4096
  int m = blockIdx.y * 16 + threadIdx.y, n = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k)
    acc += A[m * K + k] * B[k * N + n];
  C[m * N + n] = acc;
}

// Correct: the scale applied after the reduction.
__global__ void scale_applied(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                              const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                              const float *S AVE_TAG("S(n < N) = n"),
                              float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
#pragma ave launch block(16, 16) grid(N / 16, M / 16)
#pragma ave assume M % 16 == 0 && N % 16 == 0 && K >= 1 && K <= 4096 && M <= 4096 && N <= 4096
  int m = blockIdx.y * 16 + threadIdx.y, n = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k)
    acc += A[m * K + k] * B[k * N + n];
  C[m * N + n] = acc * S[n];
}

// Not asked: two outputs, each a copy of one input.
__global__ void two_outputs(const float *A AVE_TAG("A(m < M) = m"),
                            const float *B AVE_TAG("B(m < M) = m"),
                            float *C AVE_TAG("C(m < M) = m"), float *D AVE_TAG("D(m < M) = m"),
                            int M) {
#pragma ave launch block(64) grid(M / 64)
#pragma ave assume M % 64 == 0 && M <= 65536
  int m = blockIdx.x * 64 + threadIdx.x;
  C[m] = A[m];
  D[m] = B[m];
}
