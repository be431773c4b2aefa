// The bit-vector encoding of C's division and remainder by a power of two
// (a biased shift, Z3Encoder.cpp) must equal Z3's own bvsdiv and bvsrem for
// every 32-bit dividend, negative ones and INT_MIN included (z3++ spells
// bvsdiv as operator/).

#include "Z3Encoder.h"

#include "ave/invariants/Term.h"

#include <gtest/gtest.h>

namespace ave::inv {
namespace {

TEST(Z3EncoderBitVector, DivisionByAPowerOfTwoIsBvsdivForEveryDividend) {
  TermContext Terms;
  z3::context Z3;
  Z3Encoder Encoder(Z3, EncodingMode::BitVector32);
  const Term *X = Terms.symbol("x", SymbolKind::Param);
  z3::expr XBits = Encoder.integer(X);
  for (int Shift = 0; Shift <= 30; ++Shift) {
    int64_t Divisor = int64_t(1) << Shift;
    z3::expr D = Z3.bv_val(static_cast<int>(Divisor), 32);
    z3::solver Solver(Z3);
    Solver.add(Encoder.integer(Terms.div(X, Terms.constant(Divisor))) != (XBits / D) ||
               Encoder.integer(Terms.rem(X, Terms.constant(Divisor))) != z3::srem(XBits, D));
    EXPECT_EQ(Solver.check(), z3::unsat) << "x / " << Divisor << " or x % " << Divisor;
  }
}

TEST(Z3EncoderBitVector, OtherDivisorsKeepBvsdiv) {
  TermContext Terms;
  z3::context Z3;
  Z3Encoder Encoder(Z3, EncodingMode::BitVector32);
  const Term *X = Terms.symbol("x", SymbolKind::Param);
  z3::expr XBits = Encoder.integer(X);
  for (int64_t Divisor : {3, 6, 48, 1000, -4, -1}) {
    z3::expr D = Z3.bv_val(static_cast<int>(Divisor), 32);
    z3::solver Solver(Z3);
    Solver.add(Encoder.integer(Terms.div(X, Terms.constant(Divisor))) != (XBits / D) ||
               Encoder.integer(Terms.rem(X, Terms.constant(Divisor))) != z3::srem(XBits, D));
    EXPECT_EQ(Solver.check(), z3::unsat) << "x / " << Divisor;
  }
}

} // namespace
} // namespace ave::inv
