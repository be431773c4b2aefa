// `mask(j <= i)`: a contraction that keeps only some pairs (causal
// attention, a prefix sum). The reduction must cover exactly the kept
// indices: a loop bounded by the mask, or a full loop whose iterations past
// it add nothing, proves; one index too few or too many is violated.

#include "ObligationOutcomes.h"

namespace ave::inv {
namespace {

// The status letters (P, V, U) of the reduction-complete obligations of the
// prefix-sum kernel whose loop is Loop, under assumption Assume.
std::string completeness(const std::string &Assume, const std::string &Loop) {
  return test::statuses(test::analyse(test::fill(R"cu(
__global__ void prefix(const float *A AVE_TAG("A(i < N, j < N) = i * N + j"),
                       float *S AVE_TAG("S(i < N) = i"), int N) {
#pragma ave launch block(64) grid(N / 64)
#pragma ave assume N % 64 == 0 && N <= 4096 && @ASSUME@
  int i = blockIdx.x * 64 + threadIdx.x;
  float acc = 0.0f;
  @LOOP@
  S[i] = acc;
}
)cu",
                                                 {{"@ASSUME@", Assume}, {"@LOOP@", Loop}})),
                        ObligationKind::ReductionComplete);
}

TEST(ContractionMask, LoopBoundedByTheMaskProves) {
  EXPECT_EQ(completeness("mask(j <= i)", "for (int j = 0; j <= i; ++j) acc += A[i * N + j];"), "P");
}

TEST(ContractionMask, FullLoopThatSkipsPastTheMaskProves) {
  EXPECT_EQ(
      completeness("mask(j <= i)", "for (int j = 0; j < N; ++j) if (j <= i) acc += A[i * N + j];"),
      "P");
}

TEST(ContractionMask, WithoutTheMaskThePrefixIsIncomplete) {
  EXPECT_EQ(completeness("N >= 64", "for (int j = 0; j <= i; ++j) acc += A[i * N + j];"), "V");
}

TEST(ContractionMask, OneKeptIndexShort) {
  EXPECT_EQ(completeness("mask(j <= i)", "for (int j = 0; j < i; ++j) acc += A[i * N + j];"), "V");
}

TEST(ContractionMask, OneDroppedIndexTooMany) {
  EXPECT_EQ(completeness("mask(j <= i)",
                         "for (int j = 0; j < N; ++j) if (j <= i + 1) acc += A[i * N + j];"),
            "V");
}

TEST(ContractionMask, StrictMask) {
  EXPECT_EQ(completeness("mask(j < i)", "for (int j = 0; j < i; ++j) acc += A[i * N + j];"), "P");
}

} // namespace
} // namespace ave::inv
