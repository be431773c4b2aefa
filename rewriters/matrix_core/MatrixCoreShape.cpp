// Checking a matrix-core shape (MatrixCoreShape.h): every tile is a whole
// number of instructions and the block's threads share the staging evenly,
// since the generated kernel has no remainder code.

#include "MatrixCoreShape.h"

#include "../tiled_gemm/TileParameters.h"

namespace ave::rw {

namespace {

constexpr const char *Rewrite = "matrix-core";

} // namespace

MatrixCoreShape MatrixCoreShape::fromParameters(const ParameterValues &Values, std::string &Error) {
  MatrixCoreShape S;
  // 16: the instructions' m and k (and MFMA's n); the warp tile's n too,
  // so that a wave's 16-wide MFMA columns are whole.
  for (auto [Name, Out] : {std::pair{"bm", &S.bm}, std::pair{"bn", &S.bn}, std::pair{"bk", &S.bk},
                           std::pair{"wm", &S.wm}, std::pair{"wn", &S.wn}})
    if (!readTileExtent(Values, Rewrite, Name, 16, *Out, Error))
      return S;
  Error = tileDivides(Rewrite, "wm", S.wm, "bm", S.bm);
  if (Error.empty())
    Error = tileDivides(Rewrite, "wn", S.wn, "bn", S.bn);
  if (!Error.empty())
    return S;
  if (S.warpsN() % 2 != 0) {
    Error = "matrix-core: the " + std::to_string(S.warpsN()) +
            " warp tiles along n (bn/wn) do not pair up into AMD waves of 64 lanes: bn/wn must "
            "be even";
    return S;
  }
  Error = blockThreadsError(Rewrite, S.bm, S.bn, S.wm, S.wn, "warp tiles", S.threads());
  if (Error.empty())
    Error = stagingShareError(Rewrite, S.threads(), S.bm, S.bn, S.bk);
  return S;
}

} // namespace ave::rw
