// Every float parameter of a kernel must reach what it stores: the
// reference the tags describe (and the harness's) applies each of them. The
// soundness fuzzer dropped attention_fwd's `s = s * scale;` and it was
// proven; a dropped scale is unproven now, and a scale applied before the
// loop, after it, or on the way through shared memory proves.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

// Correct: the sum scaled after the loop.
__global__ void scaledAfter(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                            float *S AVE_TAG("S(m < M) = m"), int M, int K, float Alpha) {
  AVE_LAUNCH(block(64) grid(M / 64))
  AVE_ASSUME(M % 64 == 0 && K >= 1 && M <= 32768 && K <= 32768)
  int m = blockIdx.x * 64 + threadIdx.x;
  float Acc = 0.0f;
  for (int k = 0; k < K; ++k)
    Acc += A[m * K + k];
  S[m] = Alpha * Acc;
}

// Wrong: Alpha is never applied.
__global__ void scaleDropped(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                             float *S AVE_TAG("S(m < M) = m"), int M, int K, float Alpha) {
  AVE_LAUNCH(block(64) grid(M / 64))
  AVE_ASSUME(M % 64 == 0 && K >= 1 && M <= 32768 && K <= 32768)
  int m = blockIdx.x * 64 + threadIdx.x;
  float Acc = 0.0f;
  for (int k = 0; k < K; ++k)
    Acc += A[m * K + k];
  S[m] = Acc;
}

// Correct: each element scaled as it is staged through shared memory.
__global__ void scaledThroughLds(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                                 float *Y AVE_TAG("Y(r < R, c < C) = r * C + c"), int R, int C,
                                 float Alpha) {
  AVE_LAUNCH(block(64) grid(C / 64, R))
  AVE_ASSUME(C % 64 == 0 && R >= 1 && R <= 32768 && C <= 32768)
  __shared__ float Tile[64];
  int r = blockIdx.y, c = blockIdx.x * 64 + threadIdx.x;
  Tile[threadIdx.x] = Alpha * X[r * C + c];
  __syncthreads();
  Y[r * C + c] = Tile[threadIdx.x];
}

// Wrong: Alpha applied in every iteration and again after the loop (the
// soundness fuzzer duplicated attention_fwd's `s = s * scale;`).
__global__ void scaledTwice(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                            float *S AVE_TAG("S(m < M) = m"), int M, int K, float Alpha) {
  AVE_LAUNCH(block(64) grid(M / 64))
  AVE_ASSUME(M % 64 == 0 && K >= 1 && M <= 32768 && K <= 32768)
  int m = blockIdx.x * 64 + threadIdx.x;
  float Acc = 0.0f;
  for (int k = 0; k < K; ++k)
    Acc += Alpha * A[m * K + k];
  S[m] = Alpha * Acc;
}

// Wrong: divided by Alpha instead of scaled.
__global__ void dividedBy(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                          float *S AVE_TAG("S(m < M) = m"), int M, int K, float Alpha) {
  AVE_LAUNCH(block(64) grid(M / 64))
  AVE_ASSUME(M % 64 == 0 && K >= 1 && M <= 32768 && K <= 32768)
  int m = blockIdx.x * 64 + threadIdx.x;
  float Acc = 0.0f;
  for (int k = 0; k < K; ++k)
    Acc += A[m * K + k];
  S[m] = Acc / Alpha;
}
