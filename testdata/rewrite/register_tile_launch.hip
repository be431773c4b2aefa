// A tiled SGEMM launched from host code in the same file: register-tile
// rewrites the launch's grid and block with the launch's own arguments.
// Launch: block(16, 16), grid(N / 16, M / 16).
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

__global__ void sgemm(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                      const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                      float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
#pragma ave launch block(16, 16) grid(N / 16, M / 16)
#pragma ave assume M % 128 == 0 && N % 128 == 0 && K % 16 == 0 && K >= 16 && K <= 4096 && M <= 4096 && N <= 4096
  __shared__ float As[16][16], Bs[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += 16) {
    As[ty][tx] = A[row * K + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < 16; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * N + col] = acc;
}

void multiply(const float *a, const float *b, float *c, int rows, int cols, int depth,
              hipStream_t stream) {
  sgemm<<<dim3(cols / 16, rows / 16), dim3(16, 16), 0, stream>>>(a, b, c, rows, cols, depth);
}
