// Unsigned int arithmetic wraps modulo 2^32: `t - 1u` at t = 0 is
// 4294967295, not -1. Each wrong kernel here was proven while the analysis
// took the difference as the int it would be; each correct twin relies on
// the wrap or on converting it back to int.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

// Wrong: `t - 1u < 63u` is 1 <= t <= 63; thread 0 writes nothing.
__global__ void guardSkipsThreadZero(const float *X AVE_TAG("X(i < N) = i"),
                                     float *Y AVE_TAG("Y(i < N) = i"), int N) {
#pragma ave launch block(64) grid(N / 64)
#pragma ave assume N % 64 == 0 && N <= 65536
  unsigned t = threadIdx.x;
  int i = blockIdx.x * 64 + t;
  if (t - 1u < 63u)
    Y[i] = X[i];
}

// Correct: the same guard, and thread 0 on its own.
__global__ void guardAndThreadZero(const float *X AVE_TAG("X(i < N) = i"),
                                   float *Y AVE_TAG("Y(i < N) = i"), int N) {
#pragma ave launch block(64) grid(N / 64)
#pragma ave assume N % 64 == 0 && N <= 65536
  unsigned t = threadIdx.x;
  int i = blockIdx.x * 64 + t;
  if (t == 0)
    Y[i] = X[i];
  else if (t - 1u < 63u)
    Y[i] = X[i];
}

// Wrong: thread 0 reads 2^32 - 1 elements past its block.
__global__ void neighbourWraps(const float *X AVE_TAG("X(i < N) = i"),
                               float *Y AVE_TAG("Y(i < N) = i"), int N) {
#pragma ave launch block(64) grid(N / 64)
#pragma ave assume N % 64 == 0 && N <= 65536
  unsigned t = threadIdx.x;
  unsigned base = blockIdx.x * 64u;
  Y[base + t] = X[base + (t - 1u) + 1u];
}

// Correct: the wrapped difference converted back to int is -1 again.
__global__ void wrapBackToInt(const float *X AVE_TAG("X(i < N) = i"),
                              float *Y AVE_TAG("Y(i < N) = i"), int N) {
#pragma ave launch block(64) grid(N / 64)
#pragma ave assume N % 64 == 0 && N <= 65536
  int j = threadIdx.x - 1u;
  int i = blockIdx.x * 64 + (j + 1);
  Y[i] = X[i];
}

// Correct, but unproven: `blockIdx.x * 64 + j` is unsigned and wraps below
// zero at block 0, thread 0, and `+ 1` wraps it back. A value below zero is
// not followed (no C int holds 2^32 - 1), so the store is not solved.
__global__ void wrapAndBack(const float *X AVE_TAG("X(i < N) = i"),
                            float *Y AVE_TAG("Y(i < N) = i"), int N) {
#pragma ave launch block(64) grid(N / 64)
#pragma ave assume N % 64 == 0 && N <= 65536
  int j = threadIdx.x - 1u;
  int i = blockIdx.x * 64 + j + 1;
  Y[i] = X[i];
}

// Correct: an unsigned loop counter and a difference that stays >= 0.
__global__ void unsignedCounter(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                           float *S AVE_TAG("S(m < M) = m"), int M, int K) {
#pragma ave launch block(64) grid(M / 64)
#pragma ave assume M % 64 == 0 && K >= 1 && M <= 4096 && K <= 4096
  int m = blockIdx.x * 64 + threadIdx.x;
  float Acc = 0.0f;
  for (unsigned k = 1; k <= K; ++k)
    Acc += A[m * K + (k - 1u)];
  S[m] = Acc;
}
