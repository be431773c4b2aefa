// The bit-vector encoding of C's division and remainder by a power of two
// (a biased shift, Z3Encoder.cpp) must equal Z3's own bvsdiv and bvsrem for
// every 32-bit dividend, negative ones and INT_MIN included (z3++ spells
// bvsdiv as operator/).

#include "Z3Encoder.h"

#include "ave/invariants/Term.h"

#include <gtest/gtest.h>

namespace ave::inv {
namespace {

// Whether x / d and x % d, as the encoder writes them, equal bvsdiv and
// bvsrem for every 32-bit x.
bool matchesBvsdiv(int64_t Divisor) {
  TermContext Terms;
  z3::context Z3;
  Z3Encoder Encoder(Z3, EncodingMode::BitVector32);
  const Term *X = Terms.symbol("x", SymbolKind::Param);
  z3::expr XBits = Encoder.integer(X);
  z3::expr D = Z3.bv_val(static_cast<int>(Divisor), 32);
  z3::solver Solver(Z3);
  Solver.add(Encoder.integer(Terms.div(X, Terms.constant(Divisor))) != (XBits / D) ||
             Encoder.integer(Terms.rem(X, Terms.constant(Divisor))) != z3::srem(XBits, D));
  return Solver.check() == z3::unsat;
}

TEST(Z3EncoderBitVector, DivisionByAPowerOfTwoIsBvsdivForEveryDividend) {
  for (int Shift = 0; Shift <= 30; ++Shift)
    EXPECT_TRUE(matchesBvsdiv(int64_t(1) << Shift)) << "x / 2^" << Shift << " or x % 2^" << Shift;
}

TEST(Z3EncoderBitVector, OtherDivisorsKeepBvsdiv) {
  for (int64_t Divisor : {3, 6, 48, 1000, -4, -1})
    EXPECT_TRUE(matchesBvsdiv(Divisor)) << "x / " << Divisor;
}

} // namespace
} // namespace ave::inv
