#include "ave/invariants/Polynomial.h"

#include <gtest/gtest.h>
#include <string>

namespace ave::inv {
namespace {

class PolynomialTest : public ::testing::Test {
protected:
  TermContext ctx;
  const Term *c(int64_t v) { return ctx.constant(v); }
  const Term *a = ctx.symbol("a");
  const Term *b = ctx.symbol("b");
  const Term *K = ctx.symbol("K", SymbolKind::Param);
  const Term *by = ctx.symbol("by", SymbolKind::BlockIdx, 1);
  const Term *ty = ctx.symbol("ty", SymbolKind::ThreadIdx, 1);
  const Term *tx = ctx.symbol("tx", SymbolKind::ThreadIdx, 0);
  const Term *k0 = ctx.symbol("k0", SymbolKind::LoopCounter);
};

TEST_F(PolynomialTest, ExpandsIndexArithmetic) {
  // (by*16 + ty)*K + k0 + tx
  const Term *row = ctx.add(ctx.mul(by, c(16)), ty);
  const Term *index = ctx.add(ctx.add(ctx.mul(row, K), k0), tx);
  Polynomial p = toPolynomial(ctx, index);
  EXPECT_EQ(p.terms().size(), 4u);
  EXPECT_EQ(p.coefficientOf(Monomial{K, by}), 16);
  EXPECT_EQ(p.coefficientOf(Monomial{K, ty}), 1);
  EXPECT_EQ(p.coefficientOf(Monomial{tx}), 1);
  EXPECT_EQ(p.coefficientOf(Monomial{k0}), 1);
  EXPECT_EQ(p.constantPart(), 0);
  // The same index written differently has the same normal form.
  const Term *other =
      ctx.add(ctx.add(tx, ctx.mul(K, ty)), ctx.add(k0, ctx.mul(c(16), ctx.mul(by, K))));
  EXPECT_EQ(normalize(ctx, index), normalize(ctx, other));
  // Monomials of one degree print in atom-creation order, which follows the
  // (compiler-chosen) evaluation order of the builder calls above.
  std::string printed = print(normalize(ctx, index));
  EXPECT_TRUE(printed == "K*by*16 + K*ty + k0 + tx" || printed == "K*ty + K*by*16 + k0 + tx")
      << printed;
}

TEST_F(PolynomialTest, CancelsAndMultiplies) {
  // (a + b)*(a - b) == a*a - b*b
  Polynomial lhs = toPolynomial(ctx, ctx.mul(ctx.add(a, b), ctx.sub(a, b)));
  Polynomial rhs = toPolynomial(ctx, ctx.sub(ctx.mul(a, a), ctx.mul(b, b)));
  EXPECT_EQ(lhs, rhs);
  EXPECT_EQ(lhs.coefficientOf(Monomial{a, a}), 1);
  EXPECT_EQ(lhs.coefficientOf(Monomial{b, b}), -1);
  EXPECT_EQ(lhs.coefficientOf(Monomial{a, b}), 0);
  EXPECT_TRUE(toPolynomial(ctx, ctx.sub(ctx.add(a, b), ctx.add(b, a))).isZero());
  EXPECT_EQ(toPolynomial(ctx, ctx.neg(ctx.add(a, c(2)))).constantPart(), -2);
  // Defined left shifts by constants are products.
  EXPECT_EQ(toPolynomial(ctx, ctx.shl(a, c(2))), toPolynomial(ctx, ctx.mul(a, c(4))));
}

TEST_F(PolynomialTest, NonPolynomialSubtermsAreNormalizedAtoms) {
  const Term *d1 = ctx.div(ctx.add(a, b), c(16));
  const Term *d2 = ctx.div(ctx.add(b, ctx.add(a, c(0))), c(16));
  EXPECT_EQ(normalize(ctx, d1), normalize(ctx, d2));
  Polynomial p = toPolynomial(ctx, ctx.add(d1, d1));
  ASSERT_EQ(p.terms().size(), 1u);
  EXPECT_EQ(p.terms().begin()->second, 2);
  EXPECT_EQ(p.terms().begin()->first.size(), 1u);
  EXPECT_EQ(p.terms().begin()->first[0]->kind(), TermKind::Div);
  // Division of an exact multiple is exact, even under truncation.
  EXPECT_EQ(normalize(ctx, ctx.div(ctx.add(ctx.mul(a, c(16)), ctx.mul(b, c(32))), c(16))),
            normalize(ctx, ctx.add(a, ctx.mul(b, c(2)))));
  EXPECT_TRUE(toPolynomial(ctx, ctx.rem(ctx.mul(a, c(8)), c(4))).isZero());
  // But not otherwise: (16a + b)/16 is not a + b/16 for negative b.
  EXPECT_EQ(toPolynomial(ctx, ctx.div(ctx.add(ctx.mul(a, c(16)), b), c(16))).terms().size(), 1u);
  // XOR is an atom whose operands are normalized.
  const Term *x1 = ctx.bitXor(ctx.mul(ctx.add(a, c(1)), c(2)), b);
  const Term *x2 = ctx.bitXor(b, ctx.add(ctx.mul(a, c(2)), c(2)));
  EXPECT_EQ(normalize(ctx, x1), normalize(ctx, x2));
}

TEST_F(PolynomialTest, CoefficientOverflowKeepsAnAtom) {
  const Term *big = ctx.constant(INT64_C(1) << 62);
  Polynomial p = toPolynomial(ctx, ctx.mul(ctx.mul(a, big), c(4)));
  EXPECT_FALSE(p.isZero());
  EXPECT_EQ(p.terms().size(), 1u);
}

TEST_F(PolynomialTest, MonomialAlgebra) {
  Monomial mk = monomialProduct(Monomial{K}, Monomial{a});
  EXPECT_TRUE(monomialDivides(Monomial{K}, mk));
  EXPECT_FALSE(monomialDivides(Monomial{b}, mk));
  EXPECT_TRUE(monomialDivides(Monomial{}, mk));
  EXPECT_EQ(monomialQuotient(mk, Monomial{K}), Monomial{a});
  EXPECT_EQ(print(toPolynomial(ctx, ctx.sub(ctx.mul(a, c(3)), c(2)))), "3·a - 2");
}

} // namespace
} // namespace ave::inv
