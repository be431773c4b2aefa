// Checking a register-tile shape (TileShape.h): every division the generated
// kernel does must be exact, since it has no remainder code.

#include "TileShape.h"

namespace ave::rw {

namespace {

constexpr int64_t MaxThreads = 1024, MaxExtent = 1024;

bool readParameter(const ParameterValues &Values, const char *Name, int64_t &Out,
                   std::string &Error) {
  auto It = Values.find(Name);
  std::optional<unsigned> V = It == Values.end() ? std::nullopt : parseUnsigned(It->second);
  if (!V || *V < 1 || *V > MaxExtent) {
    Error = std::string("register-tile: ") + Name + " must be a number from 1 to " +
            std::to_string(MaxExtent) + ", not '" + (It == Values.end() ? "" : It->second) + "'";
    return false;
  }
  Out = *V;
  return true;
}

std::string divides(const char *What, int64_t Part, const char *Whole, int64_t Of) {
  if (Of % Part == 0)
    return "";
  return std::string("register-tile: ") + What + "=" + std::to_string(Part) + " does not divide " +
         Whole + "=" + std::to_string(Of);
}

} // namespace

TileShape TileShape::fromParameters(const ParameterValues &Values, std::string &Error) {
  TileShape S;
  if (!readParameter(Values, "tm", S.tm, Error) || !readParameter(Values, "tn", S.tn, Error) ||
      !readParameter(Values, "bm", S.bm, Error) || !readParameter(Values, "bn", S.bn, Error) ||
      !readParameter(Values, "bk", S.bk, Error))
    return S;
  auto T = Values.find("transpose-a");
  if (T == Values.end() || (T->second != "0" && T->second != "1")) {
    Error = "register-tile: transpose-a must be 0 or 1";
    return S;
  }
  S.transposeA = T->second == "1";
  Error = divides("tm", S.tm, "bm", S.bm);
  if (Error.empty())
    Error = divides("tn", S.tn, "bn", S.bn);
  if (!Error.empty())
    return S;
  if (S.threads() > MaxThreads) {
    Error = "register-tile: a " + std::to_string(S.bm) + "x" + std::to_string(S.bn) +
            " block tile of " + std::to_string(S.tm) + "x" + std::to_string(S.tn) +
            " micro-tiles needs " + std::to_string(S.threads()) + " threads, more than " +
            std::to_string(MaxThreads);
    return S;
  }
  if ((S.bm * S.bk) % S.threads() || (S.bk * S.bn) % S.threads())
    Error = "register-tile: the " + std::to_string(S.threads()) +
            " threads do not share the A tile (bm*bk=" + std::to_string(S.bm * S.bk) +
            ") and the B tile (bk*bn=" + std::to_string(S.bk * S.bn) + ") evenly";
  return S;
}

} // namespace ave::rw
