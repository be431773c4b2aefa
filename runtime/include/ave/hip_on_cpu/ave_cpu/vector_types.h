// HIP's vector types (float2/3/4, int2/3/4, uint2/3/4, double2, ...) with
// their GPU sizes and alignments (float4 is 16-byte aligned, float3 is 12
// bytes and 4-aligned), make_* constructors, and the element-wise operators
// HIP defines on them.
#pragma once

#define AVE_CPU_VECTOR2(NAME, T, ALIGN)                                                            \
  struct alignas(ALIGN) NAME {                                                                     \
    T x, y;                                                                                        \
  };                                                                                               \
  inline constexpr NAME make_##NAME(T X, T Y) { return NAME{X, Y}; }
#define AVE_CPU_VECTOR3(NAME, T)                                                                   \
  struct NAME {                                                                                    \
    T x, y, z;                                                                                     \
  };                                                                                               \
  inline constexpr NAME make_##NAME(T X, T Y, T Z) { return NAME{X, Y, Z}; }
#define AVE_CPU_VECTOR4(NAME, T, ALIGN)                                                            \
  struct alignas(ALIGN) NAME {                                                                     \
    T x, y, z, w;                                                                                  \
  };                                                                                               \
  inline constexpr NAME make_##NAME(T X, T Y, T Z, T W) { return NAME{X, Y, Z, W}; }

AVE_CPU_VECTOR2(float2, float, 8)
AVE_CPU_VECTOR3(float3, float)
AVE_CPU_VECTOR4(float4, float, 16)
AVE_CPU_VECTOR2(double2, double, 16)
AVE_CPU_VECTOR3(double3, double)
AVE_CPU_VECTOR4(double4, double, 16)
AVE_CPU_VECTOR2(int2, int, 8)
AVE_CPU_VECTOR3(int3, int)
AVE_CPU_VECTOR4(int4, int, 16)
AVE_CPU_VECTOR2(uint2, unsigned, 8)
AVE_CPU_VECTOR4(uint4, unsigned, 16)
AVE_CPU_VECTOR2(longlong2, long long, 16)
AVE_CPU_VECTOR2(ulonglong2, unsigned long long, 16)
AVE_CPU_VECTOR2(short2, short, 4)
AVE_CPU_VECTOR4(short4, short, 8)
AVE_CPU_VECTOR2(ushort2, unsigned short, 4)
AVE_CPU_VECTOR4(ushort4, unsigned short, 8)
AVE_CPU_VECTOR2(char2, signed char, 2)
AVE_CPU_VECTOR4(char4, signed char, 4)
AVE_CPU_VECTOR2(uchar2, unsigned char, 2)
AVE_CPU_VECTOR4(uchar4, unsigned char, 4)

// uint3 is declared with dim3 (platform.h); its constructor is here.
inline constexpr uint3 make_uint3(unsigned X, unsigned Y, unsigned Z) { return uint3{X, Y, Z}; }

#undef AVE_CPU_VECTOR2
#undef AVE_CPU_VECTOR3
#undef AVE_CPU_VECTOR4

// Element-wise + - * / between vectors of one type and with a scalar.
#define AVE_CPU_VECTOR_OP(NAME, T, OP, ...)                                                        \
  inline constexpr NAME operator OP(NAME A, NAME B) { return NAME{__VA_ARGS__}; }                  \
  inline constexpr NAME operator OP(NAME A, T S) { return A OP NAME{AVE_CPU_SPLAT_##NAME(S)}; }    \
  inline constexpr NAME operator OP(T S, NAME B) { return NAME{AVE_CPU_SPLAT_##NAME(S)} OP B; }    \
  inline NAME &operator OP##=(NAME &A, NAME B) { return A = A OP B; }                              \
  inline NAME &operator OP##=(NAME &A, T S) { return A = A OP S; }

#define AVE_CPU_VECTOR_OPS2(NAME, T)                                                               \
  AVE_CPU_VECTOR_OP(NAME, T, +, A.x + B.x, A.y + B.y)                                              \
  AVE_CPU_VECTOR_OP(NAME, T, -, A.x - B.x, A.y - B.y)                                              \
  AVE_CPU_VECTOR_OP(NAME, T, *, A.x *B.x, A.y *B.y)                                                \
  AVE_CPU_VECTOR_OP(NAME, T, /, A.x / B.x, A.y / B.y)
#define AVE_CPU_VECTOR_OPS3(NAME, T)                                                               \
  AVE_CPU_VECTOR_OP(NAME, T, +, A.x + B.x, A.y + B.y, A.z + B.z)                                   \
  AVE_CPU_VECTOR_OP(NAME, T, -, A.x - B.x, A.y - B.y, A.z - B.z)                                   \
  AVE_CPU_VECTOR_OP(NAME, T, *, A.x *B.x, A.y *B.y, A.z *B.z)                                      \
  AVE_CPU_VECTOR_OP(NAME, T, /, A.x / B.x, A.y / B.y, A.z / B.z)
#define AVE_CPU_VECTOR_OPS4(NAME, T)                                                               \
  AVE_CPU_VECTOR_OP(NAME, T, +, A.x + B.x, A.y + B.y, A.z + B.z, A.w + B.w)                        \
  AVE_CPU_VECTOR_OP(NAME, T, -, A.x - B.x, A.y - B.y, A.z - B.z, A.w - B.w)                        \
  AVE_CPU_VECTOR_OP(NAME, T, *, A.x *B.x, A.y *B.y, A.z *B.z, A.w *B.w)                            \
  AVE_CPU_VECTOR_OP(NAME, T, /, A.x / B.x, A.y / B.y, A.z / B.z, A.w / B.w)

#define AVE_CPU_SPLAT_float2(S) S, S
#define AVE_CPU_SPLAT_float3(S) S, S, S
#define AVE_CPU_SPLAT_float4(S) S, S, S, S
#define AVE_CPU_SPLAT_double2(S) S, S
#define AVE_CPU_SPLAT_int2(S) S, S
#define AVE_CPU_SPLAT_int4(S) S, S, S, S

AVE_CPU_VECTOR_OPS2(float2, float)
AVE_CPU_VECTOR_OPS3(float3, float)
AVE_CPU_VECTOR_OPS4(float4, float)
AVE_CPU_VECTOR_OPS2(double2, double)
AVE_CPU_VECTOR_OPS2(int2, int)
AVE_CPU_VECTOR_OPS4(int4, int)
