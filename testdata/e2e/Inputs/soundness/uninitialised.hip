// An accumulator without an initial value holds garbage, not zero; a
// kernel that only ever stores constants into its output (or none at all)
// has nothing proven about it.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

__global__ void noInit(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                       float *S AVE_TAG("S(m < M) = m"), int M, int K) {
#pragma ave launch block(64) grid(M / 64)
#pragma ave assume M % 64 == 0 && K >= 1 && K <= 32768 && M <= 32768
  int m = blockIdx.x * 64 + threadIdx.x;
  float Acc;
  for (int k = 0; k < K; ++k)
    Acc += A[m * K + k];
  S[m] = Acc;
}

__global__ void constantOnly(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                             float *S AVE_TAG("S(m < M) = m"), int M, int K) {
#pragma ave launch block(64) grid(M / 64)
#pragma ave assume M % 64 == 0 && K >= 1 && K <= 32768 && M <= 32768
  int m = blockIdx.x * 64 + threadIdx.x;
  S[m] = 0.0f;
}

__global__ void neverStored(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                            float *S AVE_TAG("S(m < M) = m"), int M, int K) {
#pragma ave launch block(64) grid(M / 64)
#pragma ave assume M % 64 == 0 && K >= 1 && K <= 32768 && M <= 32768
  int m = blockIdx.x * 64 + threadIdx.x;
  float Acc = 0.0f;
  for (int k = 0; k < K; ++k)
    Acc += A[m * K + k];
  (void)Acc;
}

__global__ void subtracted(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                           float *S AVE_TAG("S(m < M) = m"), int M, int K) {
#pragma ave launch block(64) grid(M / 64)
#pragma ave assume M % 64 == 0 && K >= 1 && K <= 32768 && M <= 32768
  int m = blockIdx.x * 64 + threadIdx.x;
  float Acc = 0.0f;
  for (int k = 0; k < K; ++k)
    Acc -= A[m * K + k];
  S[m] = Acc;
}

__global__ void intoOutput(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                           float *S AVE_TAG("S(m < M) = m"), int M, int K) {
#pragma ave launch block(64) grid(M / 64)
#pragma ave assume M % 64 == 0 && K >= 1 && K <= 32768 && M <= 32768
  int m = blockIdx.x * 64 + threadIdx.x;
  float Acc = 0.0f;
  for (int k = 0; k < K; ++k)
    Acc += A[m * K + k];
  S[m] += Acc;
}
