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

#endif // __HIP_PLATFORM_AVE_CPU__

#endif
