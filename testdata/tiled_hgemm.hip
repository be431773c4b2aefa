// LDS-tiled fp16 GEMM, C = A * B with __half inputs and a float accumulator:
// the tiled SGEMM's structure (16x16 tiles of A and B staged in shared
// memory, one output per thread) on half the bytes per element. The pipeline
// rewrite is measured on it (bench/RESULTS.md); its 2-byte elements are not
// a size cp.async copies, so async=1 refuses it.
// Launch: block(16, 16), grid(N / 16, M / 16).
#include <ave/annotations.h>
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>

__global__ void hgemm(const __half *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                      const __half *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                      float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
#pragma ave launch block(16, 16) grid(N / 16, M / 16)
#pragma ave assume M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && K >= 16 && K <= 32768 && M <= 32768 && N <= 32768
  __shared__ __half As[16][16], Bs[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += 16) {
    As[ty][tx] = A[row * K + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < 16; ++k) {
#pragma ave assert tag(As[ty][k]) == A(row, k0 + k) && tag(Bs[k][tx]) == B(k0 + k, col)
      acc += __half2float(As[ty][k]) * __half2float(Bs[k][tx]);
    }
    __syncthreads();
  }
  C[row * N + col] = acc;
}
