// MUTANT-OF: ../../moe/moe_top1.hip
// EXPECT: tag-mismatch line 46
// Seeded bug: the routing weight P[r] is not applied
// Top-1 Mixture-of-Experts expert GEMM. The R routed rows are sorted by
// expert; routed row r takes token tok[r]'s activations, multiplies them by
// expert ex[r]'s weights, scales the result by the row's routing weight
// P[r] and stores it back to token tok[r]'s row of Y:
//
//   Y[tok[r], n] = P[r] * sum_k X[tok[r], k] * W[ex[r], k, n]
//
// Each thread computes one element; the X row it gathers is staged in LDS
// once per 16-wide K tile for the 16 threads of its row. With top-1
// routing every token is routed once, so tok is a permutation of the
// tokens (R == T): the assumption `permutation(tok, T)` says so, and with
// it the scatter provably writes every element of Y once.
// Launch: block(16, 16), grid(N / 16, R / 16).
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

__global__ void moe_top1(const float *X AVE_TAG("X(t < T, k < K) = t * K + k"),
                         const float *W AVE_TAG("W(x < E, k < K, n < N) = (x * K + k) * N + n"),
                         const float *P AVE_TAG("P(r < R) = r"),
                         float *Y AVE_TAG("Y(t < T, n < N) = t * N + n"), const int *tok,
                         const int *ex, int R, int T, int E, int K, int N) {
#pragma ave launch block(16, 16) grid(N / 16, R / 16)
#pragma ave assume R == T && R % 16 == 0 && N % 16 == 0 && K % 16 == 0 && K >= 16
#pragma ave assume T <= 65536 && E <= 64 && K <= 4096 && N <= 4096
#pragma ave assume permutation(tok, T) && bounded(ex, R, E)
  __shared__ float Xs[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int r = blockIdx.y * 16 + ty;
  int n = blockIdx.x * 16 + tx;
  int t = tok[r];
  int e = ex[r];
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += 16) {
    Xs[ty][tx] = X[t * K + k0 + tx];
    __syncthreads();
    for (int k = 0; k < 16; ++k) {
#pragma ave assert tag(Xs[ty][k]) == X(tok[r], k0 + k) && tag(W[(e * K + k0 + k) * N + n]).x == ex[r]
      acc += Xs[ty][k] * W[(e * K + k0 + k) * N + n];
    }
    __syncthreads();
  }
  float y = acc;
#pragma ave assert tag(y) == P(r)
  Y[t * N + n] = y;
}
