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
#include <ave/matrix_core.h>

#if defined(__HIP_PLATFORM_NVIDIA__)
__launch_bounds__(256, 2)
#else
__launch_bounds__(256, 2)
#endif
__global__ void hgemm32(const __half *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                        const __half *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                        float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
#pragma ave launch block(256) grid(N / 128, M / 128)
#pragma ave assume M % 128 == 0 && N % 128 == 0 && K % 32 == 0 && K >= 32 && K <= 32768 && M <= 32768 && N <= 32768
  alignas(16) __shared__ __half As[128][32];
  alignas(16) __shared__ __half Bs[32][128];
  const int tid = threadIdx.x;
  const int row0 = blockIdx.y * 128, col0 = blockIdx.x * 128;
#if defined(__HIP_PLATFORM_AMD__)
  typedef _Float16 ave_half4 __attribute__((ext_vector_type(4)));
  typedef float ave_float4 __attribute__((ext_vector_type(4)));
  const int warp = tid / 64, lane = tid % 64;
  const int wm0 = warp / 2 * 64, wn0 = warp % 2 * 64;
  const int r = lane % 16, q = lane / 16;
  float acc[4][4][4];
#else
  const int warp = tid / 32, lane = tid % 32;
  const int wm0 = warp / 4 * 64, wn0 = warp % 4 * 32;
  const int g = lane / 4, t = lane % 4;
  float acc[4][4][4];
#endif
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      for (int e = 0; e < 4; ++e)
        acc[i][j][e] = 0;
  for (int k0 = 0; k0 < K; k0 += 32) {
    for (int l = 0; l < 16; ++l) {
      const int e = tid + l * 256;
      As[e / 32][e % 32] = A[(row0 + e / 32) * K + (k0 + e % 32)];
    }
    for (int l = 0; l < 16; ++l) {
      const int e = tid + l * 256;
      Bs[e / 128][e % 128] = B[(k0 + e / 128) * N + (col0 + e % 128)];
    }
    __syncthreads();
    for (int kk = 0; kk < 32; kk += 16) {
#if defined(__HIP_PLATFORM_AMD__)
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) {
          ave_half4 fa;
          ave_half4 fb;
          ave_float4 c;
          for (int e = 0; e < 4; ++e)
            fa[e] = (_Float16)__half2float(As[wm0 + 16 * i + r][kk + 4 * q + e]);
          for (int e = 0; e < 4; ++e)
            fb[e] = (_Float16)__half2float(Bs[kk + 4 * q + e][wn0 + 16 * j + r]);
          for (int e = 0; e < 4; ++e)
            c[e] = acc[i][j][e];
          c = __builtin_amdgcn_mfma_f32_16x16x16f16(fa, fb, c, 0, 0, 0);
          for (int e = 0; e < 4; ++e)
            acc[i][j][e] = c[e];
        }
#else
      for (int i = 0; i < 4; ++i) {
        __half fa[8];
        for (int e = 0; e < 8; ++e)
          fa[e] = As[wm0 + 16 * i + g + 8 * ((e / 2) % 2)][kk + 2 * t + e % 2 + 8 * (e / 4)];
        for (int j = 0; j < 4; ++j) {
          __half fb[4];
          ave_ldmatrix_x2_trans(fb, &Bs[kk + lane % 16][wn0 + 8 * j]);
          float c[4];
          for (int e = 0; e < 4; ++e)
            c[e] = acc[i][j][e];
          ave_mma_m16n8k16_f16(c, fa, fb);
          for (int e = 0; e < 4; ++e)
            acc[i][j][e] = c[e];
        }
      }
#endif
    }
    __syncthreads();
  }
#if defined(__HIP_PLATFORM_AMD__)
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      for (int e = 0; e < 4; ++e)
        C[(row0 + wm0 + 16 * i + 4 * q + e) * N + (col0 + wn0 + 16 * j + r)] = acc[i][j][e];
#else
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      for (int e = 0; e < 4; ++e)
        C[(row0 + wm0 + 16 * i + g + 8 * (e / 2)) * N + (col0 + wn0 + 8 * j + 2 * t + e % 2)] = acc[i][j][e];
#endif
}
