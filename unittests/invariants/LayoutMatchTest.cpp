#include "ave/invariants/LayoutMatch.h"

#include <gtest/gtest.h>

namespace ave::inv {
namespace {

class LayoutMatchTest : public ::testing::Test {
protected:
  TermContext ctx;
  LayoutMatcher matcher{ctx};
  const Term *c(int64_t v) { return ctx.constant(v); }
  const Term *param(const char *name) { return ctx.symbol(name, SymbolKind::Param); }
  const Term *coord(const char *name) { return ctx.symbol(name, SymbolKind::Coordinate); }
  const Term *add(const Term *x, const Term *y) { return ctx.add(x, y); }
  const Term *mul(const Term *x, const Term *y) { return ctx.mul(x, y); }

  const Term *M = param("M"), *N = param("N"), *K = param("K"), *lda = param("lda");
  const Term *m = coord("m"), *n = coord("n"), *k = coord("k"), *b = coord("b");
  const Term *tx = ctx.symbol("tx", SymbolKind::ThreadIdx, 0);
  const Term *ty = ctx.symbol("ty", SymbolKind::ThreadIdx, 1);
  const Term *bx = ctx.symbol("bx", SymbolKind::BlockIdx, 0);
  const Term *by = ctx.symbol("by", SymbolKind::BlockIdx, 1);
  const Term *k0 = ctx.symbol("k0", SymbolKind::LoopCounter);
  const Term *row = add(mul(by, c(16)), ty);
  const Term *col = add(mul(bx, c(16)), tx);

  std::vector<std::string> printed(const std::vector<const Term *> &terms) {
    std::vector<std::string> out;
    for (const Term *t : terms)
      out.push_back(print(t));
    return out;
  }
};

TEST_F(LayoutMatchTest, RowMajorWithLeadingDimensionK) {
  TagLayout A{{{m, M}, {k, K}}, add(mul(m, K), k)};
  LayoutMatchResult r = matcher.match(A, add(add(mul(row, K), k0), tx));
  ASSERT_TRUE(r.matched) << r.reason;
  EXPECT_EQ(r.coordinates[m], row);
  EXPECT_EQ(r.coordinates[k], add(k0, tx));
  EXPECT_EQ(print(r.coordinates[m]), "by*16 + ty");
  std::vector<std::string> expected{"0 <= by*16 + ty", "by*16 + ty < M", "0 <= tx + k0",
                                    "tx + k0 < K"};
  EXPECT_EQ(printed(r.sideConditions), expected);
}

TEST_F(LayoutMatchTest, ConstantMultiplesOfAStrideCanStayLow) {
  // `row*K + K - 1`: coefficient matching reads m = row + 1, k = -1; the
  // retry leaves K to k (m = row, k = K - 1). A multiple of K with a
  // coordinate factor (row*K) is still m's.
  TagLayout A{{{m, M}, {k, K}}, add(mul(m, K), k)};
  const Term *index = add(add(mul(row, K), K), c(-1));
  LayoutMatchResult high = matcher.match(A, index);
  ASSERT_TRUE(high.matched) << high.reason;
  EXPECT_EQ(print(high.coordinates[m]), "by*16 + ty + 1");
  EXPECT_EQ(print(high.coordinates[k]), "-1");
  LayoutMatchResult low = matcher.match(A, index, LayoutMatchStrategy::CoefficientsLowConstants);
  ASSERT_TRUE(low.matched) << low.reason;
  EXPECT_EQ(print(low.coordinates[m]), "by*16 + ty");
  EXPECT_EQ(print(low.coordinates[k]), "K - 1");
  // A constant stride is unaffected: 64 is a multiple of 64 either way.
  TagLayout Tile{{{m, c(16)}, {k, c(64)}}, add(mul(m, c(64)), k)};
  LayoutMatchResult tile = matcher.match(Tile, add(mul(ty, c(64)), add(tx, c(64))),
                                         LayoutMatchStrategy::CoefficientsLowConstants);
  ASSERT_TRUE(tile.matched) << tile.reason;
  EXPECT_EQ(print(tile.coordinates[m]), "ty + 1");
}

TEST_F(LayoutMatchTest, ExplicitLeadingDimension) {
  TagLayout A{{{m, M}, {k, K}}, add(mul(m, lda), k)};
  LayoutMatchResult r = matcher.match(A, add(mul(row, lda), add(k0, tx)));
  ASSERT_TRUE(r.matched) << r.reason;
  EXPECT_EQ(r.coordinates[m], row);
  EXPECT_EQ(r.coordinates[k], add(k0, tx));
  // The same index with K instead of lda has no lda-stride part.
  LayoutMatchResult wrong = matcher.match(A, add(mul(row, K), add(k0, tx)));
  EXPECT_FALSE(wrong.matched);
  EXPECT_EQ(wrong.reason, "index term has no lda-stride part (coordinate m)");
}

TEST_F(LayoutMatchTest, BRowMajorKByN) {
  TagLayout B{{{k, K}, {n, N}}, add(mul(k, N), n)};
  LayoutMatchResult r = matcher.match(B, add(mul(add(k0, ty), N), col));
  ASSERT_TRUE(r.matched) << r.reason;
  EXPECT_EQ(r.coordinates[k], add(k0, ty));
  EXPECT_EQ(r.coordinates[n], col);
}

TEST_F(LayoutMatchTest, DefaultRowMajorOverBounds) {
  const Term *R = param("R"), *C = param("C"), *r = coord("r"), *cc = coord("c");
  TagLayout X{{{r, R}, {cc, C}}, nullptr};
  EXPECT_EQ(matcher.addressOf(X), add(mul(r, C), cc));
  LayoutMatchResult res = matcher.match(X, add(mul(ty, C), tx));
  ASSERT_TRUE(res.matched) << res.reason;
  EXPECT_EQ(res.coordinates[r], ty);
  EXPECT_EQ(res.coordinates[cc], tx);
  // The transposed declaration of the same tag on the output.
  TagLayout Xt{{{cc, C}, {r, R}}, add(mul(cc, R), r)};
  LayoutMatchResult t = matcher.match(Xt, add(mul(tx, R), ty));
  ASSERT_TRUE(t.matched) << t.reason;
  EXPECT_EQ(t.coordinates[r], ty);
  EXPECT_EQ(t.coordinates[cc], tx);
}

TEST_F(LayoutMatchTest, ThreeDimensionalBatch) {
  const Term *B = param("B");
  TagLayout A3{{{b, B}, {m, M}, {k, K}}, add(add(mul(mul(b, M), K), mul(m, K)), k)};
  const Term *bz = ctx.symbol("bz", SymbolKind::BlockIdx, 2);
  // (bz*M + row)*K + k0 + tx
  LayoutMatchResult r = matcher.match(A3, add(mul(add(mul(bz, M), row), K), add(k0, tx)));
  ASSERT_TRUE(r.matched) << r.reason;
  EXPECT_EQ(r.coordinates[b], bz);
  EXPECT_EQ(r.coordinates[m], row);
  EXPECT_EQ(r.coordinates[k], add(k0, tx));
  EXPECT_EQ(r.sideConditions.size(), 6u);
}

TEST_F(LayoutMatchTest, ConstantStrideByCoefficients) {
  TagLayout S{{{m, c(64)}, {k, c(64)}}, add(mul(m, c(64)), k)};
  LayoutMatchResult r = matcher.match(S, add(mul(ty, c(64)), tx));
  ASSERT_TRUE(r.matched) << r.reason;
  EXPECT_EQ(r.coordinates[m], ty);
  EXPECT_EQ(r.coordinates[k], tx);
  std::vector<std::string> expected{"0 <= ty", "ty < 64", "0 <= tx", "tx < 64"};
  EXPECT_EQ(printed(r.sideConditions), expected);
  // A carry across the stride: coefficients give k = tx + 1, whose side
  // condition fails for tx = 63 ...
  LayoutMatchResult carry = matcher.match(S, add(add(mul(ty, c(64)), tx), c(1)));
  ASSERT_TRUE(carry.matched);
  EXPECT_EQ(carry.coordinates[k], add(tx, c(1)));
  // ... so the caller retries by division, which is right for every index.
  LayoutMatchResult divided =
      matcher.match(S, add(add(mul(ty, c(64)), tx), c(1)), LayoutMatchStrategy::Division);
  ASSERT_TRUE(divided.matched) << divided.reason;
  EXPECT_EQ(print(divided.coordinates[m]), "(ty*64 + tx + 1) / 64");
  EXPECT_EQ(print(divided.coordinates[k]), "(ty*64 + tx + 1) % 64");
  EXPECT_EQ(printed(divided.sideConditions)[0], "0 <= ty*64 + tx + 1");
  Assignment at{{ty, 2}, {tx, 63}};
  EXPECT_EQ(evaluate(divided.coordinates[m], at), 3);
  EXPECT_EQ(evaluate(divided.coordinates[k], at), 0);
}

TEST_F(LayoutMatchTest, DivisionWithSymbolicStride) {
  TagLayout A{{{m, M}, {k, K}}, add(mul(m, K), k)};
  const Term *flat = ctx.symbol("i");
  LayoutMatchResult r = matcher.match(A, flat, LayoutMatchStrategy::Division);
  ASSERT_TRUE(r.matched) << r.reason;
  EXPECT_EQ(print(r.coordinates[m]), "i / K");
  EXPECT_EQ(print(r.coordinates[k]), "i % K");
  // Coefficient matching cannot see a row in a flat index.
  LayoutMatchResult flatCoefficients = matcher.match(A, flat);
  EXPECT_FALSE(flatCoefficients.matched);
  EXPECT_EQ(flatCoefficients.reason, "index term has no K-stride part (coordinate m)");
}

TEST_F(LayoutMatchTest, GatherThroughIndexReadFromMemory) {
  // X[tok[r]*K + k]: the row coordinate is the uninterpreted tok(r).
  TagLayout X{{{m, M}, {k, K}}, add(mul(m, K), k)};
  const Term *tok = ctx.apply("tok", {ctx.symbol("r")});
  LayoutMatchResult r = matcher.match(X, add(mul(tok, K), tx));
  ASSERT_TRUE(r.matched) << r.reason;
  EXPECT_EQ(r.coordinates[m], tok);
  EXPECT_EQ(r.coordinates[k], tx);
}

TEST_F(LayoutMatchTest, OffsetsAndCarriedRows) {
  const Term *off = param("off");
  TagLayout A{{{m, M}, {k, K}}, add(add(mul(m, K), k), off)};
  LayoutMatchResult r = matcher.match(A, add(add(mul(row, K), tx), off));
  ASSERT_TRUE(r.matched) << r.reason;
  EXPECT_EQ(r.coordinates[m], row);
  EXPECT_EQ(r.coordinates[k], tx);
  // A whole extra K in the index is one more row.
  TagLayout plain{{{m, M}, {k, K}}, add(mul(m, K), k)};
  LayoutMatchResult next = matcher.match(plain, add(mul(add(row, c(1)), K), tx));
  ASSERT_TRUE(next.matched) << next.reason;
  EXPECT_EQ(next.coordinates[m], add(row, c(1)));
}

TEST_F(LayoutMatchTest, FailureReasonsForBadLayouts) {
  LayoutMatchResult nonlinear = matcher.match(TagLayout{{{m, M}, {k, K}}, mul(m, k)}, tx);
  EXPECT_FALSE(nonlinear.matched);
  EXPECT_EQ(nonlinear.reason, "layout is not linear in its coordinates: it has the term m*k");

  LayoutMatchResult missing = matcher.match(TagLayout{{{m, M}, {k, K}}, mul(m, K)}, tx);
  EXPECT_FALSE(missing.matched);
  EXPECT_EQ(missing.reason, "coordinate k does not occur in the layout");

  LayoutMatchResult padded =
      matcher.match(TagLayout{{{m, M}, {k, K}}, add(mul(m, add(K, c(1))), k)}, tx);
  EXPECT_FALSE(padded.matched);
  EXPECT_EQ(padded.reason, "stride of m is not a single product: K + 1");

  LayoutMatchResult unordered =
      matcher.match(TagLayout{{{m, M}, {n, N}}, add(mul(m, K), mul(n, N))}, tx);
  EXPECT_FALSE(unordered.matched);
  EXPECT_NE(unordered.reason.find("are not ordered"), std::string::npos) << unordered.reason;

  LayoutMatchResult same = matcher.match(TagLayout{{{m, M}, {k, K}}, add(m, k)}, tx);
  EXPECT_FALSE(same.matched);
  EXPECT_EQ(same.reason, "coordinates m and k have the same stride 1");

  // Interleaved layout (stride 2) with an odd index.
  LayoutMatchResult odd =
      matcher.match(TagLayout{{{m, M}, {k, K}}, add(mul(mul(m, K), c(2)), mul(k, c(2)))},
                    add(mul(mul(ty, K), c(2)), add(mul(tx, c(2)), c(1))));
  EXPECT_FALSE(odd.matched);
  EXPECT_EQ(odd.reason, "index part 1 is not a multiple of the smallest stride 2");
}

TEST_F(LayoutMatchTest, DecompositionIsCachedPerLayout) {
  TagLayout A{{{m, M}, {k, K}}, add(mul(m, K), k)};
  TagLayout B{{{k, K}, {n, N}}, add(mul(k, N), n)};
  for (int i = 0; i < 10; ++i) {
    EXPECT_TRUE(matcher.match(A, add(mul(row, K), tx)).matched);
    EXPECT_TRUE(matcher.match(B, add(mul(ty, N), col)).matched);
  }
  EXPECT_EQ(matcher.cachedLayouts(), 2u);
  // Repeated matches of one index build no new terms.
  size_t terms = ctx.size();
  matcher.match(A, add(mul(row, K), tx));
  EXPECT_EQ(ctx.size(), terms);
}

} // namespace
} // namespace ave::inv
