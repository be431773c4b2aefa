// MUTANT-OF: ../../attention_fwd.hip
// EXPECT: reduction-coverage line 49
// Seeded bug: the last key of every tile is skipped
// Attention forward in FP32: O = softmax(scale * Q K^T) V for every (batch,
// head), head dimension 64, self-attention (N queries and N keys). One block
// of 64 threads per (tile of 64 query rows, batch * head): thread t owns the
// query row i = blockIdx.x * 64 + t, keeps its row of Q and its row of the
// output in registers, and walks the keys in tiles of 64 that the block
// stages through shared memory (K and V, coalesced). The softmax is online:
// a running max m, a running sum l, and the output rescaled by
// expf(m_old - m) as the max grows, so the N scores are never stored.
// Launch: block(64), grid(N / 64, B * H).
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

constexpr int HEAD_DIM = 64;
constexpr int TILE = 64;

__global__ void attention_fwd(
    const float *Q
        AVE_TAG("Q(b < B, h < H, i < N, d < HEAD_DIM) = ((b * H + h) * N + i) * HEAD_DIM + d"),
    const float *K
        AVE_TAG("K(b < B, h < H, j < N, d < HEAD_DIM) = ((b * H + h) * N + j) * HEAD_DIM + d"),
    const float *V
        AVE_TAG("V(b < B, h < H, j < N, e < HEAD_DIM) = ((b * H + h) * N + j) * HEAD_DIM + e"),
    float *O AVE_TAG("O(b < B, h < H, i < N, e < HEAD_DIM) = ((b * H + h) * N + i) * HEAD_DIM + e"),
    float scale, int B, int H, int N) {
#pragma ave launch block(64) grid(N / 64, B * H)
#pragma ave assume N % 64 == 0 && N >= 64 && B >= 1 && H >= 1 && B <= 16 && H <= 64 && N <= 16384
  __shared__ float Ks[TILE][HEAD_DIM], Vs[TILE][HEAD_DIM];
  int t = threadIdx.x;
  int b = blockIdx.y / H, h = blockIdx.y % H;
  int i = blockIdx.x * TILE + t;
  float q[HEAD_DIM], acc[HEAD_DIM];
  for (int d = 0; d < HEAD_DIM; ++d)
    q[d] = Q[((b * H + h) * N + i) * HEAD_DIM + d];
  for (int e = 0; e < HEAD_DIM; ++e)
    acc[e] = 0.0f;
  float m = -INFINITY, l = 0.0f;
  for (int j0 = 0; j0 < N; j0 += TILE) {
    // Consecutive threads load consecutive floats of the tile's 64 key rows.
    for (int x = t; x < TILE * HEAD_DIM; x += TILE) {
      Ks[x / HEAD_DIM][x % HEAD_DIM] =
          K[((b * H + h) * N + j0 + x / HEAD_DIM) * HEAD_DIM + x % HEAD_DIM];
      Vs[x / HEAD_DIM][x % HEAD_DIM] =
          V[((b * H + h) * N + j0 + x / HEAD_DIM) * HEAD_DIM + x % HEAD_DIM];
    }
    __syncthreads();
    for (int jj = 0; jj < TILE - 1; ++jj) { // MUTATION
      float s = 0.0f;
      for (int d = 0; d < HEAD_DIM; ++d) {
#pragma ave assert tag(Ks[jj][d]) == K(b, h, j0 + jj, d) && tag(q[d]) == Q(b, h, i, d)
        s += q[d] * Ks[jj][d];
      }
      s = s * scale;
      float m_old = m;
      m = fmaxf(m, s);
      // The first key: m_old is -inf, so the (zero) output and sum are
      // scaled by expf(-inf) = 0 rather than by a NaN.
      float correction = expf(m_old - m);
      float p = expf(s - m);
      l = l * correction + p;
      for (int e = 0; e < HEAD_DIM; ++e) {
#pragma ave assert tag(Vs[jj][e]) == V(b, h, j0 + jj, e)
        acc[e] = acc[e] * correction + p * Vs[jj][e];
      }
    }
    // The next tile overwrites Ks and Vs: every thread must be done reading.
    __syncthreads();
  }
  for (int e = 0; e < HEAD_DIM; ++e)
    O[((b * H + h) * N + i) * HEAD_DIM + e] = acc[e] / l;
}
