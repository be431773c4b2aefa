// The tags' einsum starts every reduction from its neutral element: 0 for a
// sum, -infinity for a max, infinity for a min. An accumulator that starts
// elsewhere is off by its start (proven before); the same sums starting
// from the neutral element (or a value the compiler folds to it) prove. A
// max or min stored into the output is unproven whatever its start: the
// tags' einsum, and harness's reference, is a sum.
#include <ave/annotations.h>
#include <cfloat>
#include <cmath>
#include <hip/hip_runtime.h>

// Wrong: a sum from 1.
__global__ void sumFromOne(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
    float *S AVE_TAG("S(m < M) = m"), int M, int K) {
  AVE_LAUNCH(block(64) grid(M / 64))
  AVE_ASSUME(M % 64 == 0 && K >= 1 && M <= 32768 && K <= 32768)
  int m = blockIdx.x * 64 + threadIdx.x;
  float Acc = 1.0f;
  for (int k = 0; k < K; ++k)
    Acc = Acc + A[m * K + k];
  S[m] = Acc;
}

// Wrong: a sum from a parameter.
__global__ void sumFromBias(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
    float *S AVE_TAG("S(m < M) = m"), int M, int K, float Bias) {
  AVE_LAUNCH(block(64) grid(M / 64))
  AVE_ASSUME(M % 64 == 0 && K >= 1 && M <= 32768 && K <= 32768)
  int m = blockIdx.x * 64 + threadIdx.x;
  float Acc = Bias;
  for (int k = 0; k < K; ++k)
    Acc = Acc + A[m * K + k];
  S[m] = Acc;
}

// Wrong: a max from 0 (all-negative rows give 0).
__global__ void maxFromZero(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
    float *S AVE_TAG("S(m < M) = m"), int M, int K) {
  AVE_LAUNCH(block(64) grid(M / 64))
  AVE_ASSUME(M % 64 == 0 && K >= 1 && M <= 32768 && K <= 32768)
  int m = blockIdx.x * 64 + threadIdx.x;
  float Acc = 0.0f;
  for (int k = 0; k < K; ++k)
    Acc = fmaxf(Acc, A[m * K + k]);
  S[m] = Acc;
}

// Wrong: a min from -infinity.
__global__ void minFromMinusInfinity(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
    float *S AVE_TAG("S(m < M) = m"), int M, int K) {
  AVE_LAUNCH(block(64) grid(M / 64))
  AVE_ASSUME(M % 64 == 0 && K >= 1 && M <= 32768 && K <= 32768)
  int m = blockIdx.x * 64 + threadIdx.x;
  float Acc = -INFINITY;
  for (int k = 0; k < K; ++k)
    Acc = fminf(Acc, A[m * K + k]);
  S[m] = Acc;
}

// Correct: a sum from 0, written as an int.
__global__ void sumFromZero(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
    float *S AVE_TAG("S(m < M) = m"), int M, int K) {
  AVE_LAUNCH(block(64) grid(M / 64))
  AVE_ASSUME(M % 64 == 0 && K >= 1 && M <= 32768 && K <= 32768)
  int m = blockIdx.x * 64 + threadIdx.x;
  float Acc = 0;
  for (int k = 0; k < K; ++k)
    Acc = Acc + A[m * K + k];
  S[m] = Acc;
}

// Correct as a max/min, unproven against the sum: a max from -infinity.
__global__ void maxFromMinusInfinity(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
    float *S AVE_TAG("S(m < M) = m"), int M, int K) {
  AVE_LAUNCH(block(64) grid(M / 64))
  AVE_ASSUME(M % 64 == 0 && K >= 1 && M <= 32768 && K <= 32768)
  int m = blockIdx.x * 64 + threadIdx.x;
  float Acc = -INFINITY;
  for (int k = 0; k < K; ++k)
    Acc = fmaxf(Acc, A[m * K + k]);
  S[m] = Acc;
}

// Correct as a max/min, unproven against the sum: a max from -FLT_MAX.
__global__ void maxFromMinusFltMax(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
    float *S AVE_TAG("S(m < M) = m"), int M, int K) {
  AVE_LAUNCH(block(64) grid(M / 64))
  AVE_ASSUME(M % 64 == 0 && K >= 1 && M <= 32768 && K <= 32768)
  int m = blockIdx.x * 64 + threadIdx.x;
  float Acc = -FLT_MAX;
  for (int k = 0; k < K; ++k)
    Acc = fmaxf(Acc, A[m * K + k]);
  S[m] = Acc;
}

// Correct as a max/min, unproven against the sum: a min from FLT_MAX.
__global__ void minFromFltMax(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
    float *S AVE_TAG("S(m < M) = m"), int M, int K) {
  AVE_LAUNCH(block(64) grid(M / 64))
  AVE_ASSUME(M % 64 == 0 && K >= 1 && M <= 32768 && K <= 32768)
  int m = blockIdx.x * 64 + threadIdx.x;
  float Acc = FLT_MAX;
  for (int k = 0; k < K; ++k)
    Acc = fminf(Acc, A[m * K + k]);
  S[m] = Acc;
}

// Wrong: one side of the if starts the sum from 1.
__global__ void sumFromEither(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                              float *S AVE_TAG("S(m < M) = m"), int M, int K, int Flag) {
  AVE_LAUNCH(block(64) grid(M / 64))
  AVE_ASSUME(M % 64 == 0 && K >= 1 && M <= 32768 && K <= 32768)
  int m = blockIdx.x * 64 + threadIdx.x;
  float Acc = 0.0f;
  if (Flag)
    Acc = 1.0f;
  for (int k = 0; k < K; ++k)
    Acc += A[m * K + k];
  S[m] = Acc;
}

// Correct: the start is the element the loop leaves out.
__global__ void startFromFirst(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                               float *S AVE_TAG("S(m < M) = m"), int M, int K) {
  AVE_LAUNCH(block(64) grid(M / 64))
  AVE_ASSUME(M % 64 == 0 && K >= 1 && M <= 32768 && K <= 32768)
  int m = blockIdx.x * 64 + threadIdx.x;
  float Acc = A[m * K];
  for (int k = 1; k < K; ++k)
    Acc += A[m * K + k];
  S[m] = Acc;
}

// Wrong: the start is counted again by a loop from 0.
__global__ void startCountedTwice(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                                  float *S AVE_TAG("S(m < M) = m"), int M, int K) {
  AVE_LAUNCH(block(64) grid(M / 64))
  AVE_ASSUME(M % 64 == 0 && K >= 1 && M <= 32768 && K <= 32768)
  int m = blockIdx.x * 64 + threadIdx.x;
  float Acc = A[m * K];
  for (int k = 0; k < K; ++k)
    Acc += A[m * K + k];
  S[m] = Acc;
}

// Wrong: the start is element 1, which the loop adds again; 0 is missed.
__global__ void startFromSecond(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                                float *S AVE_TAG("S(m < M) = m"), int M, int K) {
  AVE_LAUNCH(block(64) grid(M / 64))
  AVE_ASSUME(M % 64 == 0 && K >= 2 && M <= 32768 && K <= 32768)
  int m = blockIdx.x * 64 + threadIdx.x;
  float Acc = A[m * K + 1];
  for (int k = 1; k < K; ++k)
    Acc += A[m * K + k];
  S[m] = Acc;
}

// Correct as a max, unproven against the sum: a max from the first element.
__global__ void maxFromFirst(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                             float *S AVE_TAG("S(m < M) = m"), int M, int K) {
  AVE_LAUNCH(block(64) grid(M / 64))
  AVE_ASSUME(M % 64 == 0 && K >= 1 && M <= 32768 && K <= 32768)
  int m = blockIdx.x * 64 + threadIdx.x;
  float Acc = A[m * K];
  for (int k = 1; k < K; ++k)
    Acc = fmaxf(Acc, A[m * K + k]);
  S[m] = Acc;
}
