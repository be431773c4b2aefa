// PLANTED BUG for the bench bundle (must be rejected): the tiled SGEMM of
// testdata/tiled_gemm.hip, correct output, but it casts away const and
// writes into its input A after its last read of it.
// Expected verdict: input-modified.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

__global__ void sgemm(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                      const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                      float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
#pragma ave launch block(16, 16) grid(N / 16, M / 16)
#pragma ave assume M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && K >= 16
  __shared__ float As[16][16], Bs[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += 16) {
    As[ty][tx] = A[row * K + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < 16; ++k) {
#pragma ave assert tag(As[ty][k]) == A(row, k0 + k) && tag(Bs[k][tx]) == B(k0 + k, col)
      acc += As[ty][k] * Bs[k][tx];
    }
    __syncthreads();
  }
  C[row * N + col] = acc;
  // Blocks of other columns may still read this row, so C can go wrong too;
  // the bundle reports the modified input first either way.
  if (blockIdx.x == gridDim.x - 1 && tx == 0)
    const_cast<float *>(A)[row * K] = acc; // PLANTED: writes its input
}
