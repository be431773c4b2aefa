// A K tile of 32 that 16x16 threads stage only half of: reads of columns
// 16..31 of As see elements no thread wrote. The twin stages both halves.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

__global__ void halfStaged(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                           const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                           float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
#pragma ave launch block(16, 16) grid(N / 16, M / 16)
#pragma ave assume M % 16 == 0 && N % 16 == 0 && K % 32 == 0 && K >= 32 && K <= 32768 && M <= 32768 && N <= 32768
  __shared__ float As[16][32], Bs[32][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += 32) {
    As[ty][tx] = A[row * K + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * N + col];
    Bs[ty + 16][tx] = B[(k0 + ty + 16) * N + col];
    __syncthreads();
    for (int k = 0; k < 32; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * N + col] = acc;
}

__global__ void fullyStaged(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                            const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                            float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
#pragma ave launch block(16, 16) grid(N / 16, M / 16)
#pragma ave assume M % 16 == 0 && N % 16 == 0 && K % 32 == 0 && K >= 32 && K <= 32768 && M <= 32768 && N <= 32768
  __shared__ float As[16][32], Bs[32][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += 32) {
    As[ty][tx] = A[row * K + k0 + tx];
    As[ty][tx + 16] = A[row * K + k0 + tx + 16];
    Bs[ty][tx] = B[(k0 + ty) * N + col];
    Bs[ty + 16][tx] = B[(k0 + ty + 16) * N + col];
    __syncthreads();
    for (int k = 0; k < 32; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * N + col] = acc;
}
