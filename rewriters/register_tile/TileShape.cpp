// Checking a register-tile shape (TileShape.h): every division the generated
// kernel does must be exact, since it has no remainder code.

#include "TileShape.h"

#include "../tiled_gemm/TileParameters.h"

namespace ave::rw {

namespace {

constexpr const char *Rewrite = "register-tile";

} // namespace

TileShape TileShape::fromParameters(const ParameterValues &Values, std::string &Error) {
  TileShape S;
  for (auto [Name, Out] : {std::pair{"tm", &S.tm}, std::pair{"tn", &S.tn}, std::pair{"bm", &S.bm},
                           std::pair{"bn", &S.bn}, std::pair{"bk", &S.bk}})
    if (!readTileExtent(Values, Rewrite, Name, 1, *Out, Error))
      return S;
  auto T = Values.find("transpose-a");
  if (T == Values.end() || (T->second != "0" && T->second != "1")) {
    Error = "register-tile: transpose-a must be 0 or 1";
    return S;
  }
  S.transposeA = T->second == "1";
  Error = tileDivides(Rewrite, "tm", S.tm, "bm", S.bm);
  if (Error.empty())
    Error = tileDivides(Rewrite, "tn", S.tn, "bn", S.bn);
  if (Error.empty())
    Error = blockThreadsError(Rewrite, S.bm, S.bn, S.tm, S.tn, "micro-tiles", S.threads());
  if (Error.empty())
    Error = stagingShareError(Rewrite, S.threads(), S.bm, S.bn, S.bk);
  return S;
}

} // namespace ave::rw
