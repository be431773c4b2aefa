#include "ave/invariants/Solver.h"

#include "ave/invariants/Counterexample.h"
#include "ave/invariants/LayoutMatch.h"
#include "ave/invariants/Polynomial.h"
#include "ave/invariants/RangeSimplifier.h"

#include <algorithm>
#include <chrono>
#include <gtest/gtest.h>
#include <thread>

namespace ave::inv {
namespace {

// The 16x16 tiled SGEMM of ANALYSIS.md: symbols, shared facts, and the
// provenance of As/Bs as the writer threads stored it.
class SgemmObligations : public ::testing::Test {
protected:
  TermContext ctx;
  ObligationSolver solver{ctx, 5000};
  LayoutMatcher matcher{ctx};
  const Term *c(int64_t v) { return ctx.constant(v); }
  const Term *add(const Term *x, const Term *y) { return ctx.add(x, y); }
  const Term *mul(const Term *x, const Term *y) { return ctx.mul(x, y); }
  const Term *eq(const Term *x, const Term *y) { return ctx.eq(x, y); }

  const Term *M = ctx.symbol("M", SymbolKind::Param), *N = ctx.symbol("N", SymbolKind::Param);
  const Term *K = ctx.symbol("K", SymbolKind::Param);
  const Term *tx = ctx.symbol("tx", SymbolKind::ThreadIdx, 0);
  const Term *ty = ctx.symbol("ty", SymbolKind::ThreadIdx, 1);
  const Term *bx = ctx.symbol("bx", SymbolKind::BlockIdx, 0);
  const Term *by = ctx.symbol("by", SymbolKind::BlockIdx, 1);
  const Term *k0 = ctx.symbol("k0", SymbolKind::LoopCounter);
  const Term *k = ctx.symbol("k", SymbolKind::LoopCounter);
  const Term *cm = ctx.symbol("m", SymbolKind::Coordinate);
  const Term *cn = ctx.symbol("n", SymbolKind::Coordinate);
  const Term *ck = ctx.symbol("k", SymbolKind::Coordinate);
  TagLayout A{{{cm, M}, {ck, K}}, add(mul(cm, K), ck)};
  TagLayout B{{{ck, K}, {cn, N}}, add(mul(ck, N), cn)};

  void SetUp() override {
    auto range = [&](const Term *v, const Term *lo, const Term *hi) {
      solver.addFact(ctx.le(lo, v));
      solver.addFact(ctx.lt(v, hi));
    };
    range(tx, c(0), c(16));
    range(ty, c(0), c(16));
    range(by, c(0), ctx.div(M, c(16)));
    range(bx, c(0), ctx.div(N, c(16)));
    for (const Term *size : {M, N, K})
      solver.addFact(eq(ctx.rem(size, c(16)), c(0)));
    solver.addFact(ctx.ge(K, c(16)));
    range(k0, c(0), K);
    solver.addFact(eq(ctx.rem(k0, c(16)), c(0)));
    range(k, c(0), c(16));
  }

  // The writer of As[ty*16 + k]: a fresh thread, its tile-load provenance
  // from `A[row*K + k0 + tx]`, and the address constraint.
  struct Writer {
    const Term *tx, *ty;
    TermKeyed<const Term *> provenance;
    const Term *constraint;
  };

  Writer writer(const TagLayout &layout, const Term *globalIndexOfThread, const Term *readAddress) {
    Writer w{ctx.freshCopy(tx), ctx.freshCopy(ty), {}, nullptr};
    TermMap toWriter{{tx, w.tx}, {ty, w.ty}};
    LayoutMatchResult match = matcher.match(layout, globalIndexOfThread);
    EXPECT_TRUE(match.matched) << match.reason;
    for (auto [coordinate, term] : match.coordinates)
      w.provenance[coordinate] = substitute(ctx, term, toWriter);
    std::vector<const Term *> conditions{eq(add(mul(w.ty, c(16)), w.tx), readAddress),
                                         ctx.le(c(0), w.tx), ctx.lt(w.tx, c(16)),
                                         ctx.le(c(0), w.ty), ctx.lt(w.ty, c(16))};
    w.constraint = ctx.allOf(conditions);
    return w;
  }

  const Term *row() { return add(mul(by, c(16)), ty); }
  const Term *col() { return add(mul(bx, c(16)), tx); }

  // Implicit invariant 1 at As[ty][k] * Bs[k][tx]: the shared name k agrees.
  const Term *kAgreementViolation(const Term *bGlobalIndex, Writer &wa, Writer &wb) {
    wa = writer(A, add(add(mul(row(), K), k0), tx), add(mul(ty, c(16)), k));
    wb = writer(B, bGlobalIndex, add(mul(k, c(16)), tx));
    return ctx.allOf(std::vector<const Term *>{wa.constraint, wb.constraint,
                                               ctx.ne(wa.provenance[ck], wb.provenance[ck])});
  }
};

TEST_F(SgemmObligations, CrossThreadAgreementIsProven) {
  Writer wa, wb;
  const Term *violation = kAgreementViolation(add(mul(add(k0, ty), N), col()), wa, wb);
  SolverResult r = solver.check(violation);
  EXPECT_EQ(r.status, SolverResult::Proven) << r.reason;
  EXPECT_TRUE(r.model.empty());
  EXPECT_FALSE(solver.confirms(violation, r));
}

TEST_F(SgemmObligations, TransposedMutantHasConfirmedCounterexample) {
  Writer wa, wb;
  // Bs[ty][tx] = B[(k0 + tx)*N + bx*16 + ty]
  const Term *mutant = add(mul(add(k0, tx), N), add(mul(bx, c(16)), ty));
  const Term *violation = kAgreementViolation(mutant, wa, wb);
  EXPECT_EQ(wb.provenance[ck], add(k0, wb.tx));
  SolverResult r = solver.check(violation, {wa.provenance[ck], wb.provenance[ck]});
  ASSERT_EQ(r.status, SolverResult::Violated) << r.reason;
  EXPECT_TRUE(solver.confirms(violation, r));
  EXPECT_TRUE(confirmsViolation(violation, solver.facts(), r.assignment));
  // The model names the reader, the loop and both writers ...
  for (const char *name : {"tx", "ty", "k", "k0", "K", "tx'1", "ty'1", "tx'2", "ty'2"})
    EXPECT_TRUE(r.model.count(name)) << name;
  // ... and the observed coordinates, which indeed disagree.
  ASSERT_TRUE(r.model.count(print(wa.provenance[ck])));
  ASSERT_TRUE(r.model.count(print(wb.provenance[ck])));
  EXPECT_NE(r.model[print(wa.provenance[ck])], r.model[print(wb.provenance[ck])]);
  // Tampering with the model breaks the confirmation: evaluate() is the judge.
  Assignment tampered = r.assignment;
  tampered[wb.tx] = tampered[wa.tx];
  tampered[wb.ty] = tampered[wa.ty];
  EXPECT_FALSE(confirmsViolation(violation, solver.facts(), tampered));
}

TEST_F(SgemmObligations, LayoutSideConditionsAreProvenLinear) {
  LayoutMatchResult match = matcher.match(A, add(add(mul(row(), K), k0), tx));
  ASSERT_TRUE(match.matched) << match.reason;
  for (const Term *side : match.sideConditions) {
    SolverResult r = solver.check(ctx.logicalNot(side));
    // row < M needs by < M/16 and M % 16 == 0; k0 + tx < K needs k0 % 16.
    EXPECT_EQ(r.status, SolverResult::Proven) << print(side) << ": " << r.reason;
  }
  // Without the alignment of k0 the bound k0 + tx < K fails, with a model.
  TermContext &c2 = ctx;
  const Term *k0Unaligned = c2.symbol("k0u", SymbolKind::LoopCounter);
  const Term *side = ctx.lt(add(k0Unaligned, tx), K);
  const Term *violation = ctx.allOf(std::vector<const Term *>{
      ctx.le(c(0), k0Unaligned), ctx.lt(k0Unaligned, K), ctx.logicalNot(side)});
  SolverResult r = solver.check(violation, {add(k0Unaligned, tx)});
  ASSERT_EQ(r.status, SolverResult::Violated);
  EXPECT_TRUE(solver.confirms(violation, r));
  ASSERT_TRUE(r.model.count(print(add(k0Unaligned, tx))));
  EXPECT_GE(r.model[print(add(k0Unaligned, tx))], r.model["K"]);
}

TEST_F(SgemmObligations, TypicalObligationIsFast) {
  std::vector<double> millis;
  for (int i = 0; i < 8; ++i) {
    Writer wa, wb;
    const Term *bIndex = i % 2 == 0 ? add(mul(add(k0, ty), N), col())
                                    : add(mul(add(k0, tx), N), add(mul(bx, c(16)), ty));
    SolverResult r = solver.check(kAgreementViolation(bIndex, wa, wb));
    EXPECT_EQ(r.status, i % 2 == 0 ? SolverResult::Proven : SolverResult::Violated);
    millis.push_back(r.millis);
  }
  std::sort(millis.begin(), millis.end());
  double median = millis[millis.size() / 2];
  std::cout << "[ timing ] obligation ms: min " << millis.front() << " median " << median << " max "
            << millis.back() << "\n";
  RecordProperty("median_ms", std::to_string(median));
  EXPECT_LT(median, 50.0);
}

class SolverTest : public ::testing::Test {
protected:
  TermContext ctx;
  const Term *c(int64_t v) { return ctx.constant(v); }
  const Term *x = ctx.symbol("x");
  const Term *y = ctx.symbol("y");
};

TEST_F(SolverTest, XorSwizzleIsABijectionInBitVectorMode) {
  // addr(r, c) = r*32 + (c ^ ((r & 7) << shift)) over a 32x32 tile.
  const Term *r1 = ctx.symbol("r1"), *c1 = ctx.symbol("c1");
  const Term *r2 = ctx.symbol("r2"), *c2 = ctx.symbol("c2");
  ObligationSolver solver(ctx, 5000);
  for (const Term *v : {r1, c1, r2, c2}) {
    solver.addFact(ctx.le(c(0), v));
    solver.addFact(ctx.lt(v, c(32)));
  }
  auto address = [&](const Term *r, const Term *col, int64_t shift) {
    return ctx.add(ctx.mul(r, c(32)), ctx.bitXor(col, ctx.shl(ctx.bitAnd(r, c(7)), c(shift))));
  };
  auto collision = [&](int64_t shift) {
    return ctx.allOf(
        std::vector<const Term *>{ctx.logicalOr(ctx.ne(r1, r2), ctx.ne(c1, c2)),
                                  ctx.eq(address(r1, c1, shift), address(r2, c2, shift))});
  };
  SolverResult ok = solver.check(collision(0));
  EXPECT_EQ(ok.status, SolverResult::Proven) << ok.reason;
  // Shifting the row bits up by 3 pushes swizzled columns out of their row
  // (c ^ 56 >= 32): row 7 and row 8 overlap.
  const Term *bad = collision(3);
  SolverResult clash = solver.check(bad, {address(r1, c1, 3), address(r2, c2, 3)});
  ASSERT_EQ(clash.status, SolverResult::Violated) << clash.reason;
  EXPECT_TRUE(solver.confirms(bad, clash));
  EXPECT_EQ(clash.model[print(address(r1, c1, 3))], clash.model[print(address(r2, c2, 3))]);
  EXPECT_EQ(evaluate(address(r1, c1, 3), clash.assignment),
            evaluate(address(r2, c2, 3), clash.assignment));
}

TEST_F(SolverTest, TruncatingDivisionAndRemainderInBothEncodings) {
  ObligationSolver solver(ctx, 5000);
  solver.addFact(ctx.lt(x, c(0)));
  solver.addFact(ctx.lt(c(-100), x));
  // C: x / 4 rounds toward zero, x % 4 has the sign of x (Euclidean would not).
  const Term *identity = ctx.eq(ctx.add(ctx.mul(ctx.div(x, c(4)), c(4)), ctx.rem(x, c(4))), x);
  EXPECT_EQ(solver.check(ctx.logicalNot(identity)).status, SolverResult::Proven);
  EXPECT_EQ(solver.check(ctx.lt(c(0), ctx.rem(x, c(4)))).status, SolverResult::Proven);
  const Term *floorLike = ctx.eq(ctx.div(x, c(4)), ctx.shr(x, c(2)));
  SolverResult bv = solver.check(ctx.logicalNot(floorLike), {ctx.div(x, c(4)), ctx.shr(x, c(2))});
  ASSERT_EQ(bv.status, SolverResult::Violated); // -1/4 == 0 but -1 >> 2 == -1
  EXPECT_TRUE(solver.confirms(ctx.logicalNot(floorLike), bv));
  EXPECT_NE(bv.model["x"] % 4, 0);
}

// The analysis asks some questions twice (an output's coverage while
// interpreting and again as its obligation). The second ask is answered
// from the first while the facts are the same; a model only for the same
// observed terms; a new fact asks Z3 again.
TEST_F(SolverTest, SameQuestionUnderTheSameFactsIsAnsweredOnce) {
  ObligationSolver solver(ctx, 5000);
  solver.addFact(ctx.lt(c(-100), x));
  solver.addFact(ctx.eq(y, ctx.add(x, c(1))));
  const Term *notAbove = ctx.le(y, x); // needs Z3: no bound decides it
  SolverResult first = solver.check(notAbove);
  ASSERT_EQ(first.status, SolverResult::Proven);
  EXPECT_GT(first.work, 0u);
  SolverResult again = solver.decide(notAbove);
  EXPECT_EQ(again.status, SolverResult::Proven);
  EXPECT_EQ(again.work, 0u);

  const Term *small = ctx.lt(x, c(-50));
  SolverResult decided = solver.decide(small);
  ASSERT_EQ(decided.status, SolverResult::Violated);
  EXPECT_TRUE(decided.model.empty());
  const Term *half = ctx.div(x, c(2));
  SolverResult withModel = solver.check(small, {half});
  ASSERT_EQ(withModel.status, SolverResult::Violated);
  EXPECT_TRUE(withModel.model.count(print(half)));
  EXPECT_EQ(solver.check(small, {half}).work, 0u);

  solver.addFact(ctx.lt(c(-10), x));
  EXPECT_EQ(solver.check(small, {half}).status, SolverResult::Proven);
}

TEST_F(SolverTest, UndefinedExecutionsAreNoCounterexamples) {
  ObligationSolver solver(ctx, 5000);
  solver.addFact(ctx.lt(c(0), x));
  // x + 1 > x fails only by overflow, which C leaves undefined.
  EXPECT_EQ(solver.check(ctx.le(ctx.add(x, c(1)), x)).status, SolverResult::Proven);
  // Same in the bit-vector encoding (a plain BV32 query would wrap around).
  const Term *bvWrap =
      ctx.logicalAnd(ctx.le(ctx.add(x, c(1)), x), ctx.eq(ctx.bitAnd(x, c(1)), c(1)));
  EXPECT_EQ(solver.check(bvWrap).status, SolverResult::Proven);
  // Division by zero is not a way to make y / x weird.
  EXPECT_EQ(solver.check(ctx.logicalAnd(ctx.eq(x, c(0)), ctx.eq(ctx.div(y, x), c(7)))).status,
            SolverResult::Proven);
  // Short-circuit: the guarded division is fine where the guard holds.
  const Term *guarded = ctx.logicalAnd(ctx.ne(y, c(0)), ctx.eq(ctx.div(x, y), c(2)));
  SolverResult r = solver.check(guarded);
  ASSERT_EQ(r.status, SolverResult::Violated);
  EXPECT_TRUE(solver.confirms(guarded, r));
}

TEST_F(SolverTest, UninterpretedGathersMatchOnlyThroughTheSameToken) {
  ObligationSolver solver(ctx, 5000);
  const Term *r = ctx.symbol("r");
  const Term *tokR = ctx.apply("tok", {r});
  // A gather through tok[r] and a scatter through tok[r]: same row.
  EXPECT_EQ(solver.check(ctx.ne(tokR, ctx.apply("tok", {r}))).status, SolverResult::Proven);
  // A scatter through r: not provably the same row.
  const Term *violation = ctx.ne(tokR, r);
  SolverResult s = solver.check(violation);
  ASSERT_EQ(s.status, SolverResult::Violated);
  EXPECT_TRUE(s.model.count("tok(r)"));
  EXPECT_TRUE(solver.confirms(violation, s));
}

TEST_F(SolverTest, NonlinearLayoutQueryTimesOutAsUnknown) {
  // DESIGN.md: "idx == m*K + k, k < K" with symbolic K is what we must not
  // send Z3. It is reported as Unknown, never as proven.
  const Term *K = ctx.symbol("K", SymbolKind::Param), *M = ctx.symbol("M", SymbolKind::Param);
  const Term *m = ctx.symbol("m"), *k = ctx.symbol("k"), *m2 = ctx.symbol("m2"),
             *k2 = ctx.symbol("k2");
  ObligationSolver solver(ctx, 200);
  for (const Term *v : {m, m2})
    solver.addFact(ctx.logicalAnd(ctx.le(c(0), v), ctx.lt(v, M)));
  for (const Term *v : {k, k2})
    solver.addFact(ctx.logicalAnd(ctx.le(c(0), v), ctx.lt(v, K)));
  const Term *p = ctx.symbol("p"), *q = ctx.symbol("q");
  // (m*K + k)*(m2*K + k2) == p*q*K*K + 7 with distinct factors: hard nonlinear.
  const Term *lhs = ctx.mul(ctx.add(ctx.mul(m, K), k), ctx.add(ctx.mul(m2, K), k2));
  const Term *rhs = ctx.add(ctx.mul(ctx.mul(p, q), ctx.mul(K, M)), c(7));
  const Term *violation = ctx.allOf(std::vector<const Term *>{
      ctx.eq(lhs, rhs), ctx.lt(c(1000), K), ctx.lt(c(1000), M), ctx.lt(c(1), p), ctx.lt(c(1), q),
      ctx.ne(ctx.rem(ctx.add(k, k2), c(3)), c(1))});
  SolverResult r = solver.check(violation);
  EXPECT_EQ(r.status, SolverResult::Unknown);
  EXPECT_FALSE(r.reason.empty());
  EXPECT_TRUE(r.model.empty());
  EXPECT_FALSE(solver.confirms(violation, r));
  // x^3 + y^3 == z^3 in positive ints has no solution (Fermat), but Z3's
  // nonlinear arithmetic cannot show it: Unknown, not Proven.
  const Term *z = ctx.symbol("z");
  auto cube = [&](const Term *v) { return ctx.mul(ctx.mul(v, v), v); };
  const Term *fermat =
      ctx.allOf(std::vector<const Term *>{ctx.lt(c(0), x), ctx.lt(c(0), y), ctx.lt(c(0), z),
                                          ctx.eq(ctx.add(cube(x), cube(y)), cube(z))});
  SolverResult f = solver.check(fermat);
  EXPECT_EQ(f.status, SolverResult::Unknown);
  // The timeout is honoured: each of its tries (the query, a fresh solver,
  // three parameter pins) stops at its wall guard.
  EXPECT_LT(f.millis, 5 * 200.0 * ObligationSolver::WallSlack + 500);
  // The scope was popped: later linear queries still work.
  EXPECT_EQ(solver.check(ctx.lt(K, c(5000))).status, SolverResult::Violated);
  EXPECT_EQ(solver.check(ctx.logicalAnd(ctx.lt(k, c(0)), ctx.eq(k, k2))).status,
            SolverResult::Proven);
}

// Regression: budgets were wall time, so a CI runner under load left
// unproven a nonlinear index bound that an idle machine proved
// (testdata/e2e/Inputs/soundness/index_overflow.hip, productBounded). They
// are solver work now: waiting spends nothing, and the same question spends
// the same work on every run.
TEST_F(SolverTest, KernelLimitIsSolverWorkNotWallTime) {
  const Term *z = ctx.symbol("z");
  auto cube = [&](const Term *v) { return ctx.mul(ctx.mul(v, v), v); };
  const Term *fermat =
      ctx.allOf(std::vector<const Term *>{ctx.lt(c(0), x), ctx.lt(c(0), y), ctx.lt(c(0), z),
                                          ctx.eq(ctx.add(cube(x), cube(y)), cube(z))});
  auto spend = [&]() {
    ObligationSolver solver(ctx, 100);
    solver.setKernelLimit(1000);
    EXPECT_EQ(solver.msLeft(), 1000u);
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
    EXPECT_EQ(solver.msLeft(), 1000u); // waiting is not work
    SolverResult r = solver.check(fermat);
    EXPECT_EQ(r.status, SolverResult::Unknown);
    EXPECT_LT(r.millis, 100.0 * ObligationSolver::WallSlack + 500);
    return solver.msLeft();
  };
  unsigned First = spend(), Second = spend();
  EXPECT_LT(First, 1000u);       // the check spent work ...
  EXPECT_GE(First, 1000u - 101); // ... at most its 100 ms worth
  EXPECT_EQ(First, Second);      // and the same on every run
}

TEST_F(SolverTest, EncodingProblemsAreUnknownWithAReason) {
  ObligationSolver solver(ctx, 5000);
  SolverResult r = solver.check(ctx.eq(ctx.bitAnd(x, c(INT64_C(1) << 40)), c(1)));
  EXPECT_EQ(r.status, SolverResult::Unknown);
  EXPECT_NE(r.reason.find("does not fit in a 32-bit int"), std::string::npos) << r.reason;
  // The solver stays usable afterwards.
  EXPECT_EQ(solver.check(ctx.ne(x, x)).status, SolverResult::Proven);
  EXPECT_EQ(solver.check(ctx.lt(x, y)).status, SolverResult::Violated);
}

// Regression: symbols the range simplification pins (`b == 0`) leave the
// Z3 query, but a counterexample must still give them their value, or
// callers evaluating the original terms (the bank model) get nothing.
TEST(SolverRangeSimplification, PinnedSymbolsKeepTheirValueInTheModel) {
  TermContext ctx;
  ObligationSolver solver(ctx, 2000);
  const Term *b = ctx.symbol("b", SymbolKind::BlockIdx, 0);
  const Term *t = ctx.symbol("t", SymbolKind::ThreadIdx, 0);
  solver.addFact(ctx.ge(t, ctx.constant(0)));
  solver.addFact(ctx.lt(t, ctx.constant(64)));
  const Term *query = ctx.logicalAnd(
      ctx.eq(b, ctx.constant(0)),
      ctx.eq(ctx.rem(ctx.add(ctx.mul(b, ctx.constant(64)), t), ctx.constant(64)), ctx.constant(5)));
  SolverResult r = solver.check(query);
  ASSERT_EQ(r.status, SolverResult::Violated);
  ASSERT_TRUE(r.assignment.count(b));
  EXPECT_EQ(r.assignment.at(b), 0);
  EXPECT_EQ(r.assignment.at(t), 5);
  EXPECT_TRUE(solver.confirms(query, r));
}

// A non-negative sum whose rest is not below the divisor splits all the
// same: (tid + 256*l) / 16 is 16*l + tid / 16 and its % 16 is tid % 16 (a
// staging loop's e / 16, e % 16, which the output writer solution splits
// into the digits of tid).
TEST(SolverRangeSimplification, DivisionOfASumSplitsAtTheMultiple) {
  TermContext ctx;
  RangeSimplifier ranges(ctx);
  const Term *tid = ctx.symbol("tid", SymbolKind::Fresh);
  const Term *l = ctx.symbol("l", SymbolKind::LoopCounter);
  ranges.addFacts(
      ctx.logicalAnd(ctx.logicalAnd(ctx.ge(tid, ctx.constant(0)), ctx.lt(tid, ctx.constant(256))),
                     ctx.logicalAnd(ctx.ge(l, ctx.constant(0)), ctx.lt(l, ctx.constant(4)))));
  const Term *c16 = ctx.constant(16);
  const Term *e = ctx.add(tid, ctx.mul(ctx.constant(256), l));
  EXPECT_EQ(ranges.simplify(ctx.div(e, c16)),
            ranges.simplify(ctx.add(ctx.mul(c16, l), ctx.div(tid, c16))));
  EXPECT_EQ(ranges.simplify(ctx.rem(e, c16)), ranges.simplify(ctx.rem(tid, c16)));
  // A rest that may be negative is left alone.
  const Term *s = ctx.symbol("s", SymbolKind::Fresh);
  const Term *mixed = ctx.div(ctx.add(s, ctx.mul(ctx.constant(256), l)), c16);
  EXPECT_EQ(ranges.simplify(mixed), mixed);
}

// Element c of a float4 store to 4*(256*blockIdx.x + 4*threadIdx.x) + j is
// written when `(c-j)/256*256 + (c-j)%256/4*4 + j == c`: the lower digit
// folds, the equation cancels and the remainder of the shifted coordinate
// becomes one of c itself. Each rewrite keeps the value for every c.
TEST(SolverRangeSimplification, VectorStoreWriterFoldsToOneRemainder) {
  TermContext Terms;
  RangeSimplifier Ranges(Terms);
  const Term *C = Terms.symbol("c", SymbolKind::Fresh);
  const Term *Size = Terms.symbol("C", SymbolKind::Param);
  // The size's bound first, as the kernel's facts come before a question:
  // the rewrites build new sums only where c's interval keeps them in int.
  Ranges.addFacts(Terms.le(Size, Terms.constant(2048)));
  Ranges.addFacts(Terms.logicalAnd(Terms.ge(C, Terms.constant(0)), Terms.lt(C, Size)));
  for (int64_t J = 0; J < 4; ++J) {
    const Term *X = Terms.sub(C, Terms.constant(J));
    const Term *Tile = Terms.mul(Terms.div(X, Terms.constant(256)), Terms.constant(256));
    const Term *Lane = Terms.mul(Terms.div(Terms.rem(X, Terms.constant(256)), Terms.constant(4)),
                                 Terms.constant(4));
    const Term *Written = Terms.eq(Terms.add(Terms.add(Tile, Lane), Terms.constant(J)), C);
    const Term *InLane = Terms.lt(Terms.div(Terms.rem(X, Terms.constant(256)), Terms.constant(4)),
                                  Terms.constant(64));
    const Term *InGrid = Terms.lt(Terms.div(X, Terms.constant(256)), Terms.constant(8));
    const Term *Question = Terms.logicalAnd(Terms.logicalAnd(Written, InLane), InGrid);
    const Term *Simple = Ranges.simplify(Question);
    // c - j < 2048 is decided by c's interval (the bound came from c < C).
    EXPECT_EQ(print(Simple), print(Terms.eq(Terms.rem(C, Terms.constant(4)), Terms.constant(J))))
        << "j=" << J;
    for (int64_t V = 0; V < 2048; ++V) {
      Assignment At{{C, V}, {Size, 2048}};
      ASSERT_EQ(evaluate(Question, At), evaluate(Simple, At)) << "j=" << J << " c=" << V;
    }
  }
}

// A float4 store's lane of a 128-wide tile: `n % 128 % 8 % 4` is `n % 4`
// for every n, negative ones included (both take the sign of n); a chain
// whose divisor does not divide the one before stays. Left as it was, the
// transposed register tile's output coverage took Z3 0.75-1.3 s and was
// canceled whenever Z3 had seen other checks before it.
TEST(SolverRangeSimplification, RemainderOfAMultipleRemainderFolds) {
  TermContext Terms;
  RangeSimplifier Ranges(Terms);
  const Term *N = Terms.symbol("n", SymbolKind::Fresh);
  auto Rem = [&](const Term *X, int64_t D) { return Terms.rem(X, Terms.constant(D)); };
  const Term *Chain = Rem(Rem(Rem(N, 128), 8), 4);
  const Term *Simple = Ranges.simplify(Chain);
  EXPECT_EQ(print(Simple), print(Rem(N, 4)));
  const Term *Other = Rem(Rem(N, 12), 8);
  EXPECT_EQ(print(Ranges.simplify(Other)), print(Other));
  for (int64_t V = -300; V <= 300; ++V) {
    Assignment At{{N, V}};
    ASSERT_EQ(evaluate(Chain, At), evaluate(Simple, At)) << "n=" << V;
  }
}

// A double buffer's halves: 16*(t%2) + 16*((t-1)%2) is 16 where t >= 1,
// and stays as it is where t - 1 may be negative (-1 % 2 is -1 in C).
TEST(SolverRangeSimplification, DoubleBufferHalvesAddUp) {
  TermContext Terms;
  const Term *T = Terms.symbol("t", SymbolKind::LoopCounter);
  const Term *Ty = Terms.symbol("ty", SymbolKind::ThreadIdx, 1);
  auto Half = [&](const Term *X) {
    return Terms.mul(Terms.constant(16), Terms.rem(X, Terms.constant(2)));
  };
  const Term *Row =
      Terms.add(Terms.add(Terms.add(Half(T), Half(Terms.sub(T, Terms.constant(1)))), Ty),
                Terms.constant(-16));
  for (int64_t Low : {1, 0}) {
    RangeSimplifier Ranges(Terms);
    Ranges.addFacts(
        Terms.logicalAnd(Terms.ge(T, Terms.constant(Low)), Terms.lt(T, Terms.constant(100))));
    Ranges.addFacts(
        Terms.logicalAnd(Terms.ge(Ty, Terms.constant(0)), Terms.lt(Ty, Terms.constant(16))));
    const Term *Simple = Ranges.simplify(Row);
    if (Low == 1)
      EXPECT_EQ(Simple, Ty) << print(Simple);
    else
      EXPECT_NE(Simple, Ty) << print(Simple);
    for (int64_t V = Low; V < 100; ++V)
      for (int64_t Y : {0, 7, 15}) {
        Assignment At{{T, V}, {Ty, Y}};
        ASSERT_EQ(evaluate(Row, At), evaluate(Simple, At)) << "t=" << V << " ty=" << Y;
      }
  }
}

// A comparison the bounds were read from is never decided by those bounds:
// `x < 10` stays (folding it would drop the only bound on x), the same
// comparison nested in a disjunction does not give a bound and folds.
TEST(SolverRangeSimplification, BoundsDoNotDecideTheirOwnSource) {
  TermContext Terms;
  RangeSimplifier Ranges(Terms);
  const Term *X = Terms.symbol("x", SymbolKind::Fresh);
  const Term *Y = Terms.symbol("y", SymbolKind::Fresh);
  const Term *Below = Terms.lt(X, Terms.constant(10));
  const Term *Within = Terms.lt(X, Terms.constant(20));
  std::vector<const Term *> Conjuncts{Terms.ge(X, Terms.constant(0)), Below,
                                      Terms.logicalOr(Within, Terms.eq(Y, X))};
  const Term *Query = Terms.allOf(Conjuncts);
  Ranges.addFacts(Query);
  EXPECT_EQ(print(Ranges.simplify(Query)),
            print(Terms.logicalAnd(Terms.ge(X, Terms.constant(0)), Below)));
}

// The simplifier removes `%` and `/` whose operands are in range and folds
// `c*(x/c) + x%c` back to x.
TEST(SolverRangeSimplification, LaneArithmeticFolds) {
  TermContext ctx;
  RangeSimplifier ranges(ctx);
  const Term *i = ctx.symbol("i", SymbolKind::Fresh);
  const Term *kk = ctx.symbol("kk", SymbolKind::LoopCounter);
  ranges.addFacts(
      ctx.logicalAnd(ctx.logicalAnd(ctx.ge(i, ctx.constant(0)), ctx.lt(i, ctx.constant(16))),
                     ctx.logicalAnd(ctx.ge(kk, ctx.constant(0)), ctx.lt(kk, ctx.constant(16)))));
  const Term *c4 = ctx.constant(4), *c16 = ctx.constant(16), *c64 = ctx.constant(64);
  // lane = i + 16*(kk/4); lane % 64 / 16 * 4 + kk % 4 is kk.
  const Term *lane = ctx.add(i, ctx.mul(c16, ctx.div(kk, c4)));
  const Term *k = ctx.add(ctx.mul(ctx.div(ctx.rem(lane, c64), c16), c4), ctx.rem(kk, c4));
  EXPECT_EQ(ranges.simplify(k), kk);
  // t - 1 < 0 with t >= 0 pins t to 0.
  const Term *t = ctx.symbol("t", SymbolKind::LoopCounter);
  ranges.addFacts(ctx.logicalAnd(ctx.ge(t, ctx.constant(0)),
                                 ctx.lt(ctx.sub(t, ctx.constant(1)), ctx.constant(0))));
  EXPECT_EQ(ranges.simplify(ctx.rem(t, ctx.constant(2))), ctx.constant(0));
}

// `b = blockIdx.y / H` with grid(.., B * H): bounds on a quotient or
// remainder by a positive symbolic divisor become linear, so the side
// conditions of a layout match with `b` and `h = blockIdx.y % H` are proven
// at once instead of through nonlinear search.
TEST(SolverRangeSimplification, QuotientBoundsBySymbolicDivisorAreLinear) {
  TermContext ctx;
  ObligationSolver solver(ctx, 10000);
  const Term *by = ctx.symbol("by", SymbolKind::BlockIdx, 1);
  const Term *B = ctx.symbol("B", SymbolKind::Param), *H = ctx.symbol("H", SymbolKind::Param);
  solver.addFact(ctx.ge(by, ctx.constant(0)));
  solver.addFact(ctx.lt(by, ctx.mul(B, H)));
  solver.addFact(ctx.ge(H, ctx.constant(1)));
  solver.addFact(ctx.ge(B, ctx.constant(1)));
  const Term *b = ctx.div(by, H), *h = ctx.rem(by, H);
  const Term *inBounds = ctx.allOf(std::vector<const Term *>{
      ctx.le(ctx.constant(0), b), ctx.lt(b, B), ctx.le(ctx.constant(0), h), ctx.lt(h, H)});
  SolverResult r = solver.check(ctx.logicalNot(inBounds));
  EXPECT_EQ(r.status, SolverResult::Proven);
  EXPECT_LT(r.millis, 50.0);
  // The rewrite is an equivalence: a bound that does not hold still fails.
  SolverResult tooTight = solver.check(ctx.logicalNot(ctx.lt(b, ctx.sub(B, ctx.constant(1)))));
  EXPECT_EQ(tooTight.status, SolverResult::Violated);

  RangeSimplifier ranges(ctx);
  ranges.addFacts(ctx.logicalAnd(ctx.ge(by, ctx.constant(0)), ctx.ge(H, ctx.constant(1))));
  EXPECT_EQ(ranges.simplify(ctx.lt(b, B)), ctx.lt(by, ctx.mul(H, B)));
  EXPECT_EQ(ranges.simplify(ctx.lt(h, H)), ctx.trueTerm());
  // Without a known sign of the dividend nothing changes.
  const Term *x = ctx.symbol("x", SymbolKind::Fresh);
  EXPECT_EQ(ranges.simplify(ctx.lt(ctx.div(x, H), B)), ctx.lt(ctx.div(x, H), B));
}

// Lane arithmetic that is affine on its symbols' small ranges folds to that
// affine form (checked point by point over the box); what is not affine, or
// not bounded, stays.
TEST(SolverRangeSimplification, BoundedLaneArithmeticBecomesAffine) {
  TermContext ctx;
  RangeSimplifier ranges(ctx);
  const Term *kk = ctx.symbol("kk", SymbolKind::LoopCounter);
  const Term *lane = ctx.symbol("lane", SymbolKind::Lane);
  const Term *k0 = ctx.symbol("k0", SymbolKind::LoopCounter);
  auto c = [&](int64_t v) { return ctx.constant(v); };
  ranges.addFacts(ctx.allOf(std::vector<const Term *>{ctx.ge(kk, c(0)), ctx.lt(kk, c(16)),
                                                      ctx.ge(lane, c(0)), ctx.lt(lane, c(32))}));
  // kk as its bits: kk % 2 + (kk / 2) % 2 * 2 + kk / 4 * 4, plus a lane term
  // that cancels: (lane / 8) * 8 - lane + lane % 8.
  const Term *bits =
      ctx.add(ctx.add(ctx.rem(kk, c(2)), ctx.mul(ctx.rem(ctx.div(kk, c(2)), c(2)), c(2))),
              ctx.mul(ctx.div(kk, c(4)), c(4)));
  const Term *zero =
      ctx.add(ctx.sub(ctx.mul(ctx.div(lane, c(8)), c(8)), lane), ctx.rem(lane, c(8)));
  const Term *k = ctx.add(ctx.add(bits, zero), k0);
  EXPECT_EQ(normalize(ctx, ranges.simplify(k)), normalize(ctx, ctx.add(kk, k0)));
  // kk % 3 is not affine on [0, 16): unchanged up to normal form.
  const Term *notAffine = ctx.add(ctx.rem(kk, c(3)), k0);
  EXPECT_NE(normalize(ctx, ranges.simplify(notAffine)), normalize(ctx, ctx.add(kk, k0)));
  EXPECT_TRUE(occursIn(kk, ranges.simplify(notAffine)));
}

} // namespace
// Symbols the range simplification pins are gone from the violation but
// not from the facts asserted before it: the pins must bind the facts too.
// (A launch's gridDim.x == 1 was pinned while Z3 chose blockIdx.x = 3 < 7 =
// gridDim.x for the facts: a model that did not re-evaluate, and a race
// lint never reported.)
TEST_F(SolverTest, PinnedSymbolsBindTheFacts) {
  const Term *b = ctx.symbol("b", SymbolKind::BlockIdx, 0);
  const Term *g = ctx.symbol("g", SymbolKind::GridDim, 0);
  ObligationSolver solver(ctx, 5000);
  solver.addFact(ctx.ge(b, c(0)));
  solver.addFact(ctx.lt(b, g));
  const Term *Contradiction =
      ctx.allOf(std::vector<const Term *>{ctx.eq(g, c(1)), ctx.eq(b, x), ctx.eq(x, c(3))});
  EXPECT_EQ(solver.check(Contradiction).status, SolverResult::Proven);
  const Term *Possible =
      ctx.allOf(std::vector<const Term *>{ctx.eq(g, c(1)), ctx.eq(x, c(3)), ctx.le(b, x)});
  SolverResult R = solver.check(Possible);
  ASSERT_EQ(R.status, SolverResult::Violated) << R.reason;
  EXPECT_TRUE(solver.confirms(Possible, R));
}

// The coordinate a reversed K index reads, `(row*K + K-1-k) % K`, is
// nonlinear in the parameter K. Where Z3 gives up on such a query (in a
// kernel's full context, under load), the solver retries with every scalar
// parameter pinned to a witness value: a counterexample found that way is a
// model of the query itself and re-evaluates, and the correct index is never
// reported violated by a pin. (Standalone, Z3 decides these quickly with or
// without the retry; check_mutants' reversed_k_index at 500 ms is where the
// retry and the two-pass budget made the difference.)
TEST_F(SolverTest, NonlinearViolationFoundWithParametersPinned) {
  const Term *K = ctx.symbol("K", SymbolKind::Param), *M = ctx.symbol("M", SymbolKind::Param);
  const Term *row = ctx.symbol("row"), *k = ctx.symbol("k");
  ObligationSolver solver(ctx, 400);
  solver.addFact(ctx.logicalAnd(ctx.le(c(0), row), ctx.lt(row, M)));
  solver.addFact(ctx.logicalAnd(ctx.le(c(0), k), ctx.lt(k, K)));
  solver.addFact(ctx.eq(ctx.rem(K, c(16)), c(0)));
  solver.addFact(ctx.eq(ctx.rem(M, c(16)), c(0)));
  solver.addFact(ctx.le(c(16), K));
  solver.addFact(ctx.le(c(16), M));
  const Term *index = ctx.add(ctx.mul(row, K), ctx.sub(ctx.sub(K, c(1)), k));
  const Term *coordinateK = ctx.rem(index, K);
  const Term *coordinateM = ctx.div(index, K);
  const Term *violation = ctx.logicalOr(ctx.ne(coordinateK, k), ctx.ne(coordinateM, row));
  SolverResult r = solver.check(violation, {coordinateK});
  ASSERT_EQ(r.status, SolverResult::Violated) << r.reason;
  EXPECT_TRUE(solver.confirms(violation, r));
  EXPECT_NE(r.model[print(coordinateK)], r.model["k"]);
  // The correct index proves (or stays unknown), never violated by a pin.
  const Term *straight = ctx.add(ctx.mul(row, K), k);
  SolverResult ok = solver.check(
      ctx.logicalOr(ctx.ne(ctx.rem(straight, K), k), ctx.ne(ctx.div(straight, K), row)));
  EXPECT_NE(ok.status, SolverResult::Violated) << ok.reason;
}

// Every question assumes C's arithmetic defined, so `row * K > INT_MAX` can
// never hold in one; overflows(row * K) asks it without that assumption, in
// both encodings, and a model of it survives re-evaluation.
TEST_F(SolverTest, OverflowOfAnIndexIsFoundAndConfirmed) {
  const Term *K = ctx.symbol("K", SymbolKind::Param), *row = ctx.symbol("row");
  const Term *product = ctx.mul(row, K);
  ObligationSolver solver(ctx, 5000);
  solver.addFact(ctx.logicalAnd(ctx.le(c(0), row), ctx.lt(row, c(65536))));
  solver.addFact(ctx.le(c(1), K));
  EXPECT_EQ(solver.check(ctx.gt(product, c(2147483647))).status, SolverResult::Proven);
  SolverResult r = solver.check(ctx.overflows(product), {product});
  ASSERT_EQ(r.status, SolverResult::Violated) << r.reason;
  EXPECT_TRUE(solver.confirms(ctx.overflows(product), r));
  // Bit-vectors (a bitwise operator in the question) find it too.
  const Term *masked = ctx.logicalAnd(ctx.overflows(product), ctx.eq(ctx.bitAnd(K, c(1)), c(1)));
  SolverResult bv = solver.check(masked);
  ASSERT_EQ(bv.status, SolverResult::Violated) << bv.reason;
  EXPECT_TRUE(solver.confirms(masked, bv));
  // Bounded sizes: nothing overflows, whether Z3 or the ranges decide it.
  ObligationSolver bounded(ctx, 5000);
  bounded.addFact(ctx.logicalAnd(ctx.le(c(0), row), ctx.lt(row, c(32768))));
  bounded.addFact(ctx.logicalAnd(ctx.le(c(1), K), ctx.le(K, c(32768))));
  EXPECT_EQ(bounded.check(ctx.overflows(product)).status, SolverResult::Proven);
  EXPECT_EQ(bounded.check(ctx.overflows(ctx.add(product, row))).status, SolverResult::Proven);
}

TEST(TermOverflows, EvaluatesTheOperatorNotItsOperands) {
  TermContext ctx;
  const Term *x = ctx.symbol("x"), *y = ctx.symbol("y");
  const Term *sum = ctx.add(ctx.mul(x, y), ctx.constant(1));
  Assignment big{{x, 65536}, {y, 32768}};
  Assignment small{{x, 3}, {y, 4}};
  EXPECT_EQ(evaluate(ctx.overflows(ctx.mul(x, y)), big), 1);
  EXPECT_EQ(evaluate(ctx.overflows(ctx.mul(x, y)), small), 0);
  // The sum's operand is already undefined: the question is the product's.
  EXPECT_EQ(evaluate(ctx.overflows(sum), big), std::nullopt);
  EXPECT_EQ(evaluate(ctx.overflows(sum), small), 0);
  EXPECT_EQ(evaluate(ctx.overflows(ctx.mul(x, y)), Assignment{{x, 1}}), std::nullopt);
  // A leaf or a constant never overflows; the printer names the question.
  EXPECT_TRUE(ctx.overflows(x)->isConstant(0));
  EXPECT_TRUE(ctx.overflows(ctx.constant(7))->isConstant(0));
  EXPECT_EQ(print(ctx.overflows(ctx.mul(x, y))), "overflows(x*y)");
  EXPECT_TRUE(ctx.overflows(ctx.mul(x, y))->isBoolean());
}

// The launch's `gridDim.y == M / 16` comes before the assumption `M <=
// 32768`: taken together, the ranges bound blockIdx.y by 2047 and M from
// below by 16 (gridDim.y >= 1), and the overflow question folds to 0 before
// Z3; without the bound on M it stays a question.
TEST(SolverRangeSimplification, OverflowFoldsWhereTheLaunchAndAssumptionsBoundTheSizes) {
  TermContext ctx;
  auto c = [&](int64_t v) { return ctx.constant(v); };
  const Term *M = ctx.symbol("M", SymbolKind::Param), *K = ctx.symbol("K", SymbolKind::Param);
  const Term *by = ctx.symbol("by", SymbolKind::BlockIdx, 1);
  const Term *gy = ctx.symbol("gy", SymbolKind::GridDim, 1);
  const Term *ty = ctx.symbol("ty", SymbolKind::ThreadIdx, 1);
  std::vector<const Term *> launch = {ctx.eq(gy, ctx.div(M, c(16))),
                                      ctx.ge(gy, c(1)),
                                      ctx.ge(by, c(0)),
                                      ctx.lt(by, gy),
                                      ctx.ge(ty, c(0)),
                                      ctx.lt(ty, c(16)),
                                      ctx.ge(K, c(1))};
  const Term *question = ctx.overflows(ctx.mul(ctx.add(ctx.mul(by, c(16)), ty), K));
  std::vector<const Term *> bounded = launch;
  bounded.push_back(ctx.le(M, c(32768)));
  bounded.push_back(ctx.le(K, c(32768)));
  RangeSimplifier ranges(ctx);
  ranges.addFacts(ctx.allOf(bounded));
  EXPECT_TRUE(ranges.simplify(question)->isConstant(0)) << print(ranges.simplify(question));
  EXPECT_EQ(ranges.interval(M)->lo, 16);
  RangeSimplifier open(ctx);
  open.addFacts(ctx.allOf(launch));
  EXPECT_FALSE(open.simplify(question)->isConstant());
}

// Attention's `b = blockIdx.y / H, h = blockIdx.y % H` indexes with
// `(b * H + h) * N`: the pair folds back to blockIdx.y where H >= 1, inside
// an overflow question as well, and then the launch's bounds decide the
// question without Z3. Where H may be 0 the pair stays (folding it would
// drop the question's `H != 0`), and so does a pair by another divisor.
TEST(SolverRangeSimplification, QuotientAndRemainderBySizeRecombine) {
  TermContext ctx;
  auto c = [&](int64_t v) { return ctx.constant(v); };
  const Term *B = ctx.symbol("B", SymbolKind::Param), *H = ctx.symbol("H", SymbolKind::Param);
  const Term *N = ctx.symbol("N", SymbolKind::Param), *W = ctx.symbol("W", SymbolKind::Param);
  const Term *by = ctx.symbol("by", SymbolKind::BlockIdx, 1);
  const Term *t = ctx.symbol("t", SymbolKind::ThreadIdx, 0);
  std::vector<const Term *> facts = {
      ctx.ge(by, c(0)), ctx.lt(by, ctx.mul(B, H)), ctx.ge(B, c(1)), ctx.le(B, c(16)),
      ctx.ge(N, c(1)),  ctx.le(N, c(16384)),       ctx.ge(t, c(0)), ctx.lt(t, c(64)),
      ctx.ge(W, c(1)),  ctx.le(W, c(64))};
  std::vector<const Term *> sized = facts;
  sized.push_back(ctx.ge(H, c(1)));
  sized.push_back(ctx.le(H, c(64)));
  const Term *b = ctx.div(by, H), *h = ctx.rem(by, H);
  const Term *joined = ctx.add(ctx.mul(b, H), h);
  const Term *row = ctx.add(ctx.mul(joined, N), t);
  const Term *question = ctx.overflows(ctx.mul(row, c(64)));

  RangeSimplifier ranges(ctx);
  ranges.addFacts(ctx.allOf(sized));
  EXPECT_EQ(ranges.simplify(joined), by);
  EXPECT_EQ(ranges.simplify(ctx.add(ctx.mul(ctx.mul(b, H), N), ctx.mul(h, N))), ctx.mul(by, N));
  EXPECT_TRUE(ranges.simplify(question)->isConstant(0)) << print(ranges.simplify(question));
  // Another divisor in the quotient: no pair.
  const Term *mixed = ctx.add(ctx.mul(ctx.div(by, W), H), h);
  EXPECT_EQ(ranges.simplify(mixed), mixed);

  RangeSimplifier open(ctx);
  open.addFacts(ctx.allOf(facts));
  EXPECT_EQ(open.simplify(joined), joined);
  EXPECT_FALSE(open.simplify(question)->isConstant());

  // The fold is an equivalence: the solver still finds the overflow at the
  // sizes where it happens.
  ObligationSolver solver(ctx, 10000);
  for (const Term *Fact : sized)
    solver.addFact(Fact);
  solver.addFact(ctx.le(N, c(16384)));
  EXPECT_EQ(solver.check(question).status, SolverResult::Proven);
  const Term *wide = ctx.overflows(ctx.mul(row, c(4096)));
  EXPECT_EQ(solver.check(wide).status, SolverResult::Violated);
}

// Kernels share warm Z3 contexts (Z3Pool.h): what one kernel asserted must
// be gone when the next one leases the same solvers.
TEST(SolverPool, AKernelsFactsDoNotReachTheNextKernel) {
  TermContext Terms;
  const Term *X = Terms.symbol("x", SymbolKind::Param);
  const Term *NotOne = Terms.logicalNot(Terms.eq(X, Terms.constant(1)));
  const Term *OddBitClear =
      Terms.eq(Terms.bitAnd(X, Terms.constant(1)), Terms.constant(0)); // bit-vector solver
  warmSolversInBackground();
  {
    ObligationSolver First(Terms, 5000);
    First.addFact(Terms.eq(X, Terms.constant(1)));
    EXPECT_EQ(First.check(NotOne).status, SolverResult::Proven);
    EXPECT_EQ(First.check(OddBitClear).status, SolverResult::Proven);
  }
  for (int Kernel = 0; Kernel < 3; ++Kernel) {
    ObligationSolver Next(Terms, 5000);
    EXPECT_EQ(Next.check(NotOne).status, SolverResult::Violated) << "kernel " << Kernel;
    EXPECT_EQ(Next.check(OddBitClear).status, SolverResult::Violated) << "kernel " << Kernel;
  }
}

TEST(SolverPool, KernelsAnalysedAtTheSameTimeHaveTheirOwnSolvers) {
  TermContext Terms;
  const Term *X = Terms.symbol("x", SymbolKind::Param);
  ObligationSolver One(Terms, 5000), Two(Terms, 5000);
  One.addFact(Terms.eq(X, Terms.constant(1)));
  Two.addFact(Terms.eq(X, Terms.constant(2)));
  EXPECT_EQ(One.check(Terms.eq(X, Terms.constant(2))).status, SolverResult::Proven);
  EXPECT_EQ(Two.check(Terms.eq(X, Terms.constant(1))).status, SolverResult::Proven);
  EXPECT_EQ(Two.check(Terms.eq(X, Terms.constant(2))).status, SolverResult::Violated);
}

// --timing's "solver" is every question, asked through any entry point.
TEST(SolverTiming, EveryQuestionCounts) {
  TermContext Terms;
  const Term *X = Terms.symbol("x", SymbolKind::Param);
  const Term *Y = Terms.symbol("y", SymbolKind::Param);
  ObligationSolver Solver(Terms, 5000);
  EXPECT_EQ(Solver.millisSpent(), 0);
  Solver.decide(Terms.lt(X, Y));
  double AfterDecide = Solver.millisSpent();
  EXPECT_GT(AfterDecide, 0);
  Solver.checkWithin(Terms.lt(Y, X), 100);
  double AfterCheckWithin = Solver.millisSpent();
  EXPECT_GT(AfterCheckWithin, AfterDecide);
  Solver.check(Terms.eq(X, Terms.mul(Y, Y)));
  EXPECT_GT(Solver.millisSpent(), AfterCheckWithin);
}

TEST(SolverRangeSimplification, RemainderOfShiftedRemainder) {
  // A pipelined loop's write stage one iteration back, ((t - 1) % 2 + 1) % 2,
  // is the read's t % 2 where t >= 1; not where t - 1 may be negative (C's
  // remainder takes the dividend's sign), nor with another divisor.
  TermContext ctx;
  auto c = [&](int64_t v) { return ctx.constant(v); };
  const Term *t = ctx.symbol("t", SymbolKind::LoopCounter);
  const Term *back = ctx.rem(ctx.add(ctx.rem(ctx.sub(t, c(1)), c(2)), c(1)), c(2));
  RangeSimplifier after(ctx);
  std::vector<const Term *> from1 = {ctx.ge(t, c(1)), ctx.lt(t, c(4096))};
  after.addFacts(ctx.allOf(from1));
  EXPECT_EQ(after.simplify(back), ctx.rem(t, c(2))) << print(after.simplify(back));
  RangeSimplifier anywhere(ctx);
  std::vector<const Term *> from0 = {ctx.ge(t, c(0)), ctx.lt(t, c(4096))};
  anywhere.addFacts(ctx.allOf(from0));
  EXPECT_NE(anywhere.simplify(back), ctx.rem(t, c(2))) << print(anywhere.simplify(back));
  const Term *other = ctx.rem(ctx.add(ctx.rem(ctx.sub(t, c(1)), c(3)), c(1)), c(2));
  EXPECT_NE(after.simplify(other), ctx.rem(t, c(2)));
}

TEST(SolverRangeSimplification, StageTermsThatCancelLeaveTheDividend) {
  // A double-buffered tile read at stage s % 2 whose writer was one
  // iteration back: the element `1024 * (s % 2) + x - 1024 * (((s - 1) % 2
  // + 1) % 2)` is x once the second stage is s % 2 again; the quotient by
  // 128 of that sum is x / 128 (it stayed a quotient of a sum that spans
  // both signs, which Z3 then had to split, and the pipelined grouped MoE
  // timed out).
  TermContext ctx;
  auto c = [&](int64_t v) { return ctx.constant(v); };
  const Term *s = ctx.symbol("s", SymbolKind::LoopCounter);
  const Term *x = ctx.symbol("x", SymbolKind::Fresh);
  const Term *back = ctx.rem(ctx.add(ctx.rem(ctx.sub(s, c(1)), c(2)), c(1)), c(2));
  const Term *element =
      ctx.add(ctx.mul(ctx.rem(s, c(2)), c(1024)), ctx.add(x, ctx.mul(back, c(-1024))));
  RangeSimplifier ranges(ctx);
  std::vector<const Term *> facts = {ctx.ge(s, c(1)), ctx.lt(s, c(4096)), ctx.ge(x, c(0)),
                                     ctx.lt(x, c(1024))};
  ranges.addFacts(ctx.allOf(facts));
  const Term *quotient = ranges.simplify(ctx.div(element, c(128)));
  EXPECT_EQ(quotient, ctx.div(x, c(128))) << print(quotient);
}

TEST(SolverRangeSimplification, ConstantQuotientRemainderInASum) {
  // A staged store's address `1024*s + (e/16)*16 + e%16` is `1024*s + e`;
  // a symbolic divisor is left alone (it needs facts: RangeSimplifier).
  TermContext ctx;
  auto c = [&](int64_t v) { return ctx.constant(v); };
  const Term *s = ctx.symbol("s", SymbolKind::LoopCounter);
  const Term *e = ctx.symbol("e", SymbolKind::Fresh);
  const Term *d = ctx.symbol("D", SymbolKind::Param);
  const Term *address =
      ctx.add(ctx.add(ctx.mul(s, c(1024)), ctx.mul(ctx.div(e, c(16)), c(16))), ctx.rem(e, c(16)));
  EXPECT_EQ(foldConstantQuotientRemainder(ctx, address), ctx.add(ctx.mul(s, c(1024)), e))
      << print(foldConstantQuotientRemainder(ctx, address));
  const Term *symbolic =
      ctx.add(ctx.add(ctx.mul(s, c(1024)), ctx.mul(ctx.div(e, d), d)), ctx.rem(e, d));
  EXPECT_EQ(foldConstantQuotientRemainder(ctx, symbolic), symbolic);
}

// A tile stored transposed, As[4 * (t % 2) + q][t / 2], read back at
// As[k][m] (flattened 128 * k + m): its writer's lane and thread digit are
// `(128*k + m) % 512 / 128` and `(128*k + m) / 512`. With k < 8 and m < 128
// the quotient by 512 is the quotient of k by 4, and the remainder is
// 128 * (k % 4) + m; both keep the value at every point of the box.
TEST(SolverRangeSimplification, QuotientByAMultipleOfTheLowerDigit) {
  TermContext Terms;
  RangeSimplifier Ranges(Terms);
  const Term *K = Terms.symbol("k", SymbolKind::LoopCounter);
  const Term *M = Terms.symbol("m", SymbolKind::Fresh);
  Ranges.addFacts(Terms.logicalAnd(Terms.ge(K, Terms.constant(0)), Terms.lt(K, Terms.constant(8))));
  Ranges.addFacts(
      Terms.logicalAnd(Terms.ge(M, Terms.constant(0)), Terms.lt(M, Terms.constant(128))));
  const Term *Flat = Terms.add(Terms.mul(Terms.constant(128), K), M);
  const Term *Quotient = Terms.div(Flat, Terms.constant(512));
  const Term *Remainder = Terms.rem(Flat, Terms.constant(512));
  EXPECT_EQ(print(Ranges.simplify(Quotient)), print(Terms.div(K, Terms.constant(4))));
  EXPECT_EQ(print(Ranges.simplify(Remainder)),
            print(Terms.add(Terms.mul(Terms.constant(128), Terms.rem(K, Terms.constant(4))), M)));
  for (int64_t KV = 0; KV < 8; ++KV)
    for (int64_t MV = 0; MV < 128; MV += 9)
      for (const Term *Asked : {Quotient, Remainder})
        EXPECT_EQ(evaluate(Asked, {{K, KV}, {M, MV}}),
                  evaluate(Ranges.simplify(Asked), {{K, KV}, {M, MV}}))
            << "k=" << KV << " m=" << MV;
  // A rest that may reach the lower digit (m < 256) keeps the division.
  RangeSimplifier Wide(Terms);
  Wide.addFacts(Terms.logicalAnd(Terms.ge(K, Terms.constant(0)), Terms.lt(K, Terms.constant(8))));
  Wide.addFacts(Terms.logicalAnd(Terms.ge(M, Terms.constant(0)), Terms.lt(M, Terms.constant(256))));
  EXPECT_EQ(Wide.simplify(Quotient), Quotient);
}

} // namespace ave::inv
