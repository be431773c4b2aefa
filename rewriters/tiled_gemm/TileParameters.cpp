// Tile parameters of the GEMM rewrites (TileParameters.h).

#include "TileParameters.h"

namespace ave::rw {

namespace {

constexpr int64_t MaxExtent = 1024;

} // namespace

bool readTileExtent(const ParameterValues &Values, const char *Rewrite, const char *Name,
                    int64_t Multiple, int64_t &Out, std::string &Error) {
  auto It = Values.find(Name);
  std::optional<unsigned> V = It == Values.end() ? std::nullopt : parseUnsigned(It->second);
  if (!V || *V < 1 || *V > MaxExtent || *V % Multiple != 0) {
    const std::string Range = Multiple == 1 ? "a number from 1"
                                            : "a multiple of " + std::to_string(Multiple) +
                                                  " from " + std::to_string(Multiple);
    Error = std::string(Rewrite) + ": " + Name + " must be " + Range + " to " +
            std::to_string(MaxExtent) + ", not '" + (It == Values.end() ? "" : It->second) + "'";
    return false;
  }
  Out = *V;
  return true;
}

std::string tileDivides(const char *Rewrite, const char *What, int64_t Part, const char *Whole,
                        int64_t Of) {
  if (Of % Part == 0)
    return "";
  return std::string(Rewrite) + ": " + What + "=" + std::to_string(Part) + " does not divide " +
         Whole + "=" + std::to_string(Of);
}

std::string blockThreadsError(const char *Rewrite, int64_t Bm, int64_t Bn, int64_t Tm, int64_t Tn,
                              const char *Parts, int64_t Threads) {
  if (Threads <= MaxBlockThreads)
    return "";
  return std::string(Rewrite) + ": a " + std::to_string(Bm) + "x" + std::to_string(Bn) +
         " block tile of " + std::to_string(Tm) + "x" + std::to_string(Tn) + " " + Parts +
         " needs " + std::to_string(Threads) + " threads, more than " +
         std::to_string(MaxBlockThreads);
}

std::string stagingShareError(const char *Rewrite, int64_t Threads, int64_t Bm, int64_t Bn,
                              int64_t Bk) {
  if ((Bm * Bk) % Threads == 0 && (Bk * Bn) % Threads == 0)
    return "";
  return std::string(Rewrite) + ": the " + std::to_string(Threads) +
         " threads do not share the A tile (bm*bk=" + std::to_string(Bm * Bk) +
         ") and the B tile (bk*bn=" + std::to_string(Bk * Bn) + ") evenly";
}

} // namespace ave::rw
