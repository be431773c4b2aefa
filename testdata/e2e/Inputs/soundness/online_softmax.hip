// Online softmax (attention's running max): O(i, e) = sum_j softmax_j(S(i, j))
// V(j, e) with S = Q K^T, one query row per thread. The running sums are
// correct only as `acc * exp(m_prev - m) + exp(s - m) * v` with one running
// max m (m_prev its value before this iteration's update). The soundness
// fuzzer's attention mutant #163 read m_prev after the update (factor 1)
// and was proven; each wrong twin below mixes shifts and is unproven with
// the online-softmax reason, each correct twin proves.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

#define ATTENTION_ARGS                                                                             \
  const float *Q AVE_TAG("Q(i < N, d < 16) = i * 16 + d"),                                         \
      const float *K AVE_TAG("K(j < N, d < 16) = j * 16 + d"),                                     \
      const float *V AVE_TAG("V(j < N, e < 16) = j * 16 + e"),                                     \
      float *O AVE_TAG("O(i < N, e < 16) = i * 16 + e"), int N

#define ATTENTION_SPEC                                                                             \
  _Pragma("ave launch block(64) grid(N / 64)")                                                     \
      _Pragma("ave assume N % 64 == 0 && N >= 64 && N <= 16384")

// The score of query row i and key j.
#define SCORE(s)                                                                                   \
  float s = 0.0f;                                                                                  \
  for (int d = 0; d < 16; ++d)                                                                     \
    s += Q[i * 16 + d] * K[j * 16 + d];

#define STORE_OUTPUT                                                                               \
  for (int e = 0; e < 16; ++e)                                                                     \
    O[i * 16 + e] = acc[e] / l;

// Correct: the order attention_fwd.hip uses.
__global__ void rescaled(ATTENTION_ARGS) {
  ATTENTION_SPEC
  int i = blockIdx.x * 64 + threadIdx.x;
  float acc[16];
  for (int e = 0; e < 16; ++e)
    acc[e] = 0.0f;
  float m = -INFINITY, l = 0.0f;
  for (int j = 0; j < N; ++j) {
    SCORE(s)
    float m_old = m;
    m = fmaxf(m, s);
    float correction = expf(m_old - m);
    float p = expf(s - m);
    l = l * correction + p;
    for (int e = 0; e < 16; ++e)
      acc[e] = acc[e] * correction + p * V[j * 16 + e];
  }
  STORE_OUTPUT
}

// Wrong (fuzzer mutant #163): m_old is read after the update, so the
// correction is 1 and the old sums keep the old shift.
__global__ void previousReadLate(ATTENTION_ARGS) {
  ATTENTION_SPEC
  int i = blockIdx.x * 64 + threadIdx.x;
  float acc[16];
  for (int e = 0; e < 16; ++e)
    acc[e] = 0.0f;
  float m = -INFINITY, l = 0.0f;
  for (int j = 0; j < N; ++j) {
    SCORE(s)
    m = fmaxf(m, s);
    float m_old = m;
    float correction = expf(m_old - m);
    float p = expf(s - m);
    l = l * correction + p;
    for (int e = 0; e < 16; ++e)
      acc[e] = acc[e] * correction + p * V[j * 16 + e];
  }
  STORE_OUTPUT
}

// Wrong: the decay is inverted.
__global__ void decayInverted(ATTENTION_ARGS) {
  ATTENTION_SPEC
  int i = blockIdx.x * 64 + threadIdx.x;
  float acc[16];
  for (int e = 0; e < 16; ++e)
    acc[e] = 0.0f;
  float m = -INFINITY, l = 0.0f;
  for (int j = 0; j < N; ++j) {
    SCORE(s)
    float m_old = m;
    m = fmaxf(m, s);
    float correction = expf(m - m_old);
    float p = expf(s - m);
    l = l * correction + p;
    for (int e = 0; e < 16; ++e)
      acc[e] = acc[e] * correction + p * V[j * 16 + e];
  }
  STORE_OUTPUT
}

// Wrong: the weight is shifted by the old max.
__global__ void weightOldMax(ATTENTION_ARGS) {
  ATTENTION_SPEC
  int i = blockIdx.x * 64 + threadIdx.x;
  float acc[16];
  for (int e = 0; e < 16; ++e)
    acc[e] = 0.0f;
  float m = -INFINITY, l = 0.0f;
  for (int j = 0; j < N; ++j) {
    SCORE(s)
    float m_old = m;
    m = fmaxf(m, s);
    float correction = expf(m_old - m);
    float p = expf(s - m_old);
    l = l * correction + p;
    for (int e = 0; e < 16; ++e)
      acc[e] = acc[e] * correction + p * V[j * 16 + e];
  }
  STORE_OUTPUT
}

// Wrong: the sum of weights is not rescaled (the output is).
__global__ void sumNotRescaled(ATTENTION_ARGS) {
  ATTENTION_SPEC
  int i = blockIdx.x * 64 + threadIdx.x;
  float acc[16];
  for (int e = 0; e < 16; ++e)
    acc[e] = 0.0f;
  float m = -INFINITY, l = 0.0f;
  for (int j = 0; j < N; ++j) {
    SCORE(s)
    float m_old = m;
    m = fmaxf(m, s);
    float correction = expf(m_old - m);
    float p = expf(s - m);
    l = l + p;
    for (int e = 0; e < 16; ++e)
      acc[e] = acc[e] * correction + p * V[j * 16 + e];
  }
  STORE_OUTPUT
}

// Wrong: the output is rescaled twice.
__global__ void rescaledTwice(ATTENTION_ARGS) {
  ATTENTION_SPEC
  int i = blockIdx.x * 64 + threadIdx.x;
  float acc[16];
  for (int e = 0; e < 16; ++e)
    acc[e] = 0.0f;
  float m = -INFINITY, l = 0.0f;
  for (int j = 0; j < N; ++j) {
    SCORE(s)
    float m_old = m;
    m = fmaxf(m, s);
    float correction = expf(m_old - m);
    float p = expf(s - m);
    l = l * correction + p;
    for (int e = 0; e < 16; ++e)
      acc[e] = acc[e] * correction * correction + p * V[j * 16 + e];
  }
  STORE_OUTPUT
}

// Correct: base 2 with the exponent scaled by log2(e) on both sides, the
// new max kept in its own variable and stored at the end of the iteration.
__global__ void base2(ATTENTION_ARGS) {
  ATTENTION_SPEC
  int i = blockIdx.x * 64 + threadIdx.x;
  float acc[16];
  for (int e = 0; e < 16; ++e)
    acc[e] = 0.0f;
  float m = -INFINITY, l = 0.0f;
  for (int j = 0; j < N; ++j) {
    SCORE(s)
    float m_new = fmaxf(m, s);
    float correction = exp2f((m - m_new) * 1.44269504f);
    float p = exp2f((s - m_new) * 1.44269504f);
    l = l * correction + p;
    for (int e = 0; e < 16; ++e)
      acc[e] = acc[e] * correction + p * V[j * 16 + e];
    m = m_new;
  }
  STORE_OUTPUT
}

// Correct: base 2 for the decay with the exponent scaled by log2(e), base e
// for the weight: the same exponential.
__global__ void mixedBases(ATTENTION_ARGS) {
  ATTENTION_SPEC
  int i = blockIdx.x * 64 + threadIdx.x;
  float acc[16];
  for (int e = 0; e < 16; ++e)
    acc[e] = 0.0f;
  float m = -INFINITY, l = 0.0f;
  for (int j = 0; j < N; ++j) {
    SCORE(s)
    float m_new = fmaxf(m, s);
    float correction = exp2f((m - m_new) * 1.44269504f);
    float p = expf(s - m_new);
    l = l * correction + p;
    for (int e = 0; e < 16; ++e)
      acc[e] = acc[e] * correction + p * V[j * 16 + e];
    m = m_new;
  }
  STORE_OUTPUT
}

// Wrong: base 2 for the decay without the log2(e) scale, base e for the
// weight.
__global__ void mixedBasesUnscaled(ATTENTION_ARGS) {
  ATTENTION_SPEC
  int i = blockIdx.x * 64 + threadIdx.x;
  float acc[16];
  for (int e = 0; e < 16; ++e)
    acc[e] = 0.0f;
  float m = -INFINITY, l = 0.0f;
  for (int j = 0; j < N; ++j) {
    SCORE(s)
    float m_new = fmaxf(m, s);
    float correction = exp2f(m - m_new);
    float p = expf(s - m_new);
    l = l * correction + p;
    for (int e = 0; e < 16; ++e)
      acc[e] = acc[e] * correction + p * V[j * 16 + e];
    m = m_new;
  }
  STORE_OUTPUT
}

// Correct: two passes, the max first (no running rescale at all).
__global__ void twoPass(ATTENTION_ARGS) {
  ATTENTION_SPEC
  int i = blockIdx.x * 64 + threadIdx.x;
  float m = -INFINITY;
  for (int j = 0; j < N; ++j) {
    SCORE(s)
    m = fmaxf(m, s);
  }
  float acc[16];
  for (int e = 0; e < 16; ++e)
    acc[e] = 0.0f;
  float l = 0.0f;
  for (int j = 0; j < N; ++j) {
    SCORE(s)
    float p = expf(s - m);
    l += p;
    for (int e = 0; e < 16; ++e)
      acc[e] += p * V[j * 16 + e];
  }
  STORE_OUTPUT
}

// Correct (FlashAttention's order): the max of a tile of 16 keys first, the
// running sums rescaled once per tile, the tile's weights added in a loop.
__global__ void tiledMax(ATTENTION_ARGS) {
  ATTENTION_SPEC
  int i = blockIdx.x * 64 + threadIdx.x;
  float acc[16];
  for (int e = 0; e < 16; ++e)
    acc[e] = 0.0f;
  float m = -INFINITY, l = 0.0f;
  for (int j0 = 0; j0 < N; j0 += 16) {
    float mt = -INFINITY;
    for (int jj = 0; jj < 16; ++jj) {
      int j = j0 + jj;
      float s = 0.0f;
      for (int d = 0; d < 16; ++d)
        s += Q[i * 16 + d] * K[j * 16 + d];
      mt = fmaxf(mt, s);
    }
    float m_new = fmaxf(m, mt);
    float correction = expf(m - m_new);
    l = l * correction;
    for (int e = 0; e < 16; ++e)
      acc[e] = acc[e] * correction;
    for (int jj = 0; jj < 16; ++jj) {
      int j = j0 + jj;
      float s = 0.0f;
      for (int d = 0; d < 16; ++d)
        s += Q[i * 16 + d] * K[j * 16 + d];
      float p = expf(s - m_new);
      l += p;
      for (int e = 0; e < 16; ++e)
        acc[e] += p * V[j * 16 + e];
    }
    m = m_new;
  }
  STORE_OUTPUT
}

// Wrong: as tiledMax, but the sum of weights is not rescaled per tile.
__global__ void tiledSumNotRescaled(ATTENTION_ARGS) {
  ATTENTION_SPEC
  int i = blockIdx.x * 64 + threadIdx.x;
  float acc[16];
  for (int e = 0; e < 16; ++e)
    acc[e] = 0.0f;
  float m = -INFINITY, l = 0.0f;
  for (int j0 = 0; j0 < N; j0 += 16) {
    float mt = -INFINITY;
    for (int jj = 0; jj < 16; ++jj) {
      int j = j0 + jj;
      float s = 0.0f;
      for (int d = 0; d < 16; ++d)
        s += Q[i * 16 + d] * K[j * 16 + d];
      mt = fmaxf(mt, s);
    }
    float m_new = fmaxf(m, mt);
    float correction = expf(m - m_new);
    for (int e = 0; e < 16; ++e)
      acc[e] = acc[e] * correction;
    for (int jj = 0; jj < 16; ++jj) {
      int j = j0 + jj;
      float s = 0.0f;
      for (int d = 0; d < 16; ++d)
        s += Q[i * 16 + d] * K[j * 16 + d];
      float p = expf(s - m_new);
      l += p;
      for (int e = 0; e < 16; ++e)
        acc[e] += p * V[j * 16 + e];
    }
    m = m_new;
  }
  STORE_OUTPUT
}

// Wrong: as tiledMax, but the tile's weights use the max before the tile.
__global__ void tiledWeightOldMax(ATTENTION_ARGS) {
  ATTENTION_SPEC
  int i = blockIdx.x * 64 + threadIdx.x;
  float acc[16];
  for (int e = 0; e < 16; ++e)
    acc[e] = 0.0f;
  float m = -INFINITY, l = 0.0f;
  for (int j0 = 0; j0 < N; j0 += 16) {
    float mt = -INFINITY;
    for (int jj = 0; jj < 16; ++jj) {
      int j = j0 + jj;
      float s = 0.0f;
      for (int d = 0; d < 16; ++d)
        s += Q[i * 16 + d] * K[j * 16 + d];
      mt = fmaxf(mt, s);
    }
    float m_new = fmaxf(m, mt);
    float correction = expf(m - m_new);
    l = l * correction;
    for (int e = 0; e < 16; ++e)
      acc[e] = acc[e] * correction;
    for (int jj = 0; jj < 16; ++jj) {
      int j = j0 + jj;
      float s = 0.0f;
      for (int d = 0; d < 16; ++d)
        s += Q[i * 16 + d] * K[j * 16 + d];
      float p = expf(s - m);
      l += p;
      for (int e = 0; e < 16; ++e)
        acc[e] += p * V[j * 16 + e];
    }
    m = m_new;
  }
  STORE_OUTPUT
}

// Wrong: the weights are never divided by their sum (no `/ l`).
__global__ void notNormalised(ATTENTION_ARGS) {
  ATTENTION_SPEC
  int i = blockIdx.x * 64 + threadIdx.x;
  float acc[16];
  for (int e = 0; e < 16; ++e)
    acc[e] = 0.0f;
  float m = -INFINITY, l = 0.0f;
  for (int j = 0; j < N; ++j) {
    SCORE(s)
    float m_old = m;
    m = fmaxf(m, s);
    float correction = expf(m_old - m);
    float p = expf(s - m);
    l = l * correction + p;
    for (int e = 0; e < 16; ++e)
      acc[e] = acc[e] * correction + p * V[j * 16 + e];
  }
  for (int e = 0; e < 16; ++e)
    O[i * 16 + e] = acc[e];
}

// Wrong: divided by the sum twice; correct: times its reciprocal once.
__global__ void normalisedTwice(ATTENTION_ARGS) {
  ATTENTION_SPEC
  int i = blockIdx.x * 64 + threadIdx.x;
  float acc[16];
  for (int e = 0; e < 16; ++e)
    acc[e] = 0.0f;
  float m = -INFINITY, l = 0.0f;
  for (int j = 0; j < N; ++j) {
    SCORE(s)
    float m_old = m;
    m = fmaxf(m, s);
    float correction = expf(m_old - m);
    float p = expf(s - m);
    l = l * correction + p;
    for (int e = 0; e < 16; ++e)
      acc[e] = acc[e] * correction + p * V[j * 16 + e];
  }
  for (int e = 0; e < 16; ++e)
    O[i * 16 + e] = acc[e] / l / l;
}

__global__ void reciprocalOnce(ATTENTION_ARGS) {
  ATTENTION_SPEC
  int i = blockIdx.x * 64 + threadIdx.x;
  float acc[16];
  for (int e = 0; e < 16; ++e)
    acc[e] = 0.0f;
  float m = -INFINITY, l = 0.0f;
  for (int j = 0; j < N; ++j) {
    SCORE(s)
    float m_old = m;
    m = fmaxf(m, s);
    float correction = expf(m_old - m);
    float p = expf(s - m);
    l = l * correction + p;
    for (int e = 0; e < 16; ++e)
      acc[e] = acc[e] * correction + p * V[j * 16 + e];
  }
  float inv = 1.0f / l;
  for (int e = 0; e < 16; ++e)
    O[i * 16 + e] = acc[e] * inv;
}
