#include "ave/invariants/MatrixLaneModel.h"

#include <array>

namespace ave::inv {

namespace {

using MF = MatrixCoreFamily;

// The table: every instruction the analysis understands.
constexpr std::array<MatrixLaneModel, 8> Models = {{
    {"__builtin_amdgcn_mfma_f32_16x16x4f32", MF::AmdMfmaSingleBlock, 16, 16, 4, 64, 1, 1, 4},
    {"__builtin_amdgcn_mfma_f32_32x32x2f32", MF::AmdMfmaSingleBlock, 32, 32, 2, 64, 1, 1, 16},
    {"__builtin_amdgcn_mfma_f32_16x16x16f16", MF::AmdMfmaSingleBlock, 16, 16, 16, 64, 4, 4, 4},
    {"__builtin_amdgcn_mfma_f32_32x32x8f16", MF::AmdMfmaSingleBlock, 32, 32, 8, 64, 4, 4, 16},
    {"__builtin_amdgcn_mfma_f32_16x16x16bf16_1k", MF::AmdMfmaSingleBlock, 16, 16, 16, 64, 4, 4, 4},
    {"__builtin_amdgcn_mfma_f32_32x32x8bf16_1k", MF::AmdMfmaSingleBlock, 32, 32, 8, 64, 4, 4, 16},
    // Project helpers wrapping inline-PTX mma.sync (f16 and bf16 inputs).
    {"ave_mma_m16n8k16_f16", MF::NvidiaMmaM16N8K16, 16, 8, 16, 32, 8, 4, 4},
    {"ave_mma_m16n8k16_bf16", MF::NvidiaMmaM16N8K16, 16, 8, 16, 32, 8, 4, 4},
}};

constexpr std::array<LdmatrixModel, 4> Loads = {{
    {"ave_ldmatrix_x2", 2, false},
    {"ave_ldmatrix_x4", 4, false},
    {"ave_ldmatrix_x2_trans", 2, true},
    {"ave_ldmatrix_x4_trans", 4, true},
}};

const Term *c(TermContext &T, int64_t V) { return T.constant(V); }

} // namespace

LanePlace MatrixLaneModel::aPlace(TermContext &T, const Term *I, const Term *KK) const {
  if (family == MF::AmdMfmaSingleBlock) {
    const Term *P = c(T, aElements);
    return {T.add(I, T.mul(c(T, m), T.div(KK, P))), T.rem(KK, P)};
  }
  const Term *Lane = T.add(T.mul(c(T, 4), T.rem(I, c(T, 8))), T.div(T.rem(KK, c(T, 8)), c(T, 2)));
  const Term *Elem = T.add(T.add(T.rem(KK, c(T, 2)), T.mul(c(T, 2), T.div(I, c(T, 8)))),
                           T.mul(c(T, 4), T.div(KK, c(T, 8))));
  return {Lane, Elem};
}

LanePlace MatrixLaneModel::bPlace(TermContext &T, const Term *KK, const Term *J) const {
  if (family == MF::AmdMfmaSingleBlock) {
    const Term *P = c(T, bElements);
    return {T.add(J, T.mul(c(T, n), T.div(KK, P))), T.rem(KK, P)};
  }
  const Term *Lane = T.add(T.mul(c(T, 4), J), T.div(T.rem(KK, c(T, 8)), c(T, 2)));
  const Term *Elem = T.add(T.rem(KK, c(T, 2)), T.mul(c(T, 2), T.div(KK, c(T, 8))));
  return {Lane, Elem};
}

LanePlace MatrixLaneModel::cPlace(TermContext &T, const Term *I, const Term *J) const {
  if (family == MF::AmdMfmaSingleBlock) {
    int64_t RowGroups = lanes / n; // lanes per column / 4 rows each
    const Term *Lane = T.add(J, T.mul(c(T, n), T.rem(T.div(I, c(T, 4)), c(T, RowGroups))));
    const Term *Reg = T.add(T.mul(c(T, 4), T.div(I, c(T, 4 * RowGroups))), T.rem(I, c(T, 4)));
    return {Lane, Reg};
  }
  const Term *Lane = T.add(T.mul(c(T, 4), T.rem(I, c(T, 8))), T.div(J, c(T, 2)));
  const Term *Elem = T.add(T.rem(J, c(T, 2)), T.mul(c(T, 2), T.div(I, c(T, 8))));
  return {Lane, Elem};
}

std::pair<const Term *, const Term *> MatrixLaneModel::cEntry(TermContext &T, const Term *Lane,
                                                              const Term *Element) const {
  if (family == MF::AmdMfmaSingleBlock) {
    int64_t RowGroups = lanes / n;
    const Term *I = T.add(T.add(T.mul(c(T, 4 * RowGroups), T.div(Element, c(T, 4))),
                                T.mul(c(T, 4), T.div(Lane, c(T, n)))),
                          T.rem(Element, c(T, 4)));
    return {I, T.rem(Lane, c(T, n))};
  }
  const Term *I = T.add(T.div(Lane, c(T, 4)), T.mul(c(T, 8), T.div(Element, c(T, 2))));
  const Term *J = T.add(T.mul(c(T, 2), T.rem(Lane, c(T, 4))), T.rem(Element, c(T, 2)));
  return {I, J};
}

LanePlace LdmatrixModel::source(TermContext &T, const Term *Lane, const Term *Slot) const {
  const Term *Matrix = T.mul(c(T, 8), T.div(Slot, c(T, 2)));
  const Term *Group = T.div(Lane, c(T, 4));
  const Term *Pair = T.add(T.mul(c(T, 2), T.rem(Lane, c(T, 4))), T.rem(Slot, c(T, 2)));
  if (trans)
    return {T.add(Matrix, Pair), Group};
  return {T.add(Matrix, Group), Pair};
}

std::span<const MatrixLaneModel> matrixLaneModels() { return Models; }

std::span<const LdmatrixModel> ldmatrixModels() { return Loads; }

const LdmatrixModel *findLdmatrixModel(std::string_view Name) {
  for (const LdmatrixModel &M : Loads)
    if (M.name == Name)
      return &M;
  return nullptr;
}

const MatrixLaneModel *findMatrixLaneModel(std::string_view Name) {
  for (const MatrixLaneModel &M : Models)
    if (M.name == Name)
      return &M;
  return nullptr;
}

} // namespace ave::inv
