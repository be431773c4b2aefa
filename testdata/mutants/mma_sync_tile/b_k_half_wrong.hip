// MUTANT-OF: ../../mma_sync_tile.hip
// EXPECT: tag-mismatch line 32
// Seeded bug: the B fragment takes its k half from e % 2
// NVIDIA (sm_80+): one warp of 32 threads computes a 16x8 fp32 tile of
// C = A * B from fp16 A and B with mma.sync m16n8k16 through the project
// helper ave_mma_m16n8k16_f16 (ave/matrix_core.h), K in steps of 16. Fragment
// layout (PTX ISA), g = lane / 4, t = lane % 4:
//   a[e] = A(g + 8*((e / 2) % 2), 2*t + e % 2 + 8*(e / 4))
//   b[e] = B(2*t + e % 2 + 8*(e / 2), g)
//   acc[e] = C(g + 8*(e / 2), 2*t + e % 2)
// Launch: block(32), grid(N / 8, M / 16).
#include <ave/annotations.h>
#include <ave/matrix_core.h>
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>

__global__ void mma_sync_tile(const __half *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                              const __half *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                              float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
#pragma ave launch block(32) grid(N / 8, M / 16)
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
      b[e] = B[(k0 + 2 * t + e % 2 + 8 * (e % 2)) * N + tile_n + g]; // MUTATION: k half from e % 2
    ave_mma_m16n8k16_f16(acc, a, b);
  }
  for (int e = 0; e < 4; ++e) {
#pragma ave assert tag(acc[e]).m == tile_m + g + 8 * (e / 2)
    C[(tile_m + g + 8 * (e / 2)) * N + tile_n + 2 * t + e % 2] = acc[e];
  }
}
