// __half and __hip_bfloat16 on the CPU executor against independent oracles:
// the compiler's own _Float16 (every half, and every float with its low byte
// sampled), an integer rounding formula for bfloat16, and binary128 for the
// fused multiply-add (exact there, then rounded once).
#include "CpuTestSupport.h"

#include <bit>
#include <cmath>
#include <hip/hip_bf16.h>
#include <hip/hip_fp16.h>
#include <random>

namespace ave::cpu::testing {
namespace {

uint16_t bitsOf(_Float16 H) { return std::bit_cast<uint16_t>(H); }
_Float16 halfOfBits(uint16_t B) { return std::bit_cast<_Float16>(B); }

TEST(HalfTest, EveryHalfWidensExactly) {
  for (uint32_t B = 0; B < 65536; ++B) {
    float Want = float(halfOfBits(uint16_t(B)));
    float Got = __half2float(__ushort_as_half(uint16_t(B)));
    if (std::isnan(Want)) {
      ASSERT_TRUE(std::isnan(Got)) << B;
      // Same sign and payload; the NaN comes out quiet.
      ASSERT_EQ(std::bit_cast<uint32_t>(Got), std::bit_cast<uint32_t>(Want) | 0x400000u) << B;
    } else {
      ASSERT_EQ(std::bit_cast<uint32_t>(Got), std::bit_cast<uint32_t>(Want)) << B;
    }
  }
}

// Floats at and around every rounding boundary of every half binade (the
// tie of each kept-bit position, one ulp either side, zero), including the
// subnormal range where the tie moves, plus random floats of every exponent.
TEST(HalfTest, FloatsRoundToNearestEven) {
  std::mt19937 Random(3);
  auto check = [](uint32_t U) {
    float F = std::bit_cast<float>(U);
    if (std::isnan(F))
      return;
    ASSERT_EQ(__half_as_ushort(__float2half(F)), bitsOf(_Float16(F))) << std::hex << U;
  };
  for (int E = -27; E <= 16; ++E) {
    int Dropped = 13 + (E < -14 ? -14 - E : 0); // mantissa bits below the half's last one
    if (Dropped > 24)
      Dropped = 24;
    uint32_t Tie = 1u << (Dropped - 1), Low = (1u << Dropped) - 1;
    for (int Sample = 0; Sample < 512; ++Sample) {
      uint32_t Kept = (uint32_t(Random()) & 0x7FFFFFu) & ~Low, Other = uint32_t(Random()) & Low;
      for (uint32_t Rest : {0u, Tie - 1, Tie, Tie + 1, Other})
        for (uint32_t Sign : {0u, 0x80000000u})
          check(Sign | (uint32_t(E + 127) << 23) | Kept | (Rest & Low));
    }
  }
  for (int I = 0; I < 2000000; ++I)
    check(uint32_t(Random()));
}

TEST(HalfTest, DoublesRoundOnce) {
  std::mt19937_64 Random(11);
  for (int I = 0; I < 2000000; ++I) {
    double D = std::bit_cast<double>(Random());
    if (std::isnan(D) || std::fabs(D) > 1e6 || std::fabs(D) < 1e-10)
      D = std::ldexp(double(Random() >> 11), -int(Random() % 80));
    ASSERT_EQ(__half_as_ushort(__double2half(D)), bitsOf(_Float16(D))) << D;
  }
}

// bfloat16 from float: the integer formula (add 0x7FFF plus the lowest kept
// bit, keep the top 16 bits) is round-to-nearest-even for finite floats.
TEST(HalfTest, Bfloat16RoundsToNearestEven) {
  for (uint32_t Low : {0x0000u, 0x8000u, 0x7FFFu, 0x8001u, 0x1234u})
    for (uint32_t High = 0; High < 65536; ++High) {
      uint32_t U = (High << 16) | Low;
      float F = std::bit_cast<float>(U);
      uint16_t Got = __bfloat16_as_ushort(__float2bfloat16(F));
      if (std::isnan(F)) {
        ASSERT_TRUE(std::isnan(__bfloat162float(__ushort_as_bfloat16(Got))));
        continue;
      }
      ASSERT_EQ(Got, uint16_t((U + 0x7FFFu + ((U >> 16) & 1u)) >> 16)) << std::hex << U;
      ASSERT_EQ(std::bit_cast<uint32_t>(__bfloat162float(__ushort_as_bfloat16(Got))), uint32_t(Got)
                                                                                          << 16);
    }
}

// The nearest bfloat16 to an exact binary128 value, ties to even, by
// comparing distances to the neighbours of its float truncation.
uint16_t nearestBf16(__float128 Exact) {
  float F = float(Exact);
  uint16_t Base = uint16_t(std::bit_cast<uint32_t>(F) >> 16);
  uint16_t Best = Base;
  __float128 BestDistance = -1;
  for (int Delta : {-1, 0, 1}) {
    uint16_t Candidate = uint16_t(Base + Delta);
    float Value = std::bit_cast<float>(uint32_t(Candidate) << 16);
    if (!std::isfinite(Value) || ((Candidate ^ Base) & 0x8000))
      continue;
    __float128 Distance = Exact - __float128(Value);
    if (Distance < 0)
      Distance = -Distance;
    if (BestDistance < 0 || Distance < BestDistance ||
        (Distance == BestDistance && !(Candidate & 1))) {
      Best = Candidate;
      BestDistance = Distance;
    }
  }
  return Best;
}

TEST(HalfTest, FusedMultiplyAddRoundsOnce) {
  std::mt19937 Random(5);
  int Checked = 0;
  for (int I = 0; I < 400000; ++I) {
    uint16_t A = uint16_t(Random()), B = uint16_t(Random()), C = uint16_t(Random());
    _Float16 Ha = halfOfBits(A), Hb = halfOfBits(B), Hc = halfOfBits(C);
    __float128 Exact = __float128(float(Ha)) * __float128(float(Hb)) + __float128(float(Hc));
    if (std::isnan(float(Ha)) || std::isnan(float(Hb)) || std::isnan(float(Hc)) ||
        std::isinf(float(Ha)) || std::isinf(float(Hb)) || std::isinf(float(Hc)))
      continue;
    uint16_t Got =
        __half_as_ushort(__hfma(__ushort_as_half(A), __ushort_as_half(B), __ushort_as_half(C)));
    ASSERT_EQ(Got, bitsOf(_Float16(Exact))) << std::hex << A << " " << B << " " << C;
    // bfloat16 operands with exponents near 1, where binary128 is exact.
    uint16_t Ba = uint16_t(0x3C00 + (Random() % 0x0800)) ^ uint16_t(Random() & 0x8000);
    uint16_t Bb = uint16_t(0x3C00 + (Random() % 0x0800)) ^ uint16_t(Random() & 0x8000);
    uint16_t Bc = uint16_t(0x3C00 + (Random() % 0x0800)) ^ uint16_t(Random() & 0x8000);
    auto Value = [](uint16_t X) { return __float128(std::bit_cast<float>(uint32_t(X) << 16)); };
    __float128 ExactB = Value(Ba) * Value(Bb) + Value(Bc);
    uint16_t GotB = __bfloat16_as_ushort(
        __hfma(__ushort_as_bfloat16(Ba), __ushort_as_bfloat16(Bb), __ushort_as_bfloat16(Bc)));
    if (ExactB != 0) // zero's sign is not what this oracle decides
      ASSERT_EQ(GotB, nearestBf16(ExactB)) << std::hex << Ba << " " << Bb << " " << Bc;
    ++Checked;
  }
  EXPECT_GT(Checked, 300000);
}

TEST(HalfTest, ArithmeticIsTheCorrectlyRoundedResult) {
  std::mt19937 Random(9);
  for (int I = 0; I < 200000; ++I) {
    _Float16 A = halfOfBits(uint16_t(Random())), B = halfOfBits(uint16_t(Random()));
    if (std::isnan(float(A)) || std::isnan(float(B)))
      continue;
    __half Ha = __ushort_as_half(bitsOf(A)), Hb = __ushort_as_half(bitsOf(B));
    // Each operation exactly in binary128, rounded once by the compiler.
    __float128 Qa = float(A), Qb = float(B);
    EXPECT_EQ(__half_as_ushort(__hadd(Ha, Hb)), bitsOf(_Float16(Qa + Qb)));
    EXPECT_EQ(__half_as_ushort(__hsub(Ha, Hb)), bitsOf(_Float16(Qa - Qb)));
    EXPECT_EQ(__half_as_ushort(__hmul(Ha, Hb)), bitsOf(_Float16(Qa * Qb)));
    EXPECT_EQ(__half_as_ushort(Ha * Hb), bitsOf(_Float16(Qa * Qb)));
  }
}

TEST(HalfTest, IntrinsicsAndPairs) {
  __half H = __float2half(1.5f);
  EXPECT_EQ(__half_as_ushort(H), 0x3E00);
  EXPECT_EQ(__half_as_ushort(__hneg(H)), 0xBE00);
  EXPECT_EQ(__half2float(__habs(__hneg(H))), 1.5f);
  EXPECT_EQ(__half_as_ushort(__float2half(65520.0f)), 0x7C00); // rounds up to infinity
  EXPECT_EQ(__half_as_ushort(__float2half(65519.0f)), 0x7BFF);
  EXPECT_EQ(__half_as_ushort(__float2half(5.9604644775390625e-08f)), 0x0001);  // 2^-24
  EXPECT_EQ(__half_as_ushort(__float2half(2.98023223876953125e-08f)), 0x0000); // tie to even
  EXPECT_TRUE(__hlt(__float2half(1.0f), H));
  EXPECT_EQ(__hisinf(__float2half(-1e6f)), -1);
  __half2 P = __floats2half2_rn(1.0f, -2.0f);
  float2 Back = __half22float2(__hmul2(P, __half2half2(__float2half(3.0f))));
  EXPECT_EQ(Back.x, 3.0f);
  EXPECT_EQ(Back.y, -6.0f);
  EXPECT_EQ(__bfloat16_as_ushort(__float2bfloat16(1.0f)), 0x3F80);
  EXPECT_EQ(__bfloat162float(__hmul(__float2bfloat16(3.0f), __float2bfloat16(0.5f))), 1.5f);
  static_assert(sizeof(__half) == 2 && sizeof(__half2) == 4 && sizeof(__hip_bfloat16) == 2);
}

} // namespace
} // namespace ave::cpu::testing
