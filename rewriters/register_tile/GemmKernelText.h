// The text of the register-tiled kernel body that register-tile puts in
// place of a TiledGemmForm body (the launch text is tiled_gemm/GemmEdits.h's).
// Indices into A, B and C come from their tags' layouts with the
// coordinates substituted, so a transposed or padded operand is addressed
// as its tag says. Where the assumptions do not make M or N a multiple of
// the block tile, the loads clamp the row (column) into the matrix and the
// store is guarded: the blocks at the edge compute a few rows twice and
// store them once. Internal to rewriters/register_tile.
#pragma once

#include "../tiled_gemm/TiledGemmForm.h"
#include "TileShape.h"

#include <string>

namespace ave::rw {

// The kernel's locals the body declares, each renamed where a parameter or
// file-scope name would be hidden by it.
struct GemmNames {
  std::string tid = "tid", tx = "tx", ty = "ty", row0 = "row0", col0 = "col0", k0 = "k0", k = "k",
              l = "l", e = "e", i = "i", j = "j", a = "a", b = "b";
};

struct GemmTextRequest {
  const TiledGemmForm &form;
  TileShape shape;
  GemmNames names;
  std::string indent = "  "; // one level
  bool guardM = false, guardN = false;
  bool wrongMicroTileOffset = false; // test hook: `a` reads the next thread's rows
};

// The statements of the new body, one level indented, each line ending in
// a newline.
std::string gemmBodyText(const GemmTextRequest &R);

} // namespace ave::rw
