// Where matrix-core instructions keep their operands and results: for each
// supported instruction, which (lane, element) of the A operand holds A(i, kk),
// which holds B(kk, j), where the result C(i, j) lands, and the inverse of the
// last. One table, formulas as terms, so the analysis can substitute symbolic
// rows and columns and ask the solver about all of them at once.
//
// AMD single-block MFMA on a 64-lane wave (AMD matrix instruction
// calculator): with p = M*K/64 operand elements per lane,
//   A(i, kk) in lane i + M*(kk / p), element kk % p
//   B(kk, j) in lane j + N*(kk / p), element kk % p
//   C(i, j)  in lane j + N*((i / 4) % (64 / N)), register 4*(i / (4*64/N)) + i % 4.
// NVIDIA mma.sync.aligned.m16n8k16.row.col on a 32-thread warp (PTX ISA),
// with g = lane / 4 and t = lane % 4, in 16-bit operand elements:
//   A(i, kk) in lane 4*(i % 8) + (kk % 8) / 2, element kk % 2 + 2*(i / 8) + 4*(kk / 8)
//   B(kk, j) in lane 4*j + (kk % 8) / 2,       element kk % 2 + 2*(kk / 8)
//   C(i, j)  in lane 4*(i % 8) + j / 2,        element j % 2 + 2*(i / 8).
//
// NVIDIA ldmatrix.sync.aligned.m8n8.{x2,x4}[.trans].shared.b16 (PTX ISA,
// "Warp-level matrix load instruction: ldmatrix"), through the project
// helpers ave_ldmatrix_x2/_x4[_trans] (ave/matrix_core.h): each lane gives
// the address of one row of 16-bit elements, lane 8*m + r row r of matrix
// m; register m of lane L holds two elements of matrix m, row L / 4 and
// columns 2*(L % 4), +1 (plain), or rows 2*(L % 4), +1 of column L / 4
// (.trans). As the helper's fragment (two elements a register), slot s of
// lane L is the element at the row address of lane `source`, `offset`
// elements on:
//   plain:  source 8*(s / 2) + L / 4,               offset 2*(L % 4) + s % 2
//   .trans: source 8*(s / 2) + 2*(L % 4) + s % 2,   offset L / 4
// which puts an m16n8k16 A fragment (x4, rows from lane % 16, columns 8 *
// (lane / 16) on) and a B fragment (x2.trans, k rows from lane % 16) where
// the mma.sync model above expects them.
#pragma once

#include "ave/invariants/Term.h"

#include <span>
#include <string_view>
#include <utility>

namespace ave::inv {

struct LanePlace {
  const Term *lane;
  const Term *element;
};

enum class MatrixCoreFamily { AmdMfmaSingleBlock, NvidiaMmaM16N8K16 };

struct MatrixLaneModel {
  std::string_view name; // the builtin (AMD) or the project helper (NVIDIA)
  MatrixCoreFamily family;
  unsigned m, n, k;                         // shape of one instruction
  unsigned lanes;                           // wave or warp size
  unsigned aElements, bElements, cElements; // per lane

  LanePlace aPlace(TermContext &T, const Term *I, const Term *KK) const;
  LanePlace bPlace(TermContext &T, const Term *KK, const Term *J) const;
  LanePlace cPlace(TermContext &T, const Term *I, const Term *J) const;
  // (i, j) of the result held by `Lane` in result element `Element`.
  std::pair<const Term *, const Term *> cEntry(TermContext &T, const Term *Lane,
                                               const Term *Element) const;
};

std::span<const MatrixLaneModel> matrixLaneModels();
const MatrixLaneModel *findMatrixLaneModel(std::string_view Name);

struct LdmatrixModel {
  std::string_view name; // the project helper
  unsigned matrices;     // 8x8 matrices loaded: 2 or 4
  bool trans;
  unsigned lanes = 32;
  unsigned slots() const { return 2 * matrices; }
  /// Slot `Slot` of lane `Lane`: {the lane whose row address it is read
  /// from, the element offset from that address}.
  LanePlace source(TermContext &T, const Term *Lane, const Term *Slot) const;
};

std::span<const LdmatrixModel> ldmatrixModels();
const LdmatrixModel *findLdmatrixModel(std::string_view Name);

} // namespace ave::inv
