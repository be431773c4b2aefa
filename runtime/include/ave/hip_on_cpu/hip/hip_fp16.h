// HIP half precision on the CPU: __half and __half2 with bit-exact
// round-to-nearest-even conversions (ave_cpu/small_float.h) and HIP's
// intrinsics. Arithmetic on __half computes in float and rounds once: for
// + - * / and sqrt that equals the correctly rounded half result (float has
// more than 2 * 11 + 2 significand bits); __hfma rounds a * b + c once.
#pragma once

#include "../ave_cpu/platform.h"
#include "../ave_cpu/small_float.h"
#include "../ave_cpu/vector_types.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

struct __half_raw {
  unsigned short x;
};

struct __half {
  unsigned short __x;

  __half() = default;
  constexpr __half(__half_raw R) : __x(R.x) {}
  template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
  __half(T Value) : __x(ave::cpu::halfBits(double(Value))) {}
#if defined(__FLT16_MANT_DIG__)
  __half(_Float16 Value) { std::memcpy(&__x, &Value, 2); }
#endif
  operator float() const { return ave::cpu::halfValue(__x); }
  operator __half_raw() const { return {__x}; }
};

struct alignas(4) __half2 {
  __half x, y;
};

using half = __half;
using half2 = __half2;

namespace ave::cpu::detail {
inline __half halfFromBits(uint16_t Bits) { return __half(__half_raw{Bits}); }
inline __half halfOf(double Value) { return halfFromBits(halfBits(Value)); }
} // namespace ave::cpu::detail

inline __half __float2half(float F) { return ave::cpu::detail::halfOf(F); }
inline __half __float2half_rn(float F) { return ave::cpu::detail::halfOf(F); }
inline __half __double2half(double D) { return ave::cpu::detail::halfOf(D); }
inline float __half2float(__half H) { return ave::cpu::halfValue(H.__x); }
inline __half __int2half_rn(int I) { return ave::cpu::detail::halfOf(I); }
inline int __half2int_rz(__half H) { return int(std::trunc(__half2float(H))); }
inline unsigned short __half_as_ushort(__half H) { return H.__x; }
inline short __half_as_short(__half H) { return short(H.__x); }
inline __half __ushort_as_half(unsigned short U) { return ave::cpu::detail::halfFromBits(U); }
inline __half __short_as_half(short S) { return ave::cpu::detail::halfFromBits(uint16_t(S)); }

inline __half __hadd(__half A, __half B) { return __float2half(float(A) + float(B)); }
inline __half __hsub(__half A, __half B) { return __float2half(float(A) - float(B)); }
inline __half __hmul(__half A, __half B) { return __float2half(float(A) * float(B)); }
inline __half __hdiv(__half A, __half B) { return __float2half(float(A) / float(B)); }
inline __half __hfma(__half A, __half B, __half C) {
  return ave::cpu::detail::halfFromBits(
      ave::cpu::fusedMultiplyAdd(float(A), float(B), float(C), ave::cpu::HalfFormat));
}
inline __half __hneg(__half A) { return ave::cpu::detail::halfFromBits(A.__x ^ 0x8000); }
inline __half __habs(__half A) { return ave::cpu::detail::halfFromBits(A.__x & 0x7FFF); }
inline __half __hmax(__half A, __half B) { return __float2half(std::fmax(float(A), float(B))); }
inline __half __hmin(__half A, __half B) { return __float2half(std::fmin(float(A), float(B))); }
inline bool __heq(__half A, __half B) { return float(A) == float(B); }
inline bool __hne(__half A, __half B) { return float(A) != float(B); }
inline bool __hlt(__half A, __half B) { return float(A) < float(B); }
inline bool __hle(__half A, __half B) { return float(A) <= float(B); }
inline bool __hgt(__half A, __half B) { return float(A) > float(B); }
inline bool __hge(__half A, __half B) { return float(A) >= float(B); }
inline bool __hisnan(__half A) { return std::isnan(float(A)); }
inline int __hisinf(__half A) { return std::isinf(float(A)) ? (A.__x >> 15 ? -1 : 1) : 0; }
inline __half hsqrt(__half A) { return __float2half(std::sqrt(float(A))); }

inline __half operator+(__half A, __half B) { return __hadd(A, B); }
inline __half operator-(__half A, __half B) { return __hsub(A, B); }
inline __half operator*(__half A, __half B) { return __hmul(A, B); }
inline __half operator/(__half A, __half B) { return __hdiv(A, B); }
inline __half operator-(__half A) { return __hneg(A); }
inline __half &operator+=(__half &A, __half B) { return A = A + B; }
inline __half &operator-=(__half &A, __half B) { return A = A - B; }
inline __half &operator*=(__half &A, __half B) { return A = A * B; }
inline __half &operator/=(__half &A, __half B) { return A = A / B; }
inline bool operator==(__half A, __half B) { return __heq(A, B); }
inline bool operator!=(__half A, __half B) { return __hne(A, B); }
inline bool operator<(__half A, __half B) { return __hlt(A, B); }
inline bool operator<=(__half A, __half B) { return __hle(A, B); }
inline bool operator>(__half A, __half B) { return __hgt(A, B); }
inline bool operator>=(__half A, __half B) { return __hge(A, B); }

inline __half2 __halves2half2(__half A, __half B) { return {A, B}; }
inline __half2 __half2half2(__half A) { return {A, A}; }
inline __half2 make_half2(__half A, __half B) { return {A, B}; }
inline __half __low2half(__half2 V) { return V.x; }
inline __half __high2half(__half2 V) { return V.y; }
inline __half2 __lows2half2(__half2 A, __half2 B) { return {A.x, B.x}; }
inline __half2 __highs2half2(__half2 A, __half2 B) { return {A.y, B.y}; }
inline float __low2float(__half2 V) { return float(V.x); }
inline float __high2float(__half2 V) { return float(V.y); }
inline __half2 __floats2half2_rn(float A, float B) { return {__float2half(A), __float2half(B)}; }
inline __half2 __float2half2_rn(float A) { return {__float2half(A), __float2half(A)}; }
inline __half2 __float22half2_rn(float2 V) { return {__float2half(V.x), __float2half(V.y)}; }
inline float2 __half22float2(__half2 V) { return {float(V.x), float(V.y)}; }
inline __half2 __hadd2(__half2 A, __half2 B) { return {__hadd(A.x, B.x), __hadd(A.y, B.y)}; }
inline __half2 __hsub2(__half2 A, __half2 B) { return {__hsub(A.x, B.x), __hsub(A.y, B.y)}; }
inline __half2 __hmul2(__half2 A, __half2 B) { return {__hmul(A.x, B.x), __hmul(A.y, B.y)}; }
inline __half2 __h2div(__half2 A, __half2 B) { return {__hdiv(A.x, B.x), __hdiv(A.y, B.y)}; }
inline __half2 __hfma2(__half2 A, __half2 B, __half2 C) {
  return {__hfma(A.x, B.x, C.x), __hfma(A.y, B.y, C.y)};
}
inline __half2 __hneg2(__half2 A) { return {__hneg(A.x), __hneg(A.y)}; }
inline __half2 __habs2(__half2 A) { return {__habs(A.x), __habs(A.y)}; }
inline __half2 operator+(__half2 A, __half2 B) { return __hadd2(A, B); }
inline __half2 operator-(__half2 A, __half2 B) { return __hsub2(A, B); }
inline __half2 operator*(__half2 A, __half2 B) { return __hmul2(A, B); }
inline __half2 operator/(__half2 A, __half2 B) { return __h2div(A, B); }
