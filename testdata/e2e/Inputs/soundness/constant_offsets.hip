// The tags' einsum is a sum of products (scaled by float parameters): a
// constant or a parameter added to a tagged value is not what the tags
// describe, so what it reaches is unproven (it was proven); adding 0 and
// scaling by a parameter prove.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

// Wrong: one added after the sum.
__global__ void plusOneAfter(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                             float *S AVE_TAG("S(m < M) = m"), int M, int K) {
  AVE_LAUNCH(block(64) grid(M / 64))
  AVE_ASSUME(M % 64 == 0 && K >= 1 && M <= 32768 && K <= 32768)
  int m = blockIdx.x * 64 + threadIdx.x;
  float Acc = 0.0f;
  for (int k = 0; k < K; ++k)
    Acc += A[m * K + k];
  S[m] = Acc + 1.0f;
}

// Wrong: one added in every iteration.
__global__ void plusOneEach(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                            float *S AVE_TAG("S(m < M) = m"), int M, int K) {
  AVE_LAUNCH(block(64) grid(M / 64))
  AVE_ASSUME(M % 64 == 0 && K >= 1 && M <= 32768 && K <= 32768)
  int m = blockIdx.x * 64 + threadIdx.x;
  float Acc = 0.0f;
  for (int k = 0; k < K; ++k) {
    Acc += A[m * K + k];
    Acc += 1.0f;
  }
  S[m] = Acc;
}

// Wrong: a parameter subtracted.
__global__ void minusBias(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                          float *S AVE_TAG("S(m < M) = m"), int M, int K, float Bias) {
  AVE_LAUNCH(block(64) grid(M / 64))
  AVE_ASSUME(M % 64 == 0 && K >= 1 && M <= 32768 && K <= 32768)
  int m = blockIdx.x * 64 + threadIdx.x;
  float Acc = 0.0f;
  for (int k = 0; k < K; ++k)
    Acc += A[m * K + k];
  S[m] = Acc - Bias;
}

// Correct: zero added, and the sum scaled by a parameter.
__global__ void plusZeroScaled(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                               float *S AVE_TAG("S(m < M) = m"), int M, int K, float Alpha) {
  AVE_LAUNCH(block(64) grid(M / 64))
  AVE_ASSUME(M % 64 == 0 && K >= 1 && M <= 32768 && K <= 32768)
  int m = blockIdx.x * 64 + threadIdx.x;
  float Acc = 0.0f;
  for (int k = 0; k < K; ++k)
    Acc += A[m * K + k] + 0.0f;
  S[m] = Alpha * Acc;
}
