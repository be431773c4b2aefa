// HIP bfloat16 on the CPU: __hip_bfloat16 and __hip_bfloat162 with bit-exact
// round-to-nearest-even conversions (ave_cpu/small_float.h), HIP's
// conversion intrinsics, and the arithmetic overloads (computed in float and
// rounded once, exact for + - * / since float has more than 2 * 8 + 2
// significand bits; __hfma rounds a * b + c once).
#pragma once

#include "../ave_cpu/platform.h"
#include "../ave_cpu/small_float.h"
#include "../ave_cpu/vector_types.h"

#include <cmath>
#include <cstdint>
#include <type_traits>

struct __hip_bfloat16_raw {
  unsigned short x;
};

struct __hip_bfloat16 {
  unsigned short data;

  __hip_bfloat16() = default;
  constexpr __hip_bfloat16(__hip_bfloat16_raw R) : data(R.x) {}
  template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
  __hip_bfloat16(T Value) : data(ave::cpu::bf16Bits(double(Value))) {}
  operator float() const { return ave::cpu::bf16Value(data); }
  operator __hip_bfloat16_raw() const { return {data}; }
};

struct alignas(4) __hip_bfloat162 {
  __hip_bfloat16 x, y;
};

namespace ave::cpu::detail {
inline __hip_bfloat16 bf16FromBits(uint16_t Bits) {
  return __hip_bfloat16(__hip_bfloat16_raw{Bits});
}
inline __hip_bfloat16 bf16Of(double Value) { return bf16FromBits(bf16Bits(Value)); }
} // namespace ave::cpu::detail

inline __hip_bfloat16 __float2bfloat16(float F) { return ave::cpu::detail::bf16Of(F); }
inline __hip_bfloat16 __double2bfloat16(double D) { return ave::cpu::detail::bf16Of(D); }
inline float __bfloat162float(__hip_bfloat16 B) { return ave::cpu::bf16Value(B.data); }
inline unsigned short __bfloat16_as_ushort(__hip_bfloat16 B) { return B.data; }
inline short __bfloat16_as_short(__hip_bfloat16 B) { return short(B.data); }
inline __hip_bfloat16 __ushort_as_bfloat16(unsigned short U) {
  return ave::cpu::detail::bf16FromBits(U);
}
inline __hip_bfloat16 __short_as_bfloat16(short S) {
  return ave::cpu::detail::bf16FromBits(uint16_t(S));
}

inline __hip_bfloat16 __hadd(__hip_bfloat16 A, __hip_bfloat16 B) {
  return __float2bfloat16(float(A) + float(B));
}
inline __hip_bfloat16 __hsub(__hip_bfloat16 A, __hip_bfloat16 B) {
  return __float2bfloat16(float(A) - float(B));
}
inline __hip_bfloat16 __hmul(__hip_bfloat16 A, __hip_bfloat16 B) {
  return __float2bfloat16(float(A) * float(B));
}
inline __hip_bfloat16 __hdiv(__hip_bfloat16 A, __hip_bfloat16 B) {
  return __float2bfloat16(float(A) / float(B));
}
inline __hip_bfloat16 __hfma(__hip_bfloat16 A, __hip_bfloat16 B, __hip_bfloat16 C) {
  return ave::cpu::detail::bf16FromBits(
      ave::cpu::fusedMultiplyAdd(float(A), float(B), float(C), ave::cpu::Bf16Format));
}
inline __hip_bfloat16 __hneg(__hip_bfloat16 A) {
  return ave::cpu::detail::bf16FromBits(A.data ^ 0x8000);
}
inline __hip_bfloat16 __habs(__hip_bfloat16 A) {
  return ave::cpu::detail::bf16FromBits(A.data & 0x7FFF);
}
inline __hip_bfloat16 __hmax(__hip_bfloat16 A, __hip_bfloat16 B) {
  return __float2bfloat16(std::fmax(float(A), float(B)));
}
inline __hip_bfloat16 __hmin(__hip_bfloat16 A, __hip_bfloat16 B) {
  return __float2bfloat16(std::fmin(float(A), float(B)));
}
inline bool __heq(__hip_bfloat16 A, __hip_bfloat16 B) { return float(A) == float(B); }
inline bool __hlt(__hip_bfloat16 A, __hip_bfloat16 B) { return float(A) < float(B); }
inline bool __hgt(__hip_bfloat16 A, __hip_bfloat16 B) { return float(A) > float(B); }
inline bool __hisnan(__hip_bfloat16 A) { return std::isnan(float(A)); }

inline __hip_bfloat16 operator+(__hip_bfloat16 A, __hip_bfloat16 B) { return __hadd(A, B); }
inline __hip_bfloat16 operator-(__hip_bfloat16 A, __hip_bfloat16 B) { return __hsub(A, B); }
inline __hip_bfloat16 operator*(__hip_bfloat16 A, __hip_bfloat16 B) { return __hmul(A, B); }
inline __hip_bfloat16 operator/(__hip_bfloat16 A, __hip_bfloat16 B) { return __hdiv(A, B); }
inline __hip_bfloat16 operator-(__hip_bfloat16 A) { return __hneg(A); }
inline __hip_bfloat16 &operator+=(__hip_bfloat16 &A, __hip_bfloat16 B) { return A = A + B; }
inline __hip_bfloat16 &operator*=(__hip_bfloat16 &A, __hip_bfloat16 B) { return A = A * B; }

inline __hip_bfloat162 __floats2bfloat162_rn(float A, float B) {
  return {__float2bfloat16(A), __float2bfloat16(B)};
}
inline __hip_bfloat162 __float2bfloat162_rn(float A) {
  return {__float2bfloat16(A), __float2bfloat16(A)};
}
inline float2 __bfloat1622float2(__hip_bfloat162 V) { return {float(V.x), float(V.y)}; }
inline __hip_bfloat16 __low2bfloat16(__hip_bfloat162 V) { return V.x; }
inline __hip_bfloat16 __high2bfloat16(__hip_bfloat162 V) { return V.y; }
inline float __low2float(__hip_bfloat162 V) { return float(V.x); }
inline float __high2float(__hip_bfloat162 V) { return float(V.y); }
inline __hip_bfloat162 __halves2bfloat162(__hip_bfloat16 A, __hip_bfloat16 B) { return {A, B}; }
