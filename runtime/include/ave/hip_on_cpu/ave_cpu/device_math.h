// HIP's device math and bit intrinsics on the CPU. The accurate functions
// (expf, sqrtf, fmaxf, ...) are the C library's, which <cmath> and <math.h>
// already put in the global namespace. The fast approximations (__expf,
// __fdividef, rsqrtf, __sinf, ...) are computed with their accurate
// counterparts here: a GPU's result differs by a few ulps, within the
// harness's tolerance but not bit for bit. The _rn forms round to nearest as
// every host float operation does.
#pragma once

#include "runtime_api.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <math.h>

inline float __expf(float X) { return expf(X); }
inline float __exp10f(float X) { return powf(10.0f, X); }
inline float __logf(float X) { return logf(X); }
inline float __log2f(float X) { return log2f(X); }
inline float __log10f(float X) { return log10f(X); }
inline float __sinf(float X) { return sinf(X); }
inline float __cosf(float X) { return cosf(X); }
inline float __tanf(float X) { return tanf(X); }
inline void __sincosf(float X, float *S, float *C) {
  *S = sinf(X);
  *C = cosf(X);
}
inline float __powf(float X, float Y) { return powf(X, Y); }
inline float __fdividef(float X, float Y) { return X / Y; }
inline float fdividef(float X, float Y) { return X / Y; }
inline float rsqrtf(float X) { return 1.0f / sqrtf(X); }
inline double rsqrt(double X) { return 1.0 / sqrt(X); }
inline float __frsqrt_rn(float X) { return 1.0f / sqrtf(X); }
inline float __fsqrt_rn(float X) { return sqrtf(X); }
inline float __frcp_rn(float X) { return 1.0f / X; }
inline float __fadd_rn(float X, float Y) { return X + Y; }
inline float __fsub_rn(float X, float Y) { return X - Y; }
inline float __fmul_rn(float X, float Y) { return X * Y; }
inline float __fdiv_rn(float X, float Y) { return X / Y; }
inline float __fmaf_rn(float X, float Y, float Z) { return fmaf(X, Y, Z); }
inline double __dadd_rn(double X, double Y) { return X + Y; }
inline double __dmul_rn(double X, double Y) { return X * Y; }
inline double __fma_rn(double X, double Y, double Z) { return fma(X, Y, Z); }
// Clamps to [0, 1]; NaN becomes 0.
inline float __saturatef(float X) { return X > 0.0f ? (X < 1.0f ? X : 1.0f) : 0.0f; }

inline int __float_as_int(float X) { return std::bit_cast<int>(X); }
inline unsigned __float_as_uint(float X) { return std::bit_cast<unsigned>(X); }
inline float __int_as_float(int X) { return std::bit_cast<float>(X); }
inline float __uint_as_float(unsigned X) { return std::bit_cast<float>(X); }
inline long long __double_as_longlong(double X) { return std::bit_cast<long long>(X); }
inline double __longlong_as_double(long long X) { return std::bit_cast<double>(X); }
inline int __double2hiint(double X) { return int(std::bit_cast<uint64_t>(X) >> 32); }
inline int __double2loint(double X) { return int(std::bit_cast<uint64_t>(X)); }
inline double __hiloint2double(int Hi, int Lo) {
  return std::bit_cast<double>((uint64_t(unsigned(Hi)) << 32) | unsigned(Lo));
}
inline int __float2int_rn(float X) { return int(nearbyintf(X)); }
inline int __float2int_rz(float X) { return int(truncf(X)); }
inline int __float2int_rd(float X) { return int(floorf(X)); }
inline int __float2int_ru(float X) { return int(ceilf(X)); }
inline unsigned __float2uint_rn(float X) { return unsigned(nearbyintf(X)); }
inline float __int2float_rn(int X) { return float(X); }

inline int __popc(unsigned X) { return std::popcount(X); }
inline int __popcll(unsigned long long X) { return std::popcount(X); }
inline int __clz(int X) { return std::countl_zero(unsigned(X)); }
inline int __clzll(long long X) { return std::countl_zero((unsigned long long)X); }
inline int __ffs(int X) { return X ? std::countr_zero(unsigned(X)) + 1 : 0; }
inline int __ffsll(long long X) { return X ? std::countr_zero((unsigned long long)X) + 1 : 0; }
inline unsigned __brev(unsigned X) {
  unsigned R = 0;
  for (int I = 0; I < 32; ++I)
    R |= ((X >> I) & 1u) << (31 - I);
  return R;
}
inline int __mul24(int X, int Y) {
  return int(int64_t(int32_t(uint32_t(X) << 8) >> 8) * int64_t(int32_t(uint32_t(Y) << 8) >> 8));
}
inline unsigned __umul24(unsigned X, unsigned Y) { return (X & 0xFFFFFF) * (Y & 0xFFFFFF); }
inline int __mulhi(int X, int Y) { return int((int64_t(X) * int64_t(Y)) >> 32); }
inline unsigned __umulhi(unsigned X, unsigned Y) { return unsigned((uint64_t(X) * Y) >> 32); }
inline long long __mul64hi(long long X, long long Y) {
  return (long long)((__int128(X) * __int128(Y)) >> 64);
}
inline unsigned long long __umul64hi(unsigned long long X, unsigned long long Y) {
  return (unsigned long long)((unsigned __int128)X * Y >> 64);
}

// CUDA/HIP device code has min and max overloads in the global namespace.
inline int min(int A, int B) { return A < B ? A : B; }
inline int max(int A, int B) { return A > B ? A : B; }
inline unsigned min(unsigned A, unsigned B) { return A < B ? A : B; }
inline unsigned max(unsigned A, unsigned B) { return A > B ? A : B; }
inline long long min(long long A, long long B) { return A < B ? A : B; }
inline long long max(long long A, long long B) { return A > B ? A : B; }
inline unsigned long long min(unsigned long long A, unsigned long long B) { return A < B ? A : B; }
inline unsigned long long max(unsigned long long A, unsigned long long B) { return A > B ? A : B; }
inline float min(float A, float B) { return fminf(A, B); }
inline float max(float A, float B) { return fmaxf(A, B); }
inline double min(double A, double B) { return fmin(A, B); }
inline double max(double A, double B) { return fmax(A, B); }

template <class T> inline T __ldg(const T *Pointer) { return *Pointer; }

// A cycle counter: nanoseconds of a steady clock.
inline long long clock64() { return (long long)(ave::cpu::nowSeconds() * 1e9); }
inline long long wall_clock64() { return clock64(); }
[[noreturn]] inline void __trap() { __builtin_trap(); }
