// The register-tiled SGEMM with its micro-tile loop over i unrolled by
// hand (acc[i][j] and acc[i + 1][j] in one iteration). The slot of acc the
// loop over j writes holds that iteration's element only; the read of
// acc[i + 1][j] through it took acc[i][j]'s value: a tag mismatch on a
// correct kernel. Now such a read is not followed: unproven.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

__global__ void sgemm_register_tiled(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                                     const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                                     float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M,
                                     int N, int K) {
#pragma ave launch block(256) grid(N / 64, M / 64)
#pragma ave assume M % 64 == 0 && N % 64 == 0 && K % 16 == 0 && K >= 16 && K <= 32768 && M <= 32768 && N <= 32768
  __shared__ float As[64][16], Bs[16][64];
  int tid = threadIdx.x;
  int tx = tid % 16, ty = tid / 16;
  int row0 = blockIdx.y * 64, col0 = blockIdx.x * 64;
  float acc[4][4];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      acc[i][j] = 0.0f;
  for (int k0 = 0; k0 < K; k0 += 16) {
    for (int l = 0; l < 4; ++l) {
      int e = tid + l * 256;
      As[e / 16][e % 16] = A[(row0 + e / 16) * K + k0 + e % 16];
      Bs[e / 64][e % 64] = B[(k0 + e / 64) * N + col0 + e % 64];
    }
    __syncthreads();
    for (int k = 0; k < 16; ++k) {
      float a[4];
      float b[4];
      for (int i = 0; i < 4; ++i)
        a[i] = As[ty * 4 + i][k];
      for (int j = 0; j < 4; ++j)
        b[j] = Bs[k][tx * 4 + j];
      for (int i = 0; i < 4; i += 2)
        for (int j = 0; j < 4; ++j) {
          acc[i][j] += a[i] * b[j];
          acc[i + 1][j] += a[i + 1] * b[j];
        }
    }
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      C[(row0 + ty * 4 + i) * N + col0 + tx * 4 + j] = acc[i][j];
}
