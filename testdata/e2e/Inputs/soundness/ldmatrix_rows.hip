// ldmatrix.x2 reads the rows lanes 0..15 give, but every lane forms its
// row address: lane 16's `&Bs[16][0]` lies past the array (the CPU
// executor stops there), and the analysis proved the kernel, having
// checked only the elements the instruction reads.
#include <ave/annotations.h>
#include <ave/matrix_core.h>
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>

__global__ void ldmatrix_row_past_end(const __half *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                              const __half *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                              float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
#pragma ave launch block(32) grid(N / 8, M / 16)
#pragma ave assume M % 16 == 0 && N % 8 == 0 && K % 16 == 0 && K >= 16 && K <= 32768 && M <= 32768 && N <= 32768
  alignas(16) __shared__ __half As[16][16];
  alignas(16) __shared__ __half Bs[16][8];
  int lane = threadIdx.x;
  int g = lane / 4, t = lane % 4;
  int tile_m = blockIdx.y * 16, tile_n = blockIdx.x * 8;
  float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  for (int k0 = 0; k0 < K; k0 += 16) {
    for (int e = lane; e < 256; e += 32)
      As[e / 16][e % 16] = A[(tile_m + e / 16) * K + k0 + e % 16];
    for (int e = lane; e < 128; e += 32)
      Bs[e / 8][e % 8] = B[(k0 + e / 8) * N + tile_n + e % 8];
    __syncthreads();
    __half a[8], b[4];
    ave_ldmatrix_x4(a, &As[lane % 16][8 * (lane / 16)]);
    ave_ldmatrix_x2_trans(b, &Bs[lane % 17][0]);
    ave_mma_m16n8k16_f16(acc, a, b);
    __syncthreads();
  }
  for (int e = 0; e < 4; ++e) {
#pragma ave assert tag(acc[e]).m == tile_m + g + 8 * (e / 2)
    C[(tile_m + g + 8 * (e / 2)) * N + tile_n + 2 * t + e % 2] = acc[e];
  }
}
