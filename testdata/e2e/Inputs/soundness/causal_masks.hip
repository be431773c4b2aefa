// A causal mask that hides a key the mask keeps (found by an adversarial
// sweep; each verdict agrees with the CPU executor at B=1,H=2,N=128 with
// --einsum attention --param scale=0.125 --score-scale scale). The masked
// coverage asks that an iteration contributes exactly when mask(j <= i)
// keeps its key; the case's own validity was among the iteration's facts,
// so every iteration counted as contributing and `j >= i` (the diagonal
// masked too) was proven.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>
constexpr int HD = 32;
constexpr int TQ = 64;
constexpr int TK = 32;

// Correct: keys past the query are masked.
__global__ void maskPastQuery(
    const float *Q AVE_TAG("Q(b < B, h < H, i < N, d < HD) = ((b * H + h) * N + i) * HD + d"),
    const float *K AVE_TAG("K(b < B, h < H, j < N, d < HD) = ((b * H + h) * N + j) * HD + d"),
    const float *V AVE_TAG("V(b < B, h < H, j < N, e < HD) = ((b * H + h) * N + j) * HD + e"),
    float *O AVE_TAG("O(b < B, h < H, i < N, e < HD) = ((b * H + h) * N + i) * HD + e"),
    float scale, int B, int H, int N) {
#pragma ave launch block(64) grid(N / 64, B * H)
#pragma ave assume N % 64 == 0 && N >= 64 && B >= 1 && H >= 1 && B <= 16 && H <= 64 && N <= 16384
#pragma ave assume mask(j <= i)
  __shared__ float Ks[TK][HD], Vs[TK][HD];
  int t = threadIdx.x;
  int b = blockIdx.y / H, h = blockIdx.y % H;
  int i0 = blockIdx.x * TQ;
  int i = i0 + t;
  float q[HD], acc[HD];
  for (int d = 0; d < HD; ++d)
    q[d] = Q[((b * H + h) * N + i) * HD + d];
  for (int e = 0; e < HD; ++e)
    acc[e] = 0.0f;
  float m = -INFINITY, l = 0.0f;
  for (int j0 = 0; j0 < i0 + TQ; j0 += TK) {
    for (int x = t; x < TK * HD; x += TQ) {
      Ks[x / HD][x % HD] = K[((b * H + h) * N + j0 + x / HD) * HD + x % HD];
      Vs[x / HD][x % HD] = V[((b * H + h) * N + j0 + x / HD) * HD + x % HD];
    }
    __syncthreads();
    for (int jj = 0; jj < TK; ++jj) {
      float s = 0.0f;
      for (int d = 0; d < HD; ++d)
        s += q[d] * Ks[jj][d];
      s = s * scale;
      if (j0 + jj >= i + 1)
        s = -INFINITY;
      float m_old = m;
      m = fmaxf(m, s);
      float correction = expf(m_old - m);
      float p = expf(s - m);
      l = l * correction + p;
      for (int e = 0; e < HD; ++e)
        acc[e] = acc[e] * correction + p * Vs[jj][e];
    }
    __syncthreads();
  }
  for (int e = 0; e < HD; ++e)
    O[((b * H + h) * N + i) * HD + e] = acc[e] / l;
}

// Wrong: the diagonal key is masked too.
__global__ void maskDiagonalToo(
    const float *Q AVE_TAG("Q(b < B, h < H, i < N, d < HD) = ((b * H + h) * N + i) * HD + d"),
    const float *K AVE_TAG("K(b < B, h < H, j < N, d < HD) = ((b * H + h) * N + j) * HD + d"),
    const float *V AVE_TAG("V(b < B, h < H, j < N, e < HD) = ((b * H + h) * N + j) * HD + e"),
    float *O AVE_TAG("O(b < B, h < H, i < N, e < HD) = ((b * H + h) * N + i) * HD + e"),
    float scale, int B, int H, int N) {
#pragma ave launch block(64) grid(N / 64, B * H)
#pragma ave assume N % 64 == 0 && N >= 64 && B >= 1 && H >= 1 && B <= 16 && H <= 64 && N <= 16384
#pragma ave assume mask(j <= i)
  __shared__ float Ks[TK][HD], Vs[TK][HD];
  int t = threadIdx.x;
  int b = blockIdx.y / H, h = blockIdx.y % H;
  int i0 = blockIdx.x * TQ;
  int i = i0 + t;
  float q[HD], acc[HD];
  for (int d = 0; d < HD; ++d)
    q[d] = Q[((b * H + h) * N + i) * HD + d];
  for (int e = 0; e < HD; ++e)
    acc[e] = 0.0f;
  float m = -INFINITY, l = 0.0f;
  for (int j0 = 0; j0 < i0 + TQ; j0 += TK) {
    for (int x = t; x < TK * HD; x += TQ) {
      Ks[x / HD][x % HD] = K[((b * H + h) * N + j0 + x / HD) * HD + x % HD];
      Vs[x / HD][x % HD] = V[((b * H + h) * N + j0 + x / HD) * HD + x % HD];
    }
    __syncthreads();
    for (int jj = 0; jj < TK; ++jj) {
      float s = 0.0f;
      for (int d = 0; d < HD; ++d)
        s += q[d] * Ks[jj][d];
      s = s * scale;
      if (j0 + jj >= i)
        s = -INFINITY;
      float m_old = m;
      m = fmaxf(m, s);
      float correction = expf(m_old - m);
      float p = expf(s - m);
      l = l * correction + p;
      for (int e = 0; e < HD; ++e)
        acc[e] = acc[e] * correction + p * Vs[jj][e];
    }
    __syncthreads();
  }
  for (int e = 0; e < HD; ++e)
    O[((b * H + h) * N + i) * HD + e] = acc[e] / l;
}
