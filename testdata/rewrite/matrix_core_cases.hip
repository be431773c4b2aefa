// Kernels for rewrite/matrix_core.test beside testdata/tiled_hgemm_32.hip.
#include <ave/annotations.h>
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>

// The fp16 GEMM with sizes assumed multiples of 32 only: matrix-core with
// 32x32 block tiles (four 16x16 warp tiles) rewrites it; its default 64x64
// tiles would need edge code it does not write, and it says so.
__global__ void hgemm_small(const __half *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                            const __half *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                            float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
#pragma ave launch block(32, 32) grid(N / 32, M / 32)
#pragma ave assume M % 32 == 0 && N % 32 == 0 && K % 32 == 0 && K >= 32 && K <= 32768 && M <= 32768 && N <= 32768
  __shared__ __half As[32][32], Bs[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 32 + ty, col = blockIdx.x * 32 + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += 32) {
    As[ty][tx] = A[row * K + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < 32; ++k)
      acc += __half2float(As[ty][k]) * __half2float(Bs[k][tx]);
    __syncthreads();
  }
  C[row * N + col] = acc;
}

// fp32 inputs: on the matrix cores they would be computed in reduced
// precision (tf32), so matrix-core refuses them.
__global__ void sgemm32(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                        const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                        float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
#pragma ave launch block(32, 32) grid(N / 32, M / 32)
#pragma ave assume M % 128 == 0 && N % 128 == 0 && K % 32 == 0 && K >= 32 && K <= 32768 && M <= 32768 && N <= 32768
  __shared__ float As[32][32], Bs[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 32 + ty, col = blockIdx.x * 32 + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += 32) {
    As[ty][tx] = A[row * K + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < 32; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * N + col] = acc;
}
