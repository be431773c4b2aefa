// Arithmetic the tags' einsum does not have, on the way to the output: a
// constant factor (`s *= 2.0f`, `x / 4.0f`, on one path only, or on one
// term of a sum) or a nonlinear function (`sqrtf`, `fabsf`, `expf` of the
// result). Each of these wrong GEMMs was proven: the analysis followed where
// the value came from, not what was done to it. Now the store is unproven
// with the factor or the function. Factors that cancel (`0.5f * (2.0f *
// x)`, `(2.0f * a) * (b / 2.0f)`) and conversions (`__half2float`) prove.
// Every verdict agrees with the CPU executor (harness --shape
// M=64,N=64,K=32).
#include <ave/annotations.h>
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>

#define TAGS                                                                                       \
  const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),                                           \
      const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),                                       \
      float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K
#define SPEC                                                                                       \
  _Pragma("ave launch block(16, 16) grid(N / 16, M / 16)")                                         \
      _Pragma("ave assume M % 16 == 0 && N % 16 == 0 && K >= 1 && K <= 4096 && M <= 4096 && N <= 4096")
#define ROWCOL int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;

// Wrong: the sum doubled after the loop.
__global__ void doubled(TAGS) {
  SPEC ROWCOL
  float s = 0.0f;
  for (int k = 0; k < K; ++k)
    s += A[row * K + k] * B[k * N + col];
  s *= 2.0f;
  C[row * N + col] = s;
}

// Wrong: every product divided by 4.
__global__ void quartered(TAGS) {
  SPEC ROWCOL
  float s = 0.0f;
  for (int k = 0; k < K; ++k)
    s += A[row * K + k] * B[k * N + col] / 4.0f;
  C[row * N + col] = s;
}

// Wrong: odd k counted twice.
__global__ void oddKTwice(TAGS) {
  SPEC ROWCOL
  float s = 0.0f;
  for (int k = 0; k < K; ++k) {
    float p = A[row * K + k] * B[k * N + col];
    if (k % 2 == 1)
      p = 2.0f * p;
    s += p;
  }
  C[row * N + col] = s;
}

// Wrong: the square root of the sum.
__global__ void rooted(TAGS) {
  SPEC ROWCOL
  float s = 0.0f;
  for (int k = 0; k < K; ++k)
    s += A[row * K + k] * B[k * N + col];
  C[row * N + col] = sqrtf(fabsf(s));
}

// Wrong: the absolute value of each product.
__global__ void absolute(TAGS) {
  SPEC ROWCOL
  float s = 0.0f;
  for (int k = 0; k < K; ++k)
    s += fabsf(A[row * K + k] * B[k * N + col]);
  C[row * N + col] = s;
}

// Correct: factors that cancel, and a round trip through half precision of
// the (small, exactly representable) constant 1.
__global__ void cancelled(TAGS) {
  SPEC ROWCOL
  float s = 0.0f;
  for (int k = 0; k < K; ++k)
    s += (2.0f * A[row * K + k]) * (B[k * N + col] / 2.0f);
  C[row * N + col] = 0.5f * (2.0f * s) * __half2float(__float2half(1.0f));
}

// Wrong: each product clamped at zero (a ReLU inside the sum; was proven:
// a max with a constant kept the tagged side as it was).
__global__ void clamped(TAGS) {
  SPEC ROWCOL
  float s = 0.0f;
  for (int k = 0; k < K; ++k)
    s += fmaxf(A[row * K + k] * B[k * N + col], 0.0f);
  C[row * N + col] = s;
}

// Correct: a max with -infinity (the max's neutral element) is the value.
__global__ void neutralMax(TAGS) {
  SPEC ROWCOL
  float s = 0.0f;
  for (int k = 0; k < K; ++k)
    s += A[row * K + k] * B[k * N + col];
  C[row * N + col] = fmaxf(s, -INFINITY);
}
