// Lane layouts of the matrix-core instructions: every operand and result
// element has exactly one home, the result's inverse agrees with its
// placement, and a few entries match the AMD calculator and the PTX ISA.
// The ldmatrix fragment loads: each element of the loaded matrices reaches
// exactly one (lane, slot), entries from the PTX ISA's figures, and with
// the row addresses the matrix-core rewrite gives, x4 fills an mma.sync A
// fragment and x2.trans a B fragment where the mma model expects them.

#include "ave/invariants/MatrixLaneModel.h"

#include <gtest/gtest.h>
#include <set>
#include <tuple>
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

// Matrix (lane / 8), row (lane % 8) and column of what slot `Slot` of lane
// `Lane` reads, the matrices being given row by row, one lane a row.
std::tuple<int64_t, int64_t, int64_t> loaded(TermContext &T, const LdmatrixModel &M, int64_t Lane,
                                             int64_t Slot) {
  auto [Source, Offset] = place(M.source(T, T.constant(Lane), T.constant(Slot)));
  return {Source / 8, Source % 8, Offset};
}

TEST(MatrixLaneModelTest, LdmatrixReadsEveryElementOnce) {
  for (const LdmatrixModel &M : ldmatrixModels()) {
    TermContext T;
    std::set<std::tuple<int64_t, int64_t, int64_t>> Seen;
    for (int64_t Lane = 0; Lane < 32; ++Lane)
      for (int64_t Slot = 0; Slot < M.slots(); ++Slot) {
        auto [Matrix, Row, Column] = loaded(T, M, Lane, Slot);
        EXPECT_LT(Matrix, M.matrices) << M.name;
        EXPECT_LT(Column, 8) << M.name;
        EXPECT_TRUE(Seen.insert({Matrix, Row, Column}).second)
            << M.name << " lane " << Lane << " slot " << Slot;
      }
    EXPECT_EQ(Seen.size(), size_t(64) * M.matrices) << M.name;
  }
}

TEST(MatrixLaneModelTest, LdmatrixMatchesThePtxFigures) {
  TermContext T;
  const LdmatrixModel *X4 = findLdmatrixModel("ave_ldmatrix_x4");
  const LdmatrixModel *X2T = findLdmatrixModel("ave_ldmatrix_x2_trans");
  ASSERT_NE(X4, nullptr);
  ASSERT_NE(X2T, nullptr);
  // Without .trans, thread 13 gets row 13 / 4 = 3, columns 2 * (13 % 4) = 2
  // and 3 of each matrix; its register 1 (slots 2, 3) is matrix 1's, whose
  // row 3 address lane 11 gave.
  EXPECT_EQ(place(X4->source(T, T.constant(13), T.constant(2))), Place(11, 2));
  EXPECT_EQ(place(X4->source(T, T.constant(13), T.constant(3))), Place(11, 3));
  // With .trans, thread 13 gets column 3 of rows 2 and 3: slot 3 (register
  // 1, upper half) is row 3 of matrix 1, the address of lane 11, element 3.
  EXPECT_EQ(place(X2T->source(T, T.constant(13), T.constant(3))), Place(11, 3));
  EXPECT_EQ(place(X2T->source(T, T.constant(0), T.constant(0))), Place(0, 0));
  EXPECT_EQ(findLdmatrixModel("ave_ldmatrix_x1"), nullptr);
}

TEST(MatrixLaneModelTest, LdmatrixFillsMmaFragments) {
  TermContext T;
  const MatrixLaneModel *Mma = findMatrixLaneModel("ave_mma_m16n8k16_f16");
  const LdmatrixModel *X4 = findLdmatrixModel("ave_ldmatrix_x4");
  const LdmatrixModel *X2T = findLdmatrixModel("ave_ldmatrix_x2_trans");
  ASSERT_TRUE(Mma && X4 && X2T);
  for (int64_t Lane = 0; Lane < 32; ++Lane) {
    // A 16x16 tile, lane l giving the address of row l % 16, column 8 * (l / 16).
    for (int64_t Slot = 0; Slot < 8; ++Slot) {
      auto [Source, Offset] = place(X4->source(T, T.constant(Lane), T.constant(Slot)));
      int64_t I = Source % 16, KK = 8 * (Source / 16) + Offset;
      EXPECT_EQ(place(Mma->aPlace(T, T.constant(I), T.constant(KK))), Place(Lane, Slot))
          << "A(" << I << ", " << KK << ")";
    }
    // B stored k-major: lane l gives the address of row k = l % 16 of the 8 columns.
    for (int64_t Slot = 0; Slot < 4; ++Slot) {
      auto [Source, Offset] = place(X2T->source(T, T.constant(Lane), T.constant(Slot)));
      int64_t KK = Source % 16, J = Offset;
      EXPECT_EQ(place(Mma->bPlace(T, T.constant(KK), T.constant(J))), Place(Lane, Slot))
          << "B(" << KK << ", " << J << ")";
    }
  }
}

} // namespace
} // namespace ave::inv
