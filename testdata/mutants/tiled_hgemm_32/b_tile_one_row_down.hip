// MUTANT-OF: ../../tiled_hgemm_32.hip
// EXPECT: tag-mismatch line 29
// Seeded bug: the B tile is staged from the next row of B.
// LDS-tiled fp16 GEMM with 32x32 tiles, C = A * B: __half inputs, a float
// accumulator, one output per thread with scalar FMAs (block(32, 32)), 32
// of K staged per step. The matrix-core rewrite's input and the scalar
// kernel it is measured against (`rewrite --apply matrix-core`). The sizes
// it is run at are multiples of 128, which the assumption says: stronger
// than its own tiles need, it is what lets a rewrite choose 128-wide tiles.
// Launch: block(32, 32), grid(N / 32, M / 32).
#include <ave/annotations.h>
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>

__global__ void hgemm32(const __half *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                        const __half *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                        float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
#pragma ave launch block(32, 32) grid(N / 32, M / 32)
#pragma ave assume M % 128 == 0 && N % 128 == 0 && K % 32 == 0 && K >= 32 && K <= 32768 && M <= 32768 && N <= 32768
  __shared__ __half As[32][32], Bs[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 32 + ty, col = blockIdx.x * 32 + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += 32) {
    As[ty][tx] = A[row * K + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty + 1) * N + col]; // MUTATION: the B tile is staged from the next row of B
    __syncthreads();
    for (int k = 0; k < 32; ++k)
      acc += __half2float(As[ty][k]) * __half2float(Bs[k][tx]);
    __syncthreads();
  }
  C[row * N + col] = acc;
}
