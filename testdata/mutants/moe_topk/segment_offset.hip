// MUTANT-OF: ../../moe/moe_topk.hip
// EXPECT: tag-mismatch line 59
// Seeded bug: the combine sums the next token's segment of slots
// Top-k Mixture-of-Experts: every token is routed to TOPK experts, so there
// are S = T * TOPK slots (token t's j-th choice is slot t * TOPK + j). The
// router sorts the slots by expert: sorted row r is slot sid[r], of token
// sid[r] / TOPK, for expert ex[r]. Two kernels:
//
//   moe_topk_gemm:    C[sid[r], n] = P[sid[r]] * sum_k X[sid[r] / TOPK, k] * W[ex[r], k, n]
//   moe_topk_combine: Y[t, n]      = sum_j C[t * TOPK + j, n]
//
// The grouped GEMM scatters each sorted row back to its slot (sid is a
// permutation of the slots), scaled by the slot's routing weight; the
// combine is a segmented sum over each token's TOPK slots.
// Launch: gemm block(16, 16) grid(N / 16, S / 16); combine block(64) grid(N / 64, T).
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

#define TOPK 2

__global__ void moe_topk_gemm(const float *X AVE_TAG("X(t < T, k < K) = t * K + k"),
                              const float *W AVE_TAG("W(x < E, k < K, n < N) = (x * K + k) * N + n"),
                              const float *P AVE_TAG("P(s < S) = s"),
                              float *C AVE_TAG("C(s < S, n < N) = s * N + n"), const int *sid,
                              const int *ex, int S, int T, int E, int K, int N) {
#pragma ave launch block(16, 16) grid(N / 16, S / 16)
#pragma ave assume S == T * TOPK && S % 16 == 0 && N % 16 == 0 && K % 16 == 0 && K >= 16
#pragma ave assume T <= 32768 && E <= 64 && K <= 4096 && N <= 4096
#pragma ave assume permutation(sid, S) && bounded(ex, S, E)
  __shared__ float Xs[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int r = blockIdx.y * 16 + ty;
  int n = blockIdx.x * 16 + tx;
  int s = sid[r];
  int t = s / TOPK;
  int e = ex[r];
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += 16) {
    Xs[ty][tx] = X[t * K + k0 + tx];
    __syncthreads();
    for (int k = 0; k < 16; ++k) {
#pragma ave assert tag(W[(e * K + k0 + k) * N + n]).x == ex[r] && tag(Xs[ty][k]) == X(sid[r] / TOPK, k0 + k)
      acc += Xs[ty][k] * W[(e * K + k0 + k) * N + n];
    }
    __syncthreads();
  }
  C[s * N + n] = P[s] * acc;
}

__global__ void moe_topk_combine(const float *C AVE_TAG("C(t < T, j < TOPK, n < N) = (t * TOPK + j) * N + n"),
                                 float *Y AVE_TAG("Y(t < T, n < N) = t * N + n"), int T, int N) {
#pragma ave launch block(64) grid(N / 64, T)
#pragma ave assume N % 64 == 0 && N <= 4096 && T <= 32768
  int t = blockIdx.y;
  int n = blockIdx.x * 64 + threadIdx.x;
  float y = 0.0f;
  for (int j = 0; j < TOPK; ++j)
    y += C[((t + 1) % T * TOPK + j) * N + n];
  Y[t * N + n] = y;
}
