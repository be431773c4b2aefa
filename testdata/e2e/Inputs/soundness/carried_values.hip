// What is done to a loop's running value itself, and to the terms added to
// it, found by an adversarial sweep (each verdict agrees with the CPU
// executor at M=64,N=64,K=64). Wrong, and proven before: the running value
// scaled, negated, subtracted or added to itself or to another running
// value in its loop; a term divided by an element, offset by or multiplied
// with a number computed from integers. Now each is unproven, with the
// reason. Correct: a factor of 1, fmaf, and `0.0f * float(n)` prove.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

#define TAGS                                                                                       \
  const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),                                           \
      const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),                                       \
      float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K
#define SPEC                                                                                       \
  _Pragma("ave launch block(16, 16) grid(N / 16, M / 16)")                                         \
      _Pragma("ave assume M % 16 == 0 && N % 16 == 0 && K >= 1 && K <= 4096 && M <= 4096 && N <= 4096")
#define ROWCOL int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
#define TERM (A[row * K + k] * B[k * N + col])

// Wrong: the earlier terms decay by half each iteration.
__global__ void halved(TAGS) {
  SPEC ROWCOL
  float s = 0.0f;
  for (int k = 0; k < K; ++k)
    s = s * 0.5f + TERM;
  C[row * N + col] = s;
}

// Wrong: the running value negated each iteration.
__global__ void negated(TAGS) {
  SPEC ROWCOL
  float s = 0.0f;
  for (int k = 0; k < K; ++k)
    s = -s + TERM;
  C[row * N + col] = s;
}

// Wrong: the running value subtracted from the term.
__global__ void subtracted(TAGS) {
  SPEC ROWCOL
  float s = 0.0f;
  for (int k = 0; k < K; ++k)
    s = TERM - s;
  C[row * N + col] = s;
}

// Wrong: the running value added to itself.
__global__ void doubledRunning(TAGS) {
  SPEC ROWCOL
  float s = 0.0f;
  for (int k = 0; k < K; ++k)
    s += s + TERM;
  C[row * N + col] = s;
}

// Wrong: the sum of the prefix sums.
__global__ void prefixOfPrefix(TAGS) {
  SPEC ROWCOL
  float s = 0.0f, t = 0.0f;
  for (int k = 0; k < K; ++k) {
    s += TERM;
    t += s;
  }
  C[row * N + col] = t;
}

// Wrong: each product divided instead of multiplied.
__global__ void quotient(TAGS) {
  SPEC ROWCOL
  float s = 0.0f;
  for (int k = 0; k < K; ++k)
    s += A[row * K + k] / B[k * N + col];
  C[row * N + col] = s;
}

// Wrong: each term offset by its k.
__global__ void offsetByK(TAGS) {
  SPEC ROWCOL
  float s = 0.0f;
  for (int k = 0; k < K; ++k)
    s += TERM + (float)k;
  C[row * N + col] = s;
}

// Wrong: each term multiplied by K.
__global__ void timesK(TAGS) {
  SPEC ROWCOL
  float s = 0.0f;
  for (int k = 0; k < K; ++k)
    s += TERM * (float)K;
  C[row * N + col] = s;
}

// Correct: a factor of 1 on the running value, fmaf, and a zero offset.
__global__ void neutralSteps(TAGS) {
  SPEC ROWCOL
  float s = 0.0f;
  int n = 0;
  for (int k = 0; k < K; ++k) {
    s = fmaf(A[row * K + k], B[k * N + col], s * 1.0f);
    ++n;
  }
  C[row * N + col] = s + 0.0f * float(n);
}

// Wrong: a sum on even k and a max on odd k.
__global__ void sumOrMax(TAGS) {
  SPEC ROWCOL
  float s = 0.0f;
  for (int k = 0; k < K; ++k) {
    if (k % 2 == 0)
      s += TERM;
    else
      s = fmaxf(s, TERM);
  }
  C[row * N + col] = s;
}

// Wrong: the previous iteration's term, carried in a register, subtracted
// again (fmaf(1, x, s) - last telescopes to the last term).
__global__ void telescoped(TAGS) {
  SPEC ROWCOL
  float s = 0.0f, last = 0.0f;
  for (int k = 0; k < K; ++k) {
    float x = TERM;
    s = fmaf(1.0f, x, s) - last;
    last = x;
  }
  C[row * N + col] = s;
}
