// Index arrays (routing and gather indices: `tok[r]`, `ex[r]`): reads are
// uninterpreted functions of their index, a coordinate they select is not a
// free one, `bounded`/`permutation` assumptions give them ranges and an
// inverse, and a reduction over an empty range is its exact cover. Each
// test runs the whole analysis on a kernel and asserts the status of the
// obligations it names.

#include "ObligationOutcomes.h"

namespace ave::inv {
namespace {

using test::analyse;
using test::describeAll;
using test::fill;
using test::Outcome;
using test::statuses;

// Top-1 MoE expert GEMM: routed row r gathers token tok[r], multiplies by
// expert ex[r]'s weights, stores to token tok[r]'s row. @ROW@, @EXPERT@
// and @FACTS@ are what the tests vary.
std::string moe(const std::string &Row, const std::string &Expert, const std::string &Facts) {
  std::string K = R"cu(
__global__ void moe(const float *X AVE_TAG("X(t < T, k < Kd) = t * Kd + k"),
                    const float *W AVE_TAG("W(x < E, k < Kd, n < N) = (x * Kd + k) * N + n"),
                    float *Y AVE_TAG("Y(t < T, n < N) = t * N + n"),
                    const int *tok, const int *ex, int R, int T, int E, int Kd, int N) {
#pragma ave launch block(16, 16) grid(N / 16, R / 16)
#pragma ave assume R % 16 == 0 && N % 16 == 0 && R == T && N <= 4096 && Kd <= 4096 && T <= 65536 && E <= 64
#pragma ave assume @FACTS@
  int r = blockIdx.y * 16 + threadIdx.y;
  int n = blockIdx.x * 16 + threadIdx.x;
  int t = tok[r];
  int e = @EXPERT@;
  float acc = 0.0f;
  for (int k = 0; k < Kd; ++k) {
#pragma ave assert tag(W[(e * Kd + k) * N + n]).x == ex[r]
    acc += X[t * Kd + k] * W[(e * Kd + k) * N + n];
  }
  Y[@ROW@ * N + n] = acc;
}
)cu";
  return fill(K, {{"@ROW@", Row}, {"@EXPERT@", Expert}, {"@FACTS@", Facts}});
}

const char *const Facts = "permutation(tok, T) && bounded(ex, R, E)";

TEST(IndexArrays, RoutedGemmProvesWithItsFacts) {
  std::vector<Outcome> All = analyse(moe("t", "ex[r]", Facts));
  for (const Outcome &O : All)
    EXPECT_EQ(O.status, SolverResult::Proven) << describeAll(All);
  // The assertion reads ex[r] as the same value the kernel read.
  EXPECT_EQ(statuses(All, ObligationKind::Assertion), "P");
  // The expert is selected at the row stored, not left unreduced.
  EXPECT_EQ(statuses(All, ObligationKind::StoreCoordinates), "PPP") << describeAll(All);
  // The scatter through a permutation covers Y.
  EXPECT_EQ(statuses(All, ObligationKind::OutputWritten), "P");
}

TEST(IndexArrays, ExpertOfAnotherRowIsAMismatch) {
  std::vector<Outcome> All = analyse(moe("t", "ex[r + 1 < R ? r + 1 : 0]", Facts));
  EXPECT_EQ(statuses(All, ObligationKind::Assertion), "V") << describeAll(All);
  EXPECT_EQ(statuses(All, ObligationKind::StoreCoordinates), "PPV") << describeAll(All);
}

TEST(IndexArrays, ExpertPerBlockIsUnprovenNotViolated) {
  // ex[blockIdx.y]: the block's expert for each of its 16 rows. Right when
  // the router groups rows by block, which the analysis cannot see.
  std::vector<Outcome> All = analyse(moe("t", "ex[blockIdx.y]", Facts));
  EXPECT_EQ(statuses(All, ObligationKind::StoreCoordinates), "PPU") << describeAll(All);
}

// `blockwise(ex, R, G)`: a router that pads each expert's rows to whole
// blocks of G, so a block of rows may read its expert once.
const char *const Padded = "permutation(tok, T) && bounded(ex, R, E) && blockwise(ex, R, 16)";

TEST(IndexArrays, BlockwiseExpertReadAtTheBlocksFirstRowProves) {
  std::vector<Outcome> All = analyse(moe("t", "ex[blockIdx.y * 16]", Padded));
  for (const Outcome &O : All)
    EXPECT_EQ(O.status, SolverResult::Proven) << describeAll(All);
  EXPECT_EQ(statuses(All, ObligationKind::Assertion), "P");
  EXPECT_EQ(statuses(All, ObligationKind::StoreCoordinates), "PPP") << describeAll(All);
}

TEST(IndexArrays, BlockwiseReadAnywhereInTheGroupProves) {
  // The last row of the block is in the same group of 16 as every row.
  std::vector<Outcome> All = analyse(moe("t", "ex[blockIdx.y * 16 + 15]", Padded));
  EXPECT_EQ(statuses(All, ObligationKind::Assertion), "P") << describeAll(All);
  EXPECT_EQ(statuses(All, ObligationKind::StoreCoordinates), "PPP") << describeAll(All);
}

TEST(IndexArrays, BlockwiseGroupSmallerThanTheBlockIsAMismatch) {
  // Groups of 8: rows 8..15 of a block may belong to another expert than
  // row 0.
  std::vector<Outcome> All =
      analyse(moe("t", "ex[blockIdx.y * 16]",
                  "permutation(tok, T) && bounded(ex, R, E) && blockwise(ex, R, 8)"));
  EXPECT_EQ(statuses(All, ObligationKind::Assertion), "V") << describeAll(All);
  EXPECT_EQ(statuses(All, ObligationKind::StoreCoordinates), "PPV") << describeAll(All);
}

TEST(IndexArrays, BlockwiseReadOfTheNextBlockIsAMismatch) {
  std::vector<Outcome> All =
      analyse(moe("t", "ex[blockIdx.y * 16 + 16 < R ? blockIdx.y * 16 + 16 : 0]", Padded));
  EXPECT_EQ(statuses(All, ObligationKind::Assertion), "V") << describeAll(All);
  EXPECT_EQ(statuses(All, ObligationKind::StoreCoordinates), "PPV") << describeAll(All);
}

TEST(IndexArrays, BlockwiseWithASymbolicGroupIsNotUsed) {
  // A group the analysis cannot hold constant: the fact is dropped with a
  // note, and the per-block read is unproven again, not proven.
  std::vector<Outcome> All =
      analyse(moe("t", "ex[blockIdx.y * 16]",
                  "permutation(tok, T) && bounded(ex, R, E) && blockwise(ex, R, N)"));
  EXPECT_EQ(statuses(All, ObligationKind::StoreCoordinates), "PPU") << describeAll(All);
}

TEST(IndexArrays, BlockwiseContradictingAPermutationIsNotUsed) {
  // blockwise(tok, T, 16) and permutation(tok, T) cannot both hold: taking
  // both would make every obligation vacuously true.
  std::vector<Outcome> All = analyse(
      moe("r", "ex[r]", "permutation(tok, T) && bounded(ex, R, E) && blockwise(tok, T, 16)"));
  EXPECT_NE(statuses(All, ObligationKind::StoreCoordinates).find('V'), std::string::npos)
      << describeAll(All);
  // In either order.
  All = analyse(
      moe("r", "ex[r]", "blockwise(tok, T, 16) && permutation(tok, T) && bounded(ex, R, E)"));
  EXPECT_NE(statuses(All, ObligationKind::StoreCoordinates).find('V'), std::string::npos)
      << describeAll(All);
}

TEST(IndexArrays, WhichFunctionOfTheRowsRoutingIsForTheAssertion) {
  // ex[r] + 1 is selected by row r's routing (the implicit check holds);
  // the assertion says the expert is ex[r] itself.
  std::vector<Outcome> All = analyse(moe("t", "ex[r] + 1 < E ? ex[r] + 1 : 0", Facts));
  EXPECT_EQ(statuses(All, ObligationKind::StoreCoordinates), "PPP") << describeAll(All);
  EXPECT_EQ(statuses(All, ObligationKind::Assertion), "V") << describeAll(All);
}

TEST(IndexArrays, UnreducedNameIsStillAMissingReduction) {
  // No routing in the destination: a leftover k is a missing reduction.
  std::vector<Outcome> All = analyse(R"cu(
__global__ void k(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                  float *S AVE_TAG("S(m < M) = m"), const int *pick, int M, int K) {
#pragma ave launch block(64) grid(M / 64)
#pragma ave assume M % 64 == 0 && M <= 4096 && K <= 4096 && K >= 1 && bounded(pick, M, K)
  int m = blockIdx.x * 64 + threadIdx.x;
  S[m] = A[m * K + pick[m]] + A[m * K];
}
)cu");
  EXPECT_NE(statuses(All, ObligationKind::StoreCoordinates).find('V'), std::string::npos)
      << describeAll(All);
}

TEST(IndexArrays, ScatterThroughTheRowInsteadOfTheTokenIsAMismatch) {
  std::vector<Outcome> All = analyse(moe("r", "ex[r]", Facts));
  EXPECT_NE(statuses(All, ObligationKind::StoreCoordinates).find('V'), std::string::npos)
      << describeAll(All);
}

TEST(IndexArrays, WithoutFactsReadsAreUnboundedAndTheScatterUnsolved) {
  std::vector<Outcome> All = analyse(moe("t", "ex[r]", "E >= 1"));
  EXPECT_NE(statuses(All, ObligationKind::InBounds).find('V'), std::string::npos)
      << describeAll(All);
  EXPECT_EQ(statuses(All, ObligationKind::OutputWritten), "U") << describeAll(All);
}

TEST(IndexArrays, BoundedIsNotOneToOne) {
  // Rows may share a token: the scatter's writer is not solved.
  std::vector<Outcome> All = analyse(moe("t", "ex[r]", "bounded(tok, R, T) && bounded(ex, R, E)"));
  EXPECT_EQ(statuses(All, ObligationKind::InBounds), "PPP") << describeAll(All);
  EXPECT_EQ(statuses(All, ObligationKind::OutputWritten), "U") << describeAll(All);
}

TEST(IndexArrays, EqualIndicesReadEqualValues) {
  std::vector<Outcome> All = analyse(R"cu(
__global__ void k(const float *X AVE_TAG("X(i < N)"), float *Y AVE_TAG("Y(i < N)"),
                  const int *idx, int N) {
#pragma ave launch block(64) grid(N / 64)
#pragma ave assume N % 64 == 0 && N <= 65536
  int i = blockIdx.x * 64 + threadIdx.x;
  int a = idx[i];
  const int *p = idx + blockIdx.x * 64;
#pragma ave assert a == p[threadIdx.x] && a == idx[i]
#pragma ave assert a == idx[i + 1]
  Y[i] = X[i];
}
)cu");
  EXPECT_EQ(statuses(All, ObligationKind::Assertion), "PV") << describeAll(All);
}

TEST(IndexArrays, ReadKeptInAPrivateArrayKeepsItsFacts) {
  // off[l] holds a gathered row's offset, written in one loop over l and
  // read in another: the read substituted to the second loop's counter is
  // in bounds by the permutation's facts (it was reported out of bounds,
  // with tok = -1, before the facts followed the term).
  std::vector<Outcome> All = analyse(R"cu(
__global__ void k(const float *X AVE_TAG("X(t < T, k < K) = t * K + k"),
                  float *Y AVE_TAG("Y(t < T, k < K) = t * K + k"), const int *tok, int T, int K) {
#pragma ave launch block(64) grid(T / 256)
#pragma ave assume T % 256 == 0 && T <= 65536 && K <= 4096 && K >= 1 && permutation(tok, T)
  int off[4];
  for (int l = 0; l < 4; ++l)
    off[l] = tok[blockIdx.x * 256 + threadIdx.x + l * 64] * K;
  for (int k0 = 0; k0 < K; ++k0)
    for (int l = 0; l < 4; ++l)
      Y[off[l] + k0] = X[off[l] + k0];
}
)cu");
  for (const Outcome &O : All)
    EXPECT_EQ(O.status, SolverResult::Proven) << describeAll(All);
  EXPECT_EQ(statuses(All, ObligationKind::InBounds), "PP") << describeAll(All);
}

// The reduction-complete statuses of a row sum over k < K whose loop is
// Loop, under Assume (which leaves K unbounded below), and every outcome.
std::pair<std::string, std::string> rowSumCompleteness(const std::string &Assume,
                                                       const std::string &Loop) {
  std::vector<Outcome> All = analyse(fill(R"cu(
__global__ void rowsum(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                       float *S AVE_TAG("S(m < M) = m"), int M, int K) {
#pragma ave launch block(64) grid(M / 64)
#pragma ave assume M % 64 == 0 && M <= 4096 && @ASSUME@
  int m = blockIdx.x * 64 + threadIdx.x;
  float acc = 0.0f;
  @LOOP@
    acc += A[m * K + k];
  S[m] = acc;
}
)cu",
                                          {{"@ASSUME@", Assume}, {"@LOOP@", Loop}}));
  return {statuses(All, ObligationKind::ReductionComplete), describeAll(All)};
}

TEST(IndexArrays, ReductionOverAnEmptyRangeIsCovered) {
  // No assumption bounds K below: at K <= 0 the loop runs zero times and
  // sums nothing, which is the exact cover of an empty range.
  auto [Got, All] = rowSumCompleteness("K <= 4096", "for (int k = 0; k < K; ++k)");
  EXPECT_EQ(Got, "P") << All;
}

TEST(IndexArrays, FixedTripCountOverAnEmptyRangeIsNotCovered) {
  // The loop runs 16 times whatever K is: at K <= 0 that is not the cover.
  auto [Got, All] = rowSumCompleteness("K <= 16", "for (int k = 0; k < 16; ++k)");
  EXPECT_EQ(Got, "V") << All;
}

} // namespace
} // namespace ave::inv
