// Bit-exact conversions between double and the 16-bit float formats (IEEE
// binary16 "half" and bfloat16), rounding to nearest, ties to even, with
// subnormals, overflow to infinity and quiet NaNs (payload kept, as the GPUs'
// conversion instructions do). Every float and double converts with a single
// rounding; a value computed in double together with its exact rounding error
// (Tail) rounds as the exact value would, which makes a fused multiply-add of
// 16-bit values exact (hip_fp16.h).
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>

namespace ave::cpu {

struct SmallFloatFormat {
  int MantissaBits; // stored fraction bits
  int MinNormalExp; // exponent of the smallest normal number
  int ExponentBias;
  int MaxExponentField; // all ones: infinity / NaN
};

inline constexpr SmallFloatFormat HalfFormat{10, -14, 15, 31};
inline constexpr SmallFloatFormat Bf16Format{7, -126, 127, 255};

// Rounds V + Tail (|Tail| at most half an ulp of V in double, as TwoSum gives
// it) to the format, returning its bits.
inline uint16_t roundToSmallFloat(double V, double Tail, const SmallFloatFormat &F) {
  uint64_t Bits = std::bit_cast<uint64_t>(V);
  uint16_t Sign = uint16_t((Bits >> 63) << 15);
  uint16_t ExpShift = uint16_t(F.MantissaBits);
  uint16_t Infinity = uint16_t(F.MaxExponentField << ExpShift);
  if (std::isnan(V)) {
    uint64_t Payload = (Bits & ((uint64_t(1) << 52) - 1)) >> (52 - F.MantissaBits);
    return uint16_t(Sign | Infinity | (1u << (F.MantissaBits - 1)) | Payload);
  }
  if (std::isinf(V))
    return uint16_t(Sign | Infinity);
  double A = std::fabs(V);
  if (A == 0)
    return Sign;
  if (V < 0)
    Tail = -Tail;
  // Below half the smallest subnormal: rounds to zero; exactly half: to zero
  // (even) unless the exact value is above it.
  double HalfMinSubnormal = std::ldexp(1.0, F.MinNormalExp - F.MantissaBits - 1);
  if (A < HalfMinSubnormal)
    return Sign;
  if (A == HalfMinSubnormal)
    return uint16_t(Sign | (Tail > 0 ? 1 : 0));
  int E = int((std::bit_cast<uint64_t>(A) >> 52) & 0x7FF) - 1023; // A >= 2^-134: normal double
  uint64_t M = (std::bit_cast<uint64_t>(A) & ((uint64_t(1) << 52) - 1)) | (uint64_t(1) << 52);
  int Quantum = (E > F.MinNormalExp ? E : F.MinNormalExp) - F.MantissaBits;
  int Drop = Quantum - (E - 52);
  uint64_t Kept = M >> Drop, Rest = M & ((uint64_t(1) << Drop) - 1);
  uint64_t HalfWay = uint64_t(1) << (Drop - 1);
  bool Up = Rest > HalfWay || (Rest == HalfWay && (Tail > 0 || (Tail == 0 && (Kept & 1))));
  Kept += Up;
  if (E < F.MinNormalExp) // subnormal; Kept == 2^MantissaBits is the smallest normal
    return uint16_t(Sign | Kept);
  if (Kept == (uint64_t(2) << F.MantissaBits)) {
    Kept >>= 1;
    ++E;
  }
  int Field = E + F.ExponentBias;
  if (Field >= F.MaxExponentField)
    return uint16_t(Sign | Infinity);
  return uint16_t(Sign | (uint16_t(Field) << ExpShift) |
                  (Kept & ((uint64_t(1) << F.MantissaBits) - 1)));
}

inline double smallFloatToDouble(uint16_t Bits, const SmallFloatFormat &F) {
  bool Negative = Bits >> 15;
  int Field = (Bits >> F.MantissaBits) & F.MaxExponentField;
  uint32_t Fraction = Bits & ((1u << F.MantissaBits) - 1);
  double Magnitude;
  if (Field == F.MaxExponentField) {
    if (Fraction == 0)
      Magnitude = INFINITY;
    else // keep the payload; the NaN becomes quiet, as IEEE conversions make it
      return std::bit_cast<double>((uint64_t(Negative) << 63) | (uint64_t(0x7FF) << 52) |
                                   (uint64_t(Fraction) << (52 - F.MantissaBits)) |
                                   (uint64_t(1) << 51));
  } else if (Field == 0) {
    Magnitude = std::ldexp(double(Fraction), F.MinNormalExp - F.MantissaBits);
  } else {
    Magnitude = std::ldexp(double(Fraction | (1u << F.MantissaBits)),
                           Field - F.ExponentBias - F.MantissaBits);
  }
  return Negative ? -Magnitude : Magnitude;
}

inline uint16_t halfBits(double V) { return roundToSmallFloat(V, 0, HalfFormat); }
inline uint16_t bf16Bits(double V) { return roundToSmallFloat(V, 0, Bf16Format); }
inline float halfValue(uint16_t Bits) { return float(smallFloatToDouble(Bits, HalfFormat)); }
// A bfloat16 is the top half of a float: widening is a shift on every GPU
// (a signalling NaN stays signalling).
inline float bf16Value(uint16_t Bits) { return std::bit_cast<float>(uint32_t(Bits) << 16); }

// A * B + C rounded once to the format: the product of two 16-bit values is
// exact in double; TwoSum keeps the error of the addition.
inline uint16_t fusedMultiplyAdd(double A, double B, double C, const SmallFloatFormat &F) {
  double P = A * B;
  double S = P + C;
  double Bp = S - P;
  double Tail = (P - (S - Bp)) + (C - Bp);
  if (!std::isfinite(S))
    Tail = 0;
  return roundToSmallFloat(S, Tail, F);
}

} // namespace ave::cpu
