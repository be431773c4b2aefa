#include "ave/invariants/ModelSearch.h"

#include "ave/invariants/Counterexample.h"

#include <gtest/gtest.h>

namespace ave::inv {
namespace {

// The launch and sizes of a 16x16-tiled kernel, and the symbols that the
// interpretation's questions are asked about: two iterations of a tile
// loop, a thread, an inner counter.
class ModelSearchTest : public ::testing::Test {
protected:
  TermContext ctx;
  const Term *c(int64_t v) { return ctx.constant(v); }

  const Term *K = ctx.symbol("K", SymbolKind::Param), *N = ctx.symbol("N", SymbolKind::Param);
  const Term *bdim = ctx.symbol("blockDim.x", SymbolKind::BlockDim, 0);
  const Term *gdim = ctx.symbol("gridDim.x", SymbolKind::GridDim, 0);
  const Term *bx = ctx.symbol("blockIdx.x", SymbolKind::BlockIdx, 0);
  const Term *tx = ctx.symbol("threadIdx.x", SymbolKind::ThreadIdx, 0);
  const Term *t1 = ctx.symbol("t'1", SymbolKind::LoopCounter);
  const Term *t2 = ctx.symbol("t'2", SymbolKind::LoopCounter);
  const Term *k = ctx.symbol("k", SymbolKind::LoopCounter);
  std::vector<const Term *> facts{
      ctx.eq(bdim, c(16)),
      ctx.eq(ctx.div(N, c(16)), gdim),
      ctx.ge(gdim, c(1)),
      ctx.le(c(0), tx),
      ctx.lt(tx, bdim),
      ctx.le(c(0), bx),
      ctx.lt(bx, gdim),
      ctx.eq(ctx.rem(K, c(16)), c(0)),
      ctx.eq(ctx.rem(N, c(16)), c(0)),
      ctx.ge(K, c(16)),
      ctx.le(K, c(32768)),
      ctx.le(N, c(32768)),
  };
  const Term *all(std::vector<const Term *> Parts) { return ctx.allOf(Parts); }
  // t in [0, K / 16)
  const Term *tileRange(const Term *T) {
    return ctx.logicalAnd(ctx.ge(T, c(0)), ctx.lt(T, ctx.div(K, c(16))));
  }
  // Found, and confirmed with C semantics against facts and question.
  void expectFound(const Term *Question) {
    std::optional<Assignment> Model = searchModel(Question, facts);
    ASSERT_TRUE(Model.has_value()) << print(Question);
    CounterexampleCheck Check = confirmCounterexample(Question, facts, *Model);
    EXPECT_TRUE(Check.confirmed) << Check.reason;
  }
};

TEST_F(ModelSearchTest, TwoIterationsThatDifferAreFound) {
  // "Can t*16 + k differ between two iterations of t?": copies of the
  // counter in range, a value that tells them apart.
  expectFound(all({tileRange(t1), tileRange(t2), ctx.ge(k, c(0)), ctx.lt(k, c(16)),
                   ctx.ne(ctx.add(ctx.mul(t1, c(16)), k), ctx.add(ctx.mul(t2, c(16)), k))}));
}

TEST_F(ModelSearchTest, GridSizedByParameterAndBlockBelowIt) {
  // blockIdx.x*16 + threadIdx.x in [N - 16, N): the last block, which only
  // the order parameter -> grid -> block index reaches by picking.
  const Term *col = ctx.add(ctx.mul(bx, c(16)), tx);
  expectFound(ctx.logicalAnd(ctx.ge(col, ctx.sub(N, c(16))), ctx.lt(col, N)));
}

TEST_F(ModelSearchTest, ParityAndResidueAskedOfACounter) {
  // `t % 2 * 16 + tx < 16` holds for even t only; `(t*16 + tx - k) % 64 ==
  // 0` fixes k modulo 64 once t and tx have values.
  const Term *buffer = ctx.add(ctx.mul(ctx.rem(t1, c(2)), c(16)), tx);
  const Term *residue = ctx.eq(ctx.rem(ctx.sub(ctx.add(ctx.mul(t1, c(16)), tx), k), c(64)), c(0));
  expectFound(all({tileRange(t1), ctx.ge(t1, c(1)), ctx.lt(buffer, c(16)), ctx.ge(k, c(0)),
                   ctx.lt(k, c(4096)), residue}));
}

TEST_F(ModelSearchTest, UnsatisfiableQuestionsAreNeverFound) {
  // The wrong twins: each has no solution, so nothing may be returned.
  const Term *col = ctx.add(ctx.mul(bx, c(16)), tx);
  EXPECT_FALSE(searchModel(ctx.ge(col, ctx.mul(gdim, c(16))), facts, 64));
  EXPECT_FALSE(
      searchModel(ctx.logicalAnd(tileRange(t1), ctx.ge(ctx.mul(t1, c(16)), K)), facts, 64));
  EXPECT_FALSE(searchModel(ctx.ne(ctx.rem(K, c(8)), c(0)), facts, 64));
  // Overflow is no solution: N * N * N does not fit in an int for N >= 2048.
  EXPECT_FALSE(searchModel(
      ctx.logicalAnd(ctx.ge(N, c(2048)), ctx.gt(ctx.mul(ctx.mul(N, N), N), c(0))), facts, 64));
}

TEST_F(ModelSearchTest, MemoryReadsAreLeftToTheSolver) {
  // tok(r) == 3 has solutions, but a value per argument tuple is not
  // chosen here.
  const Term *r = ctx.symbol("r", SymbolKind::LoopCounter);
  EXPECT_FALSE(searchModel(ctx.eq(ctx.apply("tok", {r}), c(3)), facts));
}

TEST_F(ModelSearchTest, SameQuestionSamePicks) {
  const Term *Q = all({tileRange(t1), tileRange(t2), ctx.ne(t1, t2)});
  std::optional<Assignment> A = searchModel(Q, facts), B = searchModel(Q, facts);
  ASSERT_TRUE(A && B);
  EXPECT_EQ(*A, *B);
}

} // namespace
} // namespace ave::inv
