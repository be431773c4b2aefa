// Staged loops of unusual but correct shapes that the pipeline rewriter
// handles: guarded loads with a zero fill (K need not be a multiple of the
// tile: the prefetch guard `k0 + 16 < K` is "the next tile exists"), and a
// block of 16 x 8 threads that loads each 16 x 16 tile in two rows per
// thread (a constant-trip loop: one register per row).
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

__global__ void guardedTail(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                            const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                            float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
#pragma ave launch block(16, 16) grid(N / 16, M / 16)
#pragma ave assume M % 16 == 0 && N % 16 == 0 && K >= 1 && K <= 32768 && M <= 32768 && N <= 32768
  __shared__ float As[16][16], Bs[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += 16) {
    if (k0 + tx < K)
      As[ty][tx] = A[row * K + k0 + tx];
    else
      As[ty][tx] = 0.0f;
    if (k0 + ty < K)
      Bs[ty][tx] = B[(k0 + ty) * N + col];
    else
      Bs[ty][tx] = 0.0f;
    __syncthreads();
    for (int k = 0; k < 16; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * N + col] = acc;
}

__global__ void twoRowsPerThread(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                                 const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                                 float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N,
                                 int K) {
#pragma ave launch block(16, 8) grid(N / 16, M / 16)
#pragma ave assume M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && K >= 16 && K <= 32768 && M <= 32768 && N <= 32768
  __shared__ float As[16][16], Bs[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row0 = blockIdx.y * 16, col = blockIdx.x * 16 + tx;
  float acc0 = 0.0f, acc1 = 0.0f;
  for (int k0 = 0; k0 < K; k0 += 16) {
    for (int i = 0; i < 2; ++i) {
      As[ty + 8 * i][tx] = A[(row0 + ty + 8 * i) * K + k0 + tx];
      Bs[ty + 8 * i][tx] = B[(k0 + ty + 8 * i) * N + col];
    }
    __syncthreads();
    for (int k = 0; k < 16; ++k) {
      acc0 += As[ty][k] * Bs[k][tx];
      acc1 += As[ty + 8][k] * Bs[k][tx];
    }
    __syncthreads();
  }
  C[(row0 + ty) * N + col] = acc0;
  C[(row0 + ty + 8) * N + col] = acc1;
}
