// mma.sync with a 2-D block: the lanes of the warp are threadIdx.x +
// 16 * threadIdx.y, not threadIdx.x.
#include <ave/annotations.h>
#include <ave/matrix_core.h>
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>

// Wrong: takes the lane from threadIdx.x alone (threads (x, 1) repeat the
// fragments of (x, 0)), which the hardware does not do.
__global__ void mma_lane_from_x(const __half *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                                const __half *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                                float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N,
                                int K) {
#pragma ave launch block(16, 2) grid(N / 8, M / 16)
#pragma ave assume M % 16 == 0 && N % 8 == 0 && K % 16 == 0 && K >= 16 && K <= 32768 && M <= 32768 && N <= 32768
  int lane = threadIdx.x;
  int g = lane / 4, t = lane % 4;
  int tile_m = blockIdx.y * 16, tile_n = blockIdx.x * 8;
  float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  for (int k0 = 0; k0 < K; k0 += 16) {
    __half a[8], b[4];
    for (int e = 0; e < 8; ++e)
      a[e] = A[(tile_m + g + 8 * ((e / 2) % 2)) * K + k0 + 2 * t + e % 2 + 8 * (e / 4)];
    for (int e = 0; e < 4; ++e)
      b[e] = B[(k0 + 2 * t + e % 2 + 8 * (e / 2)) * N + tile_n + g];
    ave_mma_m16n8k16_f16(acc, a, b);
  }
  for (int e = 0; e < 4; ++e) {
#pragma ave assert tag(acc[e]).m == tile_m + g + 8 * (e / 2)
    C[(tile_m + g + 8 * (e / 2)) * N + tile_n + 2 * t + e % 2] = acc[e];
  }
}

// Not modelled: a block of 16 threads leaves half of the warp's lanes
// without a thread (the instruction reads their registers all the same).
__global__ void mma_half_warp(const __half *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                                const __half *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                                float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N,
                                int K) {
#pragma ave launch block(16) grid(N / 8, M / 16)
#pragma ave assume M % 16 == 0 && N % 8 == 0 && K % 16 == 0 && K >= 16 && K <= 32768 && M <= 32768 && N <= 32768
  int lane = threadIdx.x;
  int g = lane / 4, t = lane % 4;
  int tile_m = blockIdx.y * 16, tile_n = blockIdx.x * 8;
  float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  for (int k0 = 0; k0 < K; k0 += 16) {
    __half a[8], b[4];
    for (int e = 0; e < 8; ++e)
      a[e] = A[(tile_m + g + 8 * ((e / 2) % 2)) * K + k0 + 2 * t + e % 2 + 8 * (e / 4)];
    for (int e = 0; e < 4; ++e)
      b[e] = B[(k0 + 2 * t + e % 2 + 8 * (e / 2)) * N + tile_n + g];
    ave_mma_m16n8k16_f16(acc, a, b);
  }
  for (int e = 0; e < 4; ++e) {
#pragma ave assert tag(acc[e]).m == tile_m + g + 8 * (e / 2)
    C[(tile_m + g + 8 * (e / 2)) * N + tile_n + 2 * t + e % 2] = acc[e];
  }
}

// Not modelled: the block shape, hence the lanes, is not known.
__global__ void mma_launch_unknown(const __half *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                                const __half *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                                float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N,
                                int K) {
#pragma ave assume M % 16 == 0 && N % 8 == 0 && K % 16 == 0 && K >= 16 && K <= 32768 && M <= 32768 && N <= 32768
  int lane = threadIdx.x;
  int g = lane / 4, t = lane % 4;
  int tile_m = blockIdx.y * 16, tile_n = blockIdx.x * 8;
  float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  for (int k0 = 0; k0 < K; k0 += 16) {
    __half a[8], b[4];
    for (int e = 0; e < 8; ++e)
      a[e] = A[(tile_m + g + 8 * ((e / 2) % 2)) * K + k0 + 2 * t + e % 2 + 8 * (e / 4)];
    for (int e = 0; e < 4; ++e)
      b[e] = B[(k0 + 2 * t + e % 2 + 8 * (e / 2)) * N + tile_n + g];
    ave_mma_m16n8k16_f16(acc, a, b);
  }
  for (int e = 0; e < 4; ++e) {
#pragma ave assert tag(acc[e]).m == tile_m + g + 8 * (e / 2)
    C[(tile_m + g + 8 * (e / 2)) * N + tile_n + 2 * t + e % 2] = acc[e];
  }
}

// Correct: the lane is the thread's place in the warp.
__global__ void mma_lane_linear(const __half *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                                const __half *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                                float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N,
                                int K) {
#pragma ave launch block(16, 2) grid(N / 8, M / 16)
#pragma ave assume M % 16 == 0 && N % 8 == 0 && K % 16 == 0 && K >= 16 && K <= 32768 && M <= 32768 && N <= 32768
  int lane = threadIdx.x + 16 * threadIdx.y;
  int g = lane / 4, t = lane % 4;
  int tile_m = blockIdx.y * 16, tile_n = blockIdx.x * 8;
  float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  for (int k0 = 0; k0 < K; k0 += 16) {
    __half a[8], b[4];
    for (int e = 0; e < 8; ++e)
      a[e] = A[(tile_m + g + 8 * ((e / 2) % 2)) * K + k0 + 2 * t + e % 2 + 8 * (e / 4)];
    for (int e = 0; e < 4; ++e)
      b[e] = B[(k0 + 2 * t + e % 2 + 8 * (e / 2)) * N + tile_n + g];
    ave_mma_m16n8k16_f16(acc, a, b);
  }
  for (int e = 0; e < 4; ++e) {
#pragma ave assert tag(acc[e]).m == tile_m + g + 8 * (e / 2)
    C[(tile_m + g + 8 * (e / 2)) * N + tile_n + 2 * t + e % 2] = acc[e];
  }
}
