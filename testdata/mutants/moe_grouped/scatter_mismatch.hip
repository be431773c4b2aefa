// MUTANT-OF: ../../moe/moe_grouped.hip
// EXPECT: tag-mismatch line 73
// Seeded bug: the result is stored to the routed row r instead of its token tok[r]
// Grouped top-1 Mixture-of-Experts expert GEMM, register-tiled. As in
// moe_top1.hip, routed row r gathers token tok[r]'s activations, multiplies
// them by expert ex[r]'s weights, scales by the routing weight P[r] and
// scatters to token tok[r]'s row of Y:
//
//   Y[tok[r], n] = P[r] * sum_k X[tok[r], k] * W[ex[r], k, n]
//
// The router pads each expert's rows to whole blocks of 128 (as vLLM's
// moe_align_block_size does), which `blockwise(ex, R, 128)` states: every
// block of 128 rows has one expert, read once at its first row, so the
// block can stage a 8x128 tile of that expert's W in LDS next to the 128
// gathered X rows (stored k-major), and each of its 256 threads computes an
// 8x8 micro-tile of outputs from registers. A thread gathers the same four
// X rows at every step of k, so it reads their tokens once, into xrow.
// Launch: block(256), grid(N / 128, R / 128).
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

__global__ void moe_grouped(const float *X AVE_TAG("X(t < T, k < K) = t * K + k"),
                            const float *W AVE_TAG("W(x < E, k < K, n < N) = (x * K + k) * N + n"),
                            const float *P AVE_TAG("P(r < R) = r"),
                            float *Y AVE_TAG("Y(t < T, n < N) = t * N + n"), const int *tok,
                            const int *ex, int R, int T, int E, int K, int N) {
#pragma ave launch block(256) grid(N / 128, R / 128)
#pragma ave assume R == T && R % 128 == 0 && N % 128 == 0 && K % 8 == 0 && K >= 8
#pragma ave assume T <= 65536 && E <= 64 && K <= 4096 && N <= 4096
#pragma ave assume permutation(tok, T) && bounded(ex, R, E) && blockwise(ex, R, 128)
  __shared__ float Xs[8][128], Ws[8][128];
  const int tid = threadIdx.x;
  const int tx = tid % 16, ty = tid / 16;
  const int row0 = blockIdx.y * 128, col0 = blockIdx.x * 128;
  const int e = ex[row0];
  float acc[8][8];
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j)
      acc[i][j] = 0.0f;
  int xrow[4];
  for (int l = 0; l < 4; ++l)
    xrow[l] = tok[row0 + tid / 8 + l * 32] * K + tid % 8;
  for (int k0 = 0; k0 < K; k0 += 8) {
    for (int l = 0; l < 4; ++l)
      Xs[tid % 8][tid / 8 + l * 32] = X[xrow[l] + k0];
    for (int l = 0; l < 4; ++l) {
      const int q = tid + l * 256;
      Ws[q / 128][q % 128] = W[(e * K + k0 + q / 128) * N + col0 + q % 128];
    }
    __syncthreads();
    for (int k = 0; k < 8; ++k) {
      float a[8];
      float b[8];
      for (int i = 0; i < 8; ++i)
        a[i] = Xs[k][ty * 8 + i];
      for (int j = 0; j < 8; ++j)
        b[j] = Ws[k][tx * 8 + j];
      for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 8; ++j) {
#pragma ave assert tag(a[i]) == X(tok[row0 + ty * 8 + i], k0 + k) && tag(b[j]).x == ex[row0 + ty * 8 + i]
          acc[i][j] += a[i] * b[j];
        }
    }
    __syncthreads();
  }
  for (int i = 0; i < 8; ++i) {
    const int r = row0 + ty * 8 + i;
    const int t = r;
    const float p = P[r];
    for (int j = 0; j < 8; ++j) {
      const float y = p * acc[i][j];
#pragma ave assert tag(y) == P(r)
      Y[t * N + col0 + tx * 8 + j] = y;
    }
  }
}

