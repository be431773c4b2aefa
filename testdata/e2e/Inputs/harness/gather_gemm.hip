// A gathered GEMM: row r reads token tok[r]'s activations and writes that
// token's output row, Y[tok[r], n] = sum_k X[tok[r], k] W[k, n]. Its tags
// spell a plain GEMM, but the bundle routes the reference through tok.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

__global__ void gather_gemm(const float *X AVE_TAG("X(t < T, k < K) = t * K + k"),
                            const float *W AVE_TAG("W(k < K, n < N) = k * N + n"),
                            float *Y AVE_TAG("Y(t < T, n < N) = t * N + n"), const int *tok,
                            int T, int K, int N) {
#pragma ave launch block(64) grid(N / 64, T)
#pragma ave assume N % 64 == 0 && T <= 4096 && K <= 1024 && N <= 1024 && K >= 1
#pragma ave assume permutation(tok, T)
  int r = blockIdx.y;
  int n = blockIdx.x * 64 + threadIdx.x;
  int t = tok[r];
  float acc = 0.0f;
  for (int k = 0; k < K; ++k)
    acc += X[t * K + k] * W[k * N + n];
  Y[t * N + n] = acc;
}
