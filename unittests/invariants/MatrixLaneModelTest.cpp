// Lane layouts of the matrix-core instructions: every operand and result
// element has exactly one home, the result's inverse agrees with its
// placement, and a few entries match the AMD calculator and the PTX ISA.

#include "ave/invariants/MatrixLaneModel.h"

#include <gtest/gtest.h>
#include <set>
#include <utility>

namespace ave::inv {
namespace {

int64_t value(const Term *T) {
  std::optional<int64_t> V = evaluate(T, {});
  EXPECT_TRUE(V.has_value());
  return V.value_or(-1);
}

using Place = std::pair<int64_t, int64_t>;

Place place(LanePlace P) { return {value(P.lane), value(P.element)}; }

TEST(MatrixLaneModelTest, EveryOperandElementHasOneHome) {
  for (const MatrixLaneModel &M : matrixLaneModels()) {
    TermContext T;
    std::set<std::pair<int64_t, int64_t>> A, B, C;
    for (unsigned I = 0; I < M.m; ++I)
      for (unsigned KK = 0; KK < M.k; ++KK) {
        auto [Lane, Elem] = place(M.aPlace(T, T.constant(I), T.constant(KK)));
        EXPECT_LT(Lane, M.lanes) << M.name;
        EXPECT_LT(Elem, M.aElements) << M.name;
        EXPECT_TRUE(A.insert({Lane, Elem}).second) << M.name << " A(" << I << "," << KK << ")";
      }
    for (unsigned KK = 0; KK < M.k; ++KK)
      for (unsigned J = 0; J < M.n; ++J) {
        auto [Lane, Elem] = place(M.bPlace(T, T.constant(KK), T.constant(J)));
        EXPECT_LT(Lane, M.lanes) << M.name;
        EXPECT_LT(Elem, M.bElements) << M.name;
        EXPECT_TRUE(B.insert({Lane, Elem}).second) << M.name << " B(" << KK << "," << J << ")";
      }
    for (unsigned I = 0; I < M.m; ++I)
      for (unsigned J = 0; J < M.n; ++J) {
        auto [Lane, Elem] = place(M.cPlace(T, T.constant(I), T.constant(J)));
        EXPECT_LT(Lane, M.lanes) << M.name;
        EXPECT_LT(Elem, M.cElements) << M.name;
        EXPECT_TRUE(C.insert({Lane, Elem}).second) << M.name << " C(" << I << "," << J << ")";
        auto [RI, RJ] = M.cEntry(T, T.constant(Lane), T.constant(Elem));
        EXPECT_EQ(value(RI), I) << M.name;
        EXPECT_EQ(value(RJ), J) << M.name;
      }
    // Every register of every lane is used: the layouts are bijections.
    EXPECT_EQ(A.size(), size_t(M.lanes) * M.aElements) << M.name;
    EXPECT_EQ(B.size(), size_t(M.lanes) * M.bElements) << M.name;
    EXPECT_EQ(C.size(), size_t(M.lanes) * M.cElements) << M.name;
  }
}

TEST(MatrixLaneModelTest, MatchesDocumentedEntries) {
  TermContext T;
  auto K = [&](int64_t V) { return T.constant(V); };
  const MatrixLaneModel *F16 = findMatrixLaneModel("__builtin_amdgcn_mfma_f32_16x16x16f16");
  ASSERT_NE(F16, nullptr);
  // shared/ANALYSIS.md section 7: A(i, kk) in lane i + 16*(kk/4), element kk % 4.
  EXPECT_EQ(place(F16->aPlace(T, K(5), K(9))), Place(37, 1));
  EXPECT_EQ(place(F16->bPlace(T, K(14), K(3))), Place(51, 2));
  // Output (i, j) in lane j + 16*(i/4), register i % 4.
  EXPECT_EQ(place(F16->cPlace(T, K(6), K(11))), Place(27, 2));

  const MatrixLaneModel *F32x32 = findMatrixLaneModel("__builtin_amdgcn_mfma_f32_32x32x8f16");
  ASSERT_NE(F32x32, nullptr);
  // 32x32 result: lane j + 32*((i/4) % 2), register 4*(i/8) + i % 4.
  EXPECT_EQ(place(F32x32->cPlace(T, K(13), K(7))), Place(39, 5));
  const MatrixLaneModel *F32 = findMatrixLaneModel("__builtin_amdgcn_mfma_f32_32x32x2f32");
  ASSERT_NE(F32, nullptr);
  EXPECT_EQ(place(F32->aPlace(T, K(3), K(1))), Place(35, 0));

  const MatrixLaneModel *Mma = findMatrixLaneModel("ave_mma_m16n8k16_f16");
  ASSERT_NE(Mma, nullptr);
  // PTX ISA m16n8k16 .f16 A fragment: A(9, 10) is a6 of thread 5
  // (groupID 1, row + 8; threadID_in_group 1, column + 8).
  EXPECT_EQ(place(Mma->aPlace(T, K(9), K(10))), Place(5, 6));
  // B(11, 3): b2 of thread 13 (column = groupID 3; row 2*1 + 1 + 8).
  EXPECT_EQ(place(Mma->bPlace(T, K(11), K(3))), Place(13, 3));
  // C(10, 5): c3 of thread 10 (groupID 2, row + 8; column 2*2 + 1).
  EXPECT_EQ(place(Mma->cPlace(T, K(10), K(5))), Place(10, 3));
  EXPECT_EQ(findMatrixLaneModel("__builtin_amdgcn_mfma_f32_4x4x1f32"), nullptr);
}

} // namespace
} // namespace ave::inv
