// Project helpers for NVIDIA matrix cores: one warp-wide
// mma.sync.aligned.m16n8k16.row.col with f32 accumulation, written so that
// ave-rewrite's analysis reads it through its lane-model table
// (invariants/MatrixLaneModel.cpp) and nvcc emits the instruction.
//
//   ave_mma_m16n8k16_f16(acc, a, b): acc += A(16x16) * B(16x8) for the warp.
//   a[8]: A(i, kk) of this lane, element kk % 2 + 2*(i / 8) + 4*(kk / 8) for
//         i = lane / 4 (+ 8), kk = 2*(lane % 4) + ... (PTX ISA fragment layout)
//   b[4]: B(kk, j), element kk % 2 + 2*(kk / 8), j = lane / 4
//   acc[4]: C(i, j), element j % 2 + 2*(i / 8), i = lane / 4 (+ 8), j = 2*(lane % 4) (+ 1)
//
//   ave_ldmatrix_x4(frag, row), _x2, _x4_trans, _x2_trans: one warp-wide
//   ldmatrix.sync.aligned.m8n8.x4/.x2[.trans].shared.b16. `row` is this
//   lane's row address in shared memory (lane 8*m + r: row r of matrix m;
//   16-byte aligned); frag[2*m], frag[2*m + 1] are this lane's two elements
//   of matrix m: row lane / 4, columns 2*(lane % 4), +1, or with .trans
//   rows 2*(lane % 4), +1 of column lane / 4. With row = &As[i0 + lane % 16]
//   [k0 + 8 * (lane / 16)], x4 is the mma A fragment of As[i0..][k0..]; with
//   row = &Bs[k0 + lane % 16][j0], x2_trans is the B fragment of a k-major
//   Bs. The analysis reads them through the same lane-model table.
// Other targets get a declaration-compatible body that traps: the helper is
// only meaningful on sm_80 and later. Under the CPU executor
// (runtime/include/ave/hip_on_cpu) the helper is a collective of the 32-lane
// warp that computes the same fragments on the host.
#pragma once

// A host compile against the CPU executor's headers: they define the
// qualifiers and the executor's platform macro used below.
#if !defined(__CUDACC__) && !defined(__HIPCC__) && !defined(__HIP__) &&                            \
    __has_include(<ave_cpu/platform.h>)
#include <hip/hip_runtime.h>
#endif

#if defined(__CUDACC__) || defined(__HIPCC__) || defined(__HIP__) ||                               \
    defined(__HIP_PLATFORM_AVE_CPU__)

#if defined(__CUDA_ARCH__)
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#endif

template <class Half>
__device__ inline unsigned ave_pack_halves(Half lo, Half hi) {
  unsigned short l = *reinterpret_cast<const unsigned short *>(&lo);
  unsigned short h = *reinterpret_cast<const unsigned short *>(&hi);
  return unsigned(l) | (unsigned(h) << 16);
}

#define AVE_MMA_M16N8K16(NAME, PTX_TYPE)                                                           \
  template <class Half>                                                                            \
  __device__ inline void NAME(float (&acc)[4], const Half (&a)[8], const Half (&b)[4]) {         \
    AVE_MMA_BODY(PTX_TYPE)                                                                         \
  }

#if defined(__HIP_PLATFORM_AVE_CPU__)
// The CPU executor: a warp collective in the PTX fragment layout. The call
// site is the kernel's line, for the executor's messages.
template <class Half>
__device__ inline void
ave_mma_m16n8k16_f16(float (&acc)[4], const Half (&a)[8], const Half (&b)[4],
                     std::source_location site = std::source_location::current()) {
  ::ave::cpu::mmaM16N8K16(::ave::cpu::MmaM16N8K16F16, acc, a, b, site);
}
template <class Half>
__device__ inline void
ave_mma_m16n8k16_bf16(float (&acc)[4], const Half (&a)[8], const Half (&b)[4],
                      std::source_location site = std::source_location::current()) {
  ::ave::cpu::mmaM16N8K16(::ave::cpu::MmaM16N8K16Bf16, acc, a, b, site);
}
#define AVE_LDMATRIX(NAME, SLOTS, TRANS, SUFFIX)                                                   \
  template <class Half>                                                                            \
  __device__ inline void NAME(Half(&frag)[SLOTS], const Half *row,                                 \
                              std::source_location site = std::source_location::current()) {       \
    ::ave::cpu::ldmatrix(::ave::cpu::LdmatrixShape{#NAME, SLOTS / 2, TRANS}, frag, row, site);     \
  }
#else

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define AVE_MMA_BODY(PTX_TYPE)                                                                     \
  unsigned ra[4], rb[2];                                                                           \
  for (int r = 0; r < 4; ++r)                                                                      \
    ra[r] = ave_pack_halves(a[2 * r], a[2 * r + 1]);                                               \
  for (int r = 0; r < 2; ++r)                                                                      \
    rb[r] = ave_pack_halves(b[2 * r], b[2 * r + 1]);                                               \
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32." PTX_TYPE "." PTX_TYPE ".f32 "             \
               "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"                 \
               : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])                            \
               : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "r"(rb[0]), "r"(rb[1]));
#else
#define AVE_MMA_BODY(PTX_TYPE)                                                                     \
  (void)acc;                                                                                       \
  (void)a;                                                                                         \
  (void)b;                                                                                         \
  __builtin_trap();
#endif

AVE_MMA_M16N8K16(ave_mma_m16n8k16_f16, "f16")
AVE_MMA_M16N8K16(ave_mma_m16n8k16_bf16, "bf16")

#undef AVE_MMA_BODY
#undef AVE_MMA_M16N8K16

template <class Half> __device__ inline void ave_unpack_halves(unsigned r, Half &lo, Half &hi) {
  unsigned short l = static_cast<unsigned short>(r & 0xffffu);
  unsigned short h = static_cast<unsigned short>(r >> 16);
  __builtin_memcpy(&lo, &l, 2);
  __builtin_memcpy(&hi, &h, 2);
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 750
#define AVE_LDMATRIX_BODY(SLOTS, SUFFIX)                                                           \
  unsigned r[SLOTS / 2];                                                                           \
  unsigned address = static_cast<unsigned>(__cvta_generic_to_shared(row));                          \
  AVE_LDMATRIX_ASM_##SLOTS(SUFFIX)                                                                 \
  for (int m = 0; m < SLOTS / 2; ++m)                                                              \
    ave_unpack_halves(r[m], frag[2 * m], frag[2 * m + 1]);
#define AVE_LDMATRIX_ASM_8(SUFFIX)                                                                 \
  asm volatile("ldmatrix.sync.aligned.m8n8.x4" SUFFIX ".shared.b16 {%0, %1, %2, %3}, [%4];\n"     \
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])                                    \
               : "r"(address)                                                                      \
               : "memory");
#define AVE_LDMATRIX_ASM_4(SUFFIX)                                                                 \
  asm volatile("ldmatrix.sync.aligned.m8n8.x2" SUFFIX ".shared.b16 {%0, %1}, [%2];\n"             \
               : "=r"(r[0]), "=r"(r[1])                                                            \
               : "r"(address)                                                                      \
               : "memory");
#else
#define AVE_LDMATRIX_BODY(SLOTS, SUFFIX)                                                           \
  (void)frag;                                                                                      \
  (void)row;                                                                                       \
  __builtin_trap();
#endif
#define AVE_LDMATRIX(NAME, SLOTS, TRANS, SUFFIX)                                                   \
  template <class Half> __device__ inline void NAME(Half(&frag)[SLOTS], const Half *row) {       \
    AVE_LDMATRIX_BODY(SLOTS, SUFFIX)                                                               \
  }

#endif // __HIP_PLATFORM_AVE_CPU__

// The four ldmatrix forms: name, fragment slots, .trans, PTX suffix (the
// CPU executor's collective ignores the last).
AVE_LDMATRIX(ave_ldmatrix_x2, 4, false, "")
AVE_LDMATRIX(ave_ldmatrix_x4, 8, false, "")
AVE_LDMATRIX(ave_ldmatrix_x2_trans, 4, true, ".trans")
AVE_LDMATRIX(ave_ldmatrix_x4_trans, 8, true, ".trans")

#undef AVE_LDMATRIX
#undef AVE_LDMATRIX_BODY
#undef AVE_LDMATRIX_ASM_8
#undef AVE_LDMATRIX_ASM_4

#endif
