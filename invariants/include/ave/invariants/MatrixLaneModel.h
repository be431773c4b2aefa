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

} // namespace ave::inv
