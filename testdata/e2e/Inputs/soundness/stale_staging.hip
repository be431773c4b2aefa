// An LDS tile staged only in the first iteration: later iterations read
// the first tile again. The assertion about what the tile holds must not be
// proven from the one write the analysis finds (the read at k0 > 0 has no
// write it knows of); the reduction over k is violated. The twin stages
// every tile and proves.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

__global__ void staged_once(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                            const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                            float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
#pragma ave launch block(16, 16) grid(N / 16, M / 16)
#pragma ave assume M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && K >= 16 && K <= 4096 && M <= 4096 && N <= 4096
  __shared__ float As[16][16], Bs[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += 16) {
    if (k0 == 0)
      As[ty][tx] = A[row * K + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < 16; ++k) {
#pragma ave assert tag(As[ty][k]) == A(row, k0 + k)
      acc += As[ty][k] * Bs[k][tx];
    }
    __syncthreads();
  }
  C[row * N + col] = acc;
}

__global__ void staged_every_tile(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                                  const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                                  float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N,
                                  int K) {
#pragma ave launch block(16, 16) grid(N / 16, M / 16)
#pragma ave assume M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && K >= 16 && K <= 4096 && M <= 4096 && N <= 4096
  __shared__ float As[16][16], Bs[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += 16) {
    if (k0 >= 0)
      As[ty][tx] = A[row * K + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < 16; ++k) {
#pragma ave assert tag(As[ty][k]) == A(row, k0 + k)
      acc += As[ty][k] * Bs[k][tx];
    }
    __syncthreads();
  }
  C[row * N + col] = acc;
}
