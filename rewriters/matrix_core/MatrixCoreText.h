// The text of the matrix-core kernel body that matrix-core puts in place of
// a TiledGemmForm body. Indices into A, B and C come from their tags'
// layouts with the coordinates substituted. The staging is the block's
// threads copying the A and B tiles into LDS (As[bm][bk], Bs[bk][bn]); the
// product and the store are written twice, for AMD (MFMA) and for the rest
// (mma.sync through ave/matrix_core.h), under `#if
// defined(__HIP_PLATFORM_AMD__)`. Internal to rewriters/matrix_core.
#pragma once

#include "../tiled_gemm/TiledGemmForm.h"
#include "MatrixCoreShape.h"

#include <string>

namespace ave::rw {

// The kernel's locals the body declares, each renamed where a parameter or
// file-scope name would be hidden by it.
struct MatrixCoreNames {
  std::string tid = "tid", row0 = "row0", col0 = "col0", warp = "warp", lane = "lane", wm0 = "wm0",
              wn0 = "wn0", g = "g", t = "t", r = "r", q = "q", k0 = "k0", kk = "kk", l = "l",
              e = "e", i = "i", j = "j", fa = "fa", fb = "fb", c = "c", half4 = "ave_half4",
              float4 = "ave_float4";
};

// Test hooks: mutations the verification must reject.
enum class MatrixCoreBug {
  None,
  WrongLaneA,       // A's fragment rows from the lane's thread-in-group digit
  BNotTransposed,   // B's fragment read as Bs[n][k]
  WrongOutputLane,  // the store's row and column digits swapped
  WarpTileOffByOne, // every warp tile one instruction further along m
};

struct MatrixCoreTextRequest {
  const TiledGemmForm &form;
  MatrixCoreShape shape;
  MatrixCoreNames names;
  std::string indent = "  "; // one level
  MatrixCoreBug bug = MatrixCoreBug::None;
};

// The statements of the new body, one level indented, each line ending in
// a newline.
std::string matrixCoreBodyText(const MatrixCoreTextRequest &R);

} // namespace ave::rw
