// A contracted name reduced without a loop (issue: a correct kernel was
// violated, "the value still depends on 'k', which no loop reduced", with a
// counterexample execution does not reproduce). One term is wrong only where
// the domain has another index (K == 1: S[m] = A[m] is right); terms written
// out must cover the domain once; a term beside a reduction the analysis did
// not join it to (a while loop's tail) is unproven, not violated.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

// Correct: K is fixed at 4 by the assumption, the sum written out.
__global__ void fixed_k4(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                         float *S AVE_TAG("S(m < M) = m"), int M, int K) {
#pragma ave launch block(64) grid(M / 64)
#pragma ave assume M % 64 == 0 && K % 4 == 0 && K >= 4 && K <= 4 && M <= 4096
  int m = blockIdx.x * 64 + threadIdx.x;
  S[m] = A[m * 4] + A[m * 4 + 1] + A[m * 4 + 2] + A[m * 4 + 3];
}
// Correct: K == 1, the sum is the element.
__global__ void fixed_k1(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                         float *S AVE_TAG("S(m < M) = m"), int M, int K) {
#pragma ave launch block(64) grid(M / 64)
#pragma ave assume M % 64 == 0 && K == 1 && M <= 4096
  int m = blockIdx.x * 64 + threadIdx.x;
  S[m] = A[m];
}
// Wrong twin: K == 4, one term missing.
__global__ void fixed_k4_wrong(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                         float *S AVE_TAG("S(m < M) = m"), int M, int K) {
#pragma ave launch block(64) grid(M / 64)
#pragma ave assume M % 64 == 0 && K % 4 == 0 && K >= 4 && K <= 4 && M <= 4096
  int m = blockIdx.x * 64 + threadIdx.x;
  S[m] = A[m * 4] + A[m * 4 + 1] + A[m * 4 + 3];
}
// Wrong: k = 0 twice, k = 1 missed (the sum's terms hold an index twice).
__global__ void fixed_k4_twice(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                               float *S AVE_TAG("S(m < M) = m"), int M, int K) {
#pragma ave launch block(64) grid(M / 64)
#pragma ave assume M % 64 == 0 && K % 4 == 0 && K >= 4 && K <= 4 && M <= 4096
  int m = blockIdx.x * 64 + threadIdx.x;
  S[m] = A[m * 4] + A[m * 4] + A[m * 4 + 2] + A[m * 4 + 3];
}
// Wrong: K is free and one element is stored (K >= 2 shows it).
__global__ void single_term(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                            float *S AVE_TAG("S(m < M) = m"), int M, int K) {
#pragma ave launch block(64) grid(M / 64)
#pragma ave assume M % 64 == 0 && K >= 1 && K <= 4096 && M <= 4096
  int m = blockIdx.x * 64 + threadIdx.x;
  S[m] = A[m * K];
}
// Correct: a while loop over k < K - 1, then the last element on its own.
__global__ void tail_after_while(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                                 float *S AVE_TAG("S(m < M) = m"), int M, int K) {
#pragma ave launch block(64) grid(M / 64)
#pragma ave assume M % 64 == 0 && K >= 1 && K <= 4096 && M <= 4096
  int m = blockIdx.x * 64 + threadIdx.x;
  float acc = 0.0f;
  int k = 0;
  while (k < K - 1) {
    acc += A[m * K + k];
    ++k;
  }
  acc += A[m * K + K - 1];
  S[m] = acc;
}
// Correct: pairs (k, k+1) into two accumulators, odd K's last element added after.
__global__ void two_acc_tail(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                             float *S AVE_TAG("S(m < M) = m"), int M, int K) {
#pragma ave launch block(64) grid(M / 64)
#pragma ave assume M % 64 == 0 && K >= 2 && K <= 4096 && M <= 4096
  int m = blockIdx.x * 64 + threadIdx.x;
  float a0 = 0.0f, a1 = 0.0f;
  for (int k = 0; k + 1 < K; k += 2) {
    a0 += A[m * K + k];
    a1 += A[m * K + k + 1];
  }
  if (K & 1)
    a0 += A[m * K + K - 1];
  S[m] = a0 + a1;
}
// Same with the canonical bound k < K - 1
__global__ void two_acc_tail2(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                             float *S AVE_TAG("S(m < M) = m"), int M, int K) {
#pragma ave launch block(64) grid(M / 64)
#pragma ave assume M % 64 == 0 && K >= 2 && K <= 4096 && M <= 4096
  int m = blockIdx.x * 64 + threadIdx.x;
  float a0 = 0.0f, a1 = 0.0f;
  for (int k = 0; k < K - 1; k += 2) {
    a0 += A[m * K + k];
    a1 += A[m * K + k + 1];
  }
  if (K & 1)
    a0 += A[m * K + K - 1];
  S[m] = a0 + a1;
}
// one accumulator, guarded tail
__global__ void one_acc_tail(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                             float *S AVE_TAG("S(m < M) = m"), int M, int K) {
#pragma ave launch block(64) grid(M / 64)
#pragma ave assume M % 64 == 0 && K >= 2 && K <= 4096 && M <= 4096
  int m = blockIdx.x * 64 + threadIdx.x;
  float a0 = 0.0f;
  for (int k = 0; k < K - 1; k += 2) {
    a0 += A[m * K + k];
    a0 += A[m * K + k + 1];
  }
  if (K % 2 == 1)
    a0 += A[m * K + K - 1];
  S[m] = a0;
}
// no loop at all: K == 1 or 2 handled by a guard
__global__ void guard_only(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                           float *S AVE_TAG("S(m < M) = m"), int M, int K) {
#pragma ave launch block(64) grid(M / 64)
#pragma ave assume M % 64 == 0 && K >= 1 && K <= 2 && M <= 4096
  int m = blockIdx.x * 64 + threadIdx.x;
  float a0 = A[m * K];
  if (K == 2)
    a0 += A[m * K + 1];
  S[m] = a0;
}
