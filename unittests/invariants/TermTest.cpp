#include "ave/invariants/Term.h"

#include "ave/invariants/CIntSemantics.h"

#include <gtest/gtest.h>

namespace ave::inv {
namespace {

class TermTest : public ::testing::Test {
protected:
  TermContext ctx;
  const Term *c(int64_t v) { return ctx.constant(v); }
  const Term *x = ctx.symbol("x");
  const Term *y = ctx.symbol("y");
  const Term *by = ctx.symbol("by", SymbolKind::BlockIdx, 1);
  const Term *ty = ctx.symbol("ty", SymbolKind::ThreadIdx, 1);
};

TEST_F(TermTest, HashConsingMakesStructuralEqualityPointerEquality) {
  EXPECT_EQ(ctx.add(x, y), ctx.add(x, y));
  EXPECT_EQ(ctx.apply("tok", {x}), ctx.apply("tok", {x}));
  EXPECT_NE(ctx.apply("tok", {x}), ctx.apply("tok", {y}));
  EXPECT_EQ(ctx.symbol("x"), x);
  EXPECT_NE(ctx.symbol("x", SymbolKind::Param), x); // kind is part of identity
  size_t before = ctx.size();
  ctx.mul(ctx.add(x, y), c(3));
  size_t after = ctx.size();
  ctx.mul(ctx.add(x, y), c(3));
  EXPECT_EQ(ctx.size(), after);
  EXPECT_GT(after, before);
}

TEST_F(TermTest, CanonicalizesOnConstruction) {
  EXPECT_EQ(ctx.add(x, y), ctx.add(y, x));
  EXPECT_EQ(ctx.mul(c(16), by), ctx.mul(by, c(16)));
  EXPECT_EQ(ctx.add(x, c(0)), x);
  EXPECT_EQ(ctx.add(c(0), x), x);
  EXPECT_EQ(ctx.mul(x, c(1)), x);
  EXPECT_EQ(ctx.mul(x, c(0)), c(0));
  EXPECT_EQ(ctx.add(ctx.add(x, c(3)), c(4)), ctx.add(x, c(7)));
  EXPECT_EQ(ctx.mul(ctx.mul(x, c(4)), c(4)), ctx.mul(x, c(16)));
  EXPECT_EQ(ctx.sub(x, x), c(0));
  EXPECT_EQ(ctx.sub(x, c(3)), ctx.add(x, c(-3)));
  EXPECT_EQ(ctx.add(c(2), c(3)), c(5));
  EXPECT_EQ(ctx.neg(ctx.neg(x)), x);
  EXPECT_EQ(ctx.bitXor(x, x), c(0));
  EXPECT_EQ(ctx.bitXor(y, x), ctx.bitXor(x, y));
  EXPECT_EQ(ctx.eq(y, x), ctx.eq(x, y));
  EXPECT_EQ(ctx.logicalNot(ctx.lt(x, y)), ctx.ge(x, y));
  EXPECT_EQ(ctx.logicalAnd(c(1), ctx.lt(x, y)), ctx.lt(x, y));
  EXPECT_EQ(ctx.logicalAnd(c(1), x), ctx.ne(x, c(0))); // C: `1 && x` is 0/1
  EXPECT_EQ(ctx.select(c(0), x, y), y);
  // Undefined constant operations are not folded: the solver must see them.
  EXPECT_EQ(ctx.div(c(1), c(0))->kind(), TermKind::Div);
  EXPECT_EQ(ctx.add(c(IntMax), c(1))->kind(), TermKind::Add);
}

TEST_F(TermTest, FoldsWithCSemanticsOnNegatives) {
  EXPECT_EQ(ctx.div(c(-7), c(2)), c(-3)); // truncation, not floor (-4)
  EXPECT_EQ(ctx.rem(c(-7), c(2)), c(-1)); // sign of the dividend
  EXPECT_EQ(ctx.rem(c(7), c(-2)), c(1));
  EXPECT_EQ(ctx.div(c(7), c(-2)), c(-3));
  EXPECT_EQ(ctx.shr(c(-8), c(1)), c(-4)); // arithmetic shift
  EXPECT_EQ(ctx.shr(c(-1), c(31)), c(-1));
  EXPECT_EQ(ctx.bitAnd(c(-8), c(7)), c(0));
}

TEST_F(TermTest, EvaluateFollowsCIntSemantics) {
  Assignment values{{x, -7}, {y, 2}};
  EXPECT_EQ(evaluate(ctx.div(x, y), values), -3);
  EXPECT_EQ(evaluate(ctx.rem(x, y), values), -1);
  EXPECT_EQ(evaluate(ctx.shr(x, c(1)), values), -4);
  EXPECT_EQ(evaluate(ctx.bitXor(x, y), values), -7 ^ 2);
  EXPECT_EQ(evaluate(ctx.lt(x, y), values), 1);
  EXPECT_EQ(evaluate(ctx.select(ctx.lt(y, x), x, y), values), 2);
  // Undefined behaviour is no value at all.
  EXPECT_EQ(evaluate(ctx.div(x, ctx.sub(y, c(2))), values), std::nullopt);
  EXPECT_EQ(evaluate(ctx.shl(x, c(1)), values), std::nullopt); // negative << is UB
  EXPECT_EQ(evaluate(ctx.shl(y, c(32)), values), std::nullopt);
  EXPECT_EQ(evaluate(ctx.shr(y, c(-1)), values), std::nullopt);
  EXPECT_EQ(evaluate(ctx.mul(x, c(IntMax)), values), std::nullopt);
  Assignment minimum{{x, IntMin}, {y, -1}};
  EXPECT_EQ(evaluate(ctx.div(x, y), minimum), std::nullopt);
  EXPECT_EQ(evaluate(ctx.rem(x, y), minimum), std::nullopt);
  EXPECT_EQ(evaluate(ctx.neg(x), minimum), std::nullopt);
  // Short-circuit: the undefined right side is never evaluated.
  const Term *divByZero = ctx.div(c(1), ctx.sub(y, c(2)));
  EXPECT_EQ(evaluate(ctx.logicalAnd(ctx.lt(y, x), divByZero), values), 0);
  EXPECT_EQ(evaluate(ctx.logicalOr(ctx.lt(x, y), divByZero), values), 1);
  EXPECT_EQ(evaluate(ctx.select(ctx.lt(x, y), c(5), divByZero), values), 5);
  // Missing symbols are not silently zero.
  EXPECT_EQ(evaluate(ctx.add(x, by), values), std::nullopt);
  const Term *tok = ctx.apply("tok", {x});
  EXPECT_EQ(evaluate(ctx.add(tok, c(1)), {{x, 3}, {tok, 41}}), 42);
}

TEST_F(TermTest, SubstituteRebuildsWithCanonicalization) {
  const Term *t = ctx.symbol("t", SymbolKind::LoopCounter);
  // Buffer (t + 1) % 2 of iteration t - 1 is t % 2.
  const Term *buffer = ctx.rem(ctx.add(t, c(1)), c(2));
  EXPECT_EQ(substitute(ctx, buffer, {{t, ctx.sub(t, c(1))}}), ctx.rem(t, c(2)));
  // A writer thread's fresh copy.
  const Term *tyWriter = ctx.freshCopy(ty);
  EXPECT_NE(tyWriter, ty);
  EXPECT_EQ(tyWriter->symbolKind(), SymbolKind::ThreadIdx);
  EXPECT_EQ(tyWriter->dim(), 1u);
  const Term *row = ctx.add(ctx.mul(by, c(16)), ty);
  EXPECT_EQ(substitute(ctx, row, {{ty, tyWriter}}), ctx.add(ctx.mul(by, c(16)), tyWriter));
  // Substituting a constant folds.
  EXPECT_EQ(substitute(ctx, row, {{by, c(1)}, {ty, c(2)}}), c(18));
  // Inside applications too.
  EXPECT_EQ(substitute(ctx, ctx.apply("tok", {ty}), {{ty, c(3)}}), ctx.apply("tok", {c(3)}));
  EXPECT_EQ(ctx.freshCopy(ty)->name(), "ty'2");
}

TEST_F(TermTest, CollectsSymbolsOnce) {
  const Term *t = ctx.add(ctx.mul(ctx.add(x, by), ctx.add(x, y)), ctx.apply("tok", {ty}));
  std::vector<const Term *> expected{x, y, by, ty};
  EXPECT_EQ(collectSymbols(t), expected);
  EXPECT_EQ(collectApplications(t).size(), 1u);
  EXPECT_TRUE(occursIn(ty, t));
  EXPECT_FALSE(containsBitwise(t));
  EXPECT_TRUE(containsBitwise(ctx.add(t, ctx.bitXor(x, c(3)))));
}

TEST_F(TermTest, PrintsReadableC) {
  EXPECT_EQ(print(ctx.add(ctx.mul(by, c(16)), ty)), "by*16 + ty");
  EXPECT_EQ(print(ctx.rem(ctx.add(x, c(1)), c(2))), "(x + 1) % 2");
  EXPECT_EQ(print(ctx.sub(x, c(3))), "x - 3");
  EXPECT_EQ(print(ctx.mul(ctx.add(x, y), c(4))), "(x + y)*4");
  EXPECT_EQ(print(ctx.sub(x, ctx.sub(y, ctx.symbol("z")))), "x - (y - z)");
  EXPECT_EQ(print(ctx.neg(ctx.add(x, c(1)))), "-(x + 1)");
  EXPECT_EQ(print(ctx.logicalAnd(ctx.lt(x, y), ctx.ne(x, c(0)))), "x < y && x != 0");
  EXPECT_EQ(print(ctx.bitXor(x, ctx.bitAnd(y, c(7)))), "y & 7 ^ x"); // C precedence
  EXPECT_EQ(print(ctx.bitAnd(ctx.bitXor(x, y), c(7))), "(x ^ y) & 7");
  EXPECT_EQ(print(ctx.mul(ctx.apply("tok", {ctx.symbol("r")}), ctx.symbol("K"))), "tok(r)*K");
  EXPECT_EQ(print(ctx.select(ctx.lt(x, y), x, y)), "x < y ? x : y");
  EXPECT_EQ(print(ctx.builtin(SymbolKind::ThreadIdx, 0)), "threadIdx.x");
}

} // namespace

// The address of `a[x / 64][x % 64]` is x: a store spread over a loop then
// reads as a layout of its counter.
TEST_F(TermTest, WholeAndRemainderPartsAddBackToTheDividend) {
  const Term *x = ctx.symbol("x", SymbolKind::LoopCounter);
  const Term *c64 = ctx.constant(64);
  const Term *whole = ctx.mul(ctx.div(x, c64), c64);
  EXPECT_EQ(ctx.add(whole, ctx.rem(x, c64)), x);
  EXPECT_EQ(ctx.add(ctx.rem(x, c64), whole), x);
  // Different divisors do not fold.
  const Term *other =
      ctx.add(ctx.mul(ctx.div(x, ctx.constant(32)), ctx.constant(32)), ctx.rem(x, c64));
  EXPECT_NE(other, x);
}

} // namespace ave::inv
