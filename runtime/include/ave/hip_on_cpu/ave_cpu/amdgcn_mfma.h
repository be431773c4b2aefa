// The AMD MFMA builtins the project uses, for kernels built with the AMD
// personality (AVE_CPU_ARCH_GFX942) or any kernel that calls them: the same
// names and operand types as clang's amdgcn builtins (ext_vector_type, so
// clang only), each a wave-collective matrix_core.h operation. The cbsz,
// abid and blgp modifiers must be 0 (the only values the single-block forms
// are used with here); other values fail the launch rather than being
// silently ignored.
#pragma once

#if defined(__clang__)

// The 32x32 forms pass 64-byte vectors by value, as the GPU builtins do; on a
// host without AVX-512 clang warns that such a call's ABI depends on the
// target. Every translation unit of the program is built alike, so the
// warning says nothing here; it stays off for the rest of the file.
#pragma clang diagnostic ignored "-Wpsabi"

#include "matrix_core.h"
#include "small_float.h"

namespace ave::cpu {

using MfmaFloat4 = float __attribute__((ext_vector_type(4)));
using MfmaFloat16 = float __attribute__((ext_vector_type(16)));
using MfmaHalf4 = _Float16 __attribute__((ext_vector_type(4)));
using MfmaShort4 = short __attribute__((ext_vector_type(4)));

namespace detail {

inline void checkModifiers(const MatrixShape &Shape, int Cbsz, int Abid, int Blgp,
                           const std::source_location &Site) {
  if (Cbsz == 0 && Abid == 0 && Blgp == 0)
    return;
  char Text[512];
  std::snprintf(Text, sizeof Text,
                "%s (%s:%u): the cbsz/abid/blgp modifiers (%d, %d, %d) are not modelled",
                Shape.Name, Site.file_name(), unsigned(Site.line()), Cbsz, Abid, Blgp);
  failBlock(hipErrorNotSupported, Text);
}

template <unsigned Registers, class Operand, class Vector>
Vector mfma(const MatrixShape &Shape, const Operand &A, const Operand &B, const Vector &C, int Cbsz,
            int Abid, int Blgp, const std::source_location &Site) {
  checkModifiers(Shape, Cbsz, Abid, Blgp, Site);
  MatrixOperands In;
  unsigned PerLane = Shape.K * Shape.M / 64;
  for (unsigned E = 0; E < PerLane; ++E) {
    In.A[E] = A(E);
    In.B[E] = B(E);
  }
  for (unsigned R = 0; R < Registers; ++R)
    In.C[R] = C[R];
  MatrixResult Out = matrixCollective(Shape, In, Site);
  Vector D;
  for (unsigned R = 0; R < Registers; ++R)
    D[R] = Out.D[R];
  return D;
}

inline double bf16Lane(short Bits) { return bf16Value(uint16_t(Bits)); }

} // namespace detail

inline constexpr MatrixShape Mfma16x16x4F32{"__builtin_amdgcn_mfma_f32_16x16x4f32", 16, 16, 4, 64};
inline constexpr MatrixShape Mfma32x32x2F32{"__builtin_amdgcn_mfma_f32_32x32x2f32", 32, 32, 2, 64};
inline constexpr MatrixShape Mfma16x16x16F16{"__builtin_amdgcn_mfma_f32_16x16x16f16", 16, 16, 16,
                                             64};
inline constexpr MatrixShape Mfma32x32x8F16{"__builtin_amdgcn_mfma_f32_32x32x8f16", 32, 32, 8, 64};
inline constexpr MatrixShape Mfma16x16x16Bf16{"__builtin_amdgcn_mfma_f32_16x16x16bf16_1k", 16, 16,
                                              16, 64};
inline constexpr MatrixShape Mfma32x32x8Bf16{"__builtin_amdgcn_mfma_f32_32x32x8bf16_1k", 32, 32, 8,
                                             64};

} // namespace ave::cpu

#define AVE_CPU_MFMA_SITE std::source_location Site = std::source_location::current()

inline ave::cpu::MfmaFloat4 __builtin_amdgcn_mfma_f32_16x16x4f32(float A, float B,
                                                                 ave::cpu::MfmaFloat4 C, int Cbsz,
                                                                 int Abid, int Blgp,
                                                                 AVE_CPU_MFMA_SITE) {
  auto Lane = [](float V) { return [V](unsigned) { return double(V); }; };
  return ave::cpu::detail::mfma<4>(ave::cpu::Mfma16x16x4F32, Lane(A), Lane(B), C, Cbsz, Abid, Blgp,
                                   Site);
}
inline ave::cpu::MfmaFloat16 __builtin_amdgcn_mfma_f32_32x32x2f32(float A, float B,
                                                                  ave::cpu::MfmaFloat16 C, int Cbsz,
                                                                  int Abid, int Blgp,
                                                                  AVE_CPU_MFMA_SITE) {
  auto Lane = [](float V) { return [V](unsigned) { return double(V); }; };
  return ave::cpu::detail::mfma<16>(ave::cpu::Mfma32x32x2F32, Lane(A), Lane(B), C, Cbsz, Abid, Blgp,
                                    Site);
}
inline ave::cpu::MfmaFloat4 __builtin_amdgcn_mfma_f32_16x16x16f16(ave::cpu::MfmaHalf4 A,
                                                                  ave::cpu::MfmaHalf4 B,
                                                                  ave::cpu::MfmaFloat4 C, int Cbsz,
                                                                  int Abid, int Blgp,
                                                                  AVE_CPU_MFMA_SITE) {
  auto Lane = [](ave::cpu::MfmaHalf4 V) { return [V](unsigned E) { return double(V[E]); }; };
  return ave::cpu::detail::mfma<4>(ave::cpu::Mfma16x16x16F16, Lane(A), Lane(B), C, Cbsz, Abid, Blgp,
                                   Site);
}
inline ave::cpu::MfmaFloat16 __builtin_amdgcn_mfma_f32_32x32x8f16(ave::cpu::MfmaHalf4 A,
                                                                  ave::cpu::MfmaHalf4 B,
                                                                  ave::cpu::MfmaFloat16 C, int Cbsz,
                                                                  int Abid, int Blgp,
                                                                  AVE_CPU_MFMA_SITE) {
  auto Lane = [](ave::cpu::MfmaHalf4 V) { return [V](unsigned E) { return double(V[E]); }; };
  return ave::cpu::detail::mfma<16>(ave::cpu::Mfma32x32x8F16, Lane(A), Lane(B), C, Cbsz, Abid, Blgp,
                                    Site);
}
inline ave::cpu::MfmaFloat4 __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(ave::cpu::MfmaShort4 A,
                                                                      ave::cpu::MfmaShort4 B,
                                                                      ave::cpu::MfmaFloat4 C,
                                                                      int Cbsz, int Abid, int Blgp,
                                                                      AVE_CPU_MFMA_SITE) {
  auto Lane = [](ave::cpu::MfmaShort4 V) {
    return [V](unsigned E) { return ave::cpu::detail::bf16Lane(V[E]); };
  };
  return ave::cpu::detail::mfma<4>(ave::cpu::Mfma16x16x16Bf16, Lane(A), Lane(B), C, Cbsz, Abid,
                                   Blgp, Site);
}
inline ave::cpu::MfmaFloat16 __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(ave::cpu::MfmaShort4 A,
                                                                      ave::cpu::MfmaShort4 B,
                                                                      ave::cpu::MfmaFloat16 C,
                                                                      int Cbsz, int Abid, int Blgp,
                                                                      AVE_CPU_MFMA_SITE) {
  auto Lane = [](ave::cpu::MfmaShort4 V) {
    return [V](unsigned E) { return ave::cpu::detail::bf16Lane(V[E]); };
  };
  return ave::cpu::detail::mfma<16>(ave::cpu::Mfma32x32x8Bf16, Lane(A), Lane(B), C, Cbsz, Abid,
                                    Blgp, Site);
}

#endif // __clang__
