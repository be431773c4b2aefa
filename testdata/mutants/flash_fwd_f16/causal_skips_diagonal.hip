// MUTANT-OF: ../../attention/flash_fwd_f16.hip
// EXPECT: reduction-coverage line 111
// Seeded bug: the key tiles stop before the block's diagonal tile
// FlashAttention-2-style forward pass in plain HIP, fp16 in and out, fp32
// accumulation: O = softmax(scale * Q K^T) V for every (batch, head), N
// queries and N keys, head dimension HEAD_DIM (64 by default; build with
// -DHEAD_DIM=128 for 128). One block of 64 threads per (tile of 64 query
// rows, batch * head): thread t owns query row i = blockIdx.x * 64 + t and
// keeps its row of Q (pre-scaled, in fp32) and its row of the output in
// registers; the block walks the keys in tiles of 64 that it stages through
// shared memory in fp16 (K and V, coalesced). The softmax is online: a
// running max m and sum l, the output rescaled by expf(m_old - m) as the max
// grows, so the N scores are never stored.
//
// flash_fwd_causal lets query i see keys j <= i only (`mask(j <= i)`): it
// stops after the key tile of its block's diagonal, and within that tile a
// key past the row gets the score -inf, so exp(s - m) adds 0 and the max
// does not move.
// Launch: block(64), grid(N / 64, B * H).
#include <ave/annotations.h>
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>

#ifndef HEAD_DIM
#define HEAD_DIM 64
#endif
constexpr int TILE = 64;

__global__ void flash_fwd(
    const __half *Q
        AVE_TAG("Q(b < B, h < H, i < N, d < HEAD_DIM) = ((b * H + h) * N + i) * HEAD_DIM + d"),
    const __half *K
        AVE_TAG("K(b < B, h < H, j < N, d < HEAD_DIM) = ((b * H + h) * N + j) * HEAD_DIM + d"),
    const __half *V
        AVE_TAG("V(b < B, h < H, j < N, e < HEAD_DIM) = ((b * H + h) * N + j) * HEAD_DIM + e"),
    __half *O AVE_TAG("O(b < B, h < H, i < N, e < HEAD_DIM) = ((b * H + h) * N + i) * HEAD_DIM + e"),
    float scale, int B, int H, int N) {
#pragma ave launch block(64) grid(N / 64, B * H)
#pragma ave assume N % 64 == 0 && N >= 64 && B >= 1 && H >= 1 && B <= 16 && H <= 64 && N <= 16384
  __shared__ __half Ks[TILE][HEAD_DIM], Vs[TILE][HEAD_DIM];
  int t = threadIdx.x;
  int b = blockIdx.y / H, h = blockIdx.y % H;
  int i = blockIdx.x * TILE + t;
  float q[HEAD_DIM], acc[HEAD_DIM];
  for (int d = 0; d < HEAD_DIM; ++d)
    q[d] = __half2float(Q[((b * H + h) * N + i) * HEAD_DIM + d]) * scale;
  for (int e = 0; e < HEAD_DIM; ++e)
    acc[e] = 0.0f;
  float m = -INFINITY, l = 0.0f;
  for (int j0 = 0; j0 < N; j0 += TILE) {
    for (int x = t; x < TILE * HEAD_DIM; x += TILE) {
      Ks[x / HEAD_DIM][x % HEAD_DIM] =
          K[((b * H + h) * N + j0 + x / HEAD_DIM) * HEAD_DIM + x % HEAD_DIM];
      Vs[x / HEAD_DIM][x % HEAD_DIM] =
          V[((b * H + h) * N + j0 + x / HEAD_DIM) * HEAD_DIM + x % HEAD_DIM];
    }
    __syncthreads();
    for (int jj = 0; jj < TILE; ++jj) {
      float s = 0.0f;
      for (int d = 0; d < HEAD_DIM; ++d) {
#pragma ave assert tag(Ks[jj][d]) == K(b, h, j0 + jj, d) && tag(q[d]) == Q(b, h, i, d)
        s += q[d] * __half2float(Ks[jj][d]);
      }
      float m_old = m;
      m = fmaxf(m, s);
      float correction = expf(m_old - m);
      float p = expf(s - m);
      l = l * correction + p;
      for (int e = 0; e < HEAD_DIM; ++e) {
#pragma ave assert tag(Vs[jj][e]) == V(b, h, j0 + jj, e)
        acc[e] = acc[e] * correction + p * __half2float(Vs[jj][e]);
      }
    }
    __syncthreads();
  }
  for (int e = 0; e < HEAD_DIM; ++e)
    O[((b * H + h) * N + i) * HEAD_DIM + e] = __float2half(acc[e] / l);
}

__global__ void flash_fwd_causal(
    const __half *Q
        AVE_TAG("Q(b < B, h < H, i < N, d < HEAD_DIM) = ((b * H + h) * N + i) * HEAD_DIM + d"),
    const __half *K
        AVE_TAG("K(b < B, h < H, j < N, d < HEAD_DIM) = ((b * H + h) * N + j) * HEAD_DIM + d"),
    const __half *V
        AVE_TAG("V(b < B, h < H, j < N, e < HEAD_DIM) = ((b * H + h) * N + j) * HEAD_DIM + e"),
    __half *O AVE_TAG("O(b < B, h < H, i < N, e < HEAD_DIM) = ((b * H + h) * N + i) * HEAD_DIM + e"),
    float scale, int B, int H, int N) {
#pragma ave launch block(64) grid(N / 64, B * H)
#pragma ave assume N % 64 == 0 && N >= 64 && B >= 1 && H >= 1 && B <= 16 && H <= 64 && N <= 16384
#pragma ave assume mask(j <= i)
  __shared__ __half Ks[TILE][HEAD_DIM], Vs[TILE][HEAD_DIM];
  int t = threadIdx.x;
  int b = blockIdx.y / H, h = blockIdx.y % H;
  int i = blockIdx.x * TILE + t;
  float q[HEAD_DIM], acc[HEAD_DIM];
  for (int d = 0; d < HEAD_DIM; ++d)
    q[d] = __half2float(Q[((b * H + h) * N + i) * HEAD_DIM + d]) * scale;
  for (int e = 0; e < HEAD_DIM; ++e)
    acc[e] = 0.0f;
  float m = -INFINITY, l = 0.0f;
  // Key tiles up to the block's diagonal tile; keys past the row add nothing.
  for (int j0 = 0; j0 < blockIdx.x * TILE; j0 += TILE) {
    for (int x = t; x < TILE * HEAD_DIM; x += TILE) {
      Ks[x / HEAD_DIM][x % HEAD_DIM] =
          K[((b * H + h) * N + j0 + x / HEAD_DIM) * HEAD_DIM + x % HEAD_DIM];
      Vs[x / HEAD_DIM][x % HEAD_DIM] =
          V[((b * H + h) * N + j0 + x / HEAD_DIM) * HEAD_DIM + x % HEAD_DIM];
    }
    __syncthreads();
    for (int jj = 0; jj < TILE; ++jj) {
      float s = 0.0f;
      for (int d = 0; d < HEAD_DIM; ++d) {
#pragma ave assert tag(Ks[jj][d]) == K(b, h, j0 + jj, d) && tag(q[d]) == Q(b, h, i, d)
        s += q[d] * __half2float(Ks[jj][d]);
      }
      if (j0 + jj > i) // masked: exp(-inf - m) is 0, the max does not move
        s = -INFINITY;
      float m_old = m;
      m = fmaxf(m, s);
      float correction = expf(m_old - m);
      float p = expf(s - m);
      l = l * correction + p;
      for (int e = 0; e < HEAD_DIM; ++e) {
#pragma ave assert tag(Vs[jj][e]) == V(b, h, j0 + jj, e)
        acc[e] = acc[e] * correction + p * __half2float(Vs[jj][e]);
      }
    }
    __syncthreads();
  }
  for (int e = 0; e < HEAD_DIM; ++e)
    O[((b * H + h) * N + i) * HEAD_DIM + e] = __float2half(acc[e] / l);
}
