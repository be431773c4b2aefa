// MUTANT-OF: ../../mfma_f16_tile.hip
// EXPECT: tag-mismatch line 43
// Seeded bug: B operand loaded with the A layout (k from the lane row, n from the group).
// AMD-only (CDNA, gfx908 and later; checked on gfx942): one wave of 64 lanes
// computes a 16x16 fp32 tile of C = A * B from fp16 A and B with
// __builtin_amdgcn_mfma_f32_16x16x16f16, K in steps of 16. Operand and result
// lane layout (shared/ANALYSIS.md section 7), lane = threadIdx.x % 64:
//   A(i, kk) in lane i + 16 * (kk / 4), element kk % 4
//   B(kk, j) in lane j + 16 * (kk / 4), element kk % 4
//   C(i, j)  in lane j + 16 * (i / 4),  register i % 4
// The builtin does not exist on NVIDIA, so the file refuses to build there;
// the sm_90 equivalent is mma.sync m16n8k16 (the matrix-core rewrite emits it).
// Launch: block(64), grid(N / 16, M / 16).
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

#if !defined(__HIP_PLATFORM_AMD__) && !defined(__AMDGCN__)
#error "mfma_f16_tile.hip is AMD-only: __builtin_amdgcn_mfma_* has no NVIDIA equivalent"
#endif

typedef _Float16 half4 __attribute__((ext_vector_type(4)));
typedef float float4_vec __attribute__((ext_vector_type(4)));

__global__ void mfma_f16_tile(const _Float16 *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                              const _Float16 *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                              float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N,
                              int K) {
#pragma ave launch block(64) grid(N / 16, M / 16)
#pragma ave assume M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && K >= 16 && K <= 32768 && M <= 32768 && N <= 32768
#if defined(__AMDGCN__)
  int lane = threadIdx.x % 64;
  int lane_row = lane % 16;   // row i of A; column j of B and C
  int lane_group = lane / 16; // which 4 k of the operands; which 4 rows of C
  int tile_m = blockIdx.y * 16, tile_n = blockIdx.x * 16;
  float4_vec acc = {0.0f, 0.0f, 0.0f, 0.0f};
  for (int k0 = 0; k0 < K; k0 += 16) {
    half4 a, b;
    for (int e = 0; e < 4; ++e) {
      a[e] = A[(tile_m + lane_row) * K + k0 + 4 * lane_group + e];
      b[e] = B[(k0 + lane_row) * N + tile_n + 4 * lane_group + e]; // MUTATION: B operand loaded with the A layout (k from the lane row, n from the group)
    }
#pragma ave assert tag(a[0]) == A(tile_m + lane_row, k0 + 4 * lane_group)
    acc = __builtin_amdgcn_mfma_f32_16x16x16f16(a, b, acc, 0, 0, 0);
  }
  for (int r = 0; r < 4; ++r) {
#pragma ave assert tag(acc[r]).m == tile_m + 4 * lane_group + r
#pragma ave assert tag(acc[r]).n == tile_n + lane_row
    C[(tile_m + 4 * lane_group + r) * N + tile_n + lane_row] = acc[r];
  }
#endif
}
