// Checking a matrix-core shape (MatrixCoreShape.h): every tile is a whole
// number of instructions and the block's threads share the staging evenly,
// since the generated kernel has no remainder code.

#include "MatrixCoreShape.h"

namespace ave::rw {

namespace {

constexpr int64_t MaxThreads = 1024, MaxExtent = 1024;

bool readParameter(const ParameterValues &Values, const char *Name, int64_t Multiple, int64_t &Out,
                   std::string &Error) {
  auto It = Values.find(Name);
  std::optional<unsigned> V = It == Values.end() ? std::nullopt : parseUnsigned(It->second);
  if (!V || *V < 1 || *V > MaxExtent || *V % Multiple != 0) {
    Error = std::string("matrix-core: ") + Name + " must be a multiple of " +
            std::to_string(Multiple) + " from " + std::to_string(Multiple) + " to " +
            std::to_string(MaxExtent) + ", not '" + (It == Values.end() ? "" : It->second) + "'";
    return false;
  }
  Out = *V;
  return true;
}

std::string divides(const char *What, int64_t Part, const char *Whole, int64_t Of) {
  if (Of % Part == 0)
    return "";
  return std::string("matrix-core: ") + What + "=" + std::to_string(Part) + " does not divide " +
         Whole + "=" + std::to_string(Of);
}

} // namespace

MatrixCoreShape MatrixCoreShape::fromParameters(const ParameterValues &Values, std::string &Error) {
  MatrixCoreShape S;
  // 16: the instructions' m and k (and MFMA's n); the warp tile's n too,
  // so that a wave's 16-wide MFMA columns are whole.
  if (!readParameter(Values, "bm", 16, S.bm, Error) ||
      !readParameter(Values, "bn", 16, S.bn, Error) ||
      !readParameter(Values, "bk", 16, S.bk, Error) ||
      !readParameter(Values, "wm", 16, S.wm, Error) ||
      !readParameter(Values, "wn", 16, S.wn, Error))
    return S;
  Error = divides("wm", S.wm, "bm", S.bm);
  if (Error.empty())
    Error = divides("wn", S.wn, "bn", S.bn);
  if (!Error.empty())
    return S;
  if (S.warpsN() % 2 != 0) {
    Error = "matrix-core: the " + std::to_string(S.warpsN()) +
            " warp tiles along n (bn/wn) do not pair up into AMD waves of 64 lanes: bn/wn must "
            "be even";
    return S;
  }
  if (S.threads() > MaxThreads) {
    Error = "matrix-core: a " + std::to_string(S.bm) + "x" + std::to_string(S.bn) +
            " block tile of " + std::to_string(S.wm) + "x" + std::to_string(S.wn) +
            " warp tiles needs " + std::to_string(S.threads()) + " threads, more than " +
            std::to_string(MaxThreads);
    return S;
  }
  if ((S.bm * S.bk) % S.threads() || (S.bk * S.bn) % S.threads())
    Error = "matrix-core: the " + std::to_string(S.threads()) +
            " threads do not share the A tile (bm*bk=" + std::to_string(S.bm * S.bk) +
            ") and the B tile (bk*bn=" + std::to_string(S.bk * S.bn) + ") evenly";
  return S;
}

} // namespace ave::rw
