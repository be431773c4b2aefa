// Reading and checking a GEMM rewrite's tile parameters (register-tile's
// TileShape, matrix-core's MatrixCoreShape): every error starts with the
// rewrite's name, and every check keeps the generated kernel free of
// remainder code. Internal to rewriters/.
#pragma once

#include "ave/rewriters/Rewriter.h"

#include <cstdint>
#include <string>

namespace ave::rw {

constexpr int64_t MaxBlockThreads = 1024;

// Values[Name] as a multiple of Multiple in [Multiple, 1024] into Out; false
// with Error set ("a number from 1" when Multiple is 1) otherwise.
bool readTileExtent(const ParameterValues &Values, const char *Rewrite, const char *Name,
                    int64_t Multiple, int64_t &Out, std::string &Error);

// "" when Part divides Of, else "<Rewrite>: What=Part does not divide Whole=Of".
std::string tileDivides(const char *Rewrite, const char *What, int64_t Part, const char *Whole,
                        int64_t Of);

// The error of a Bm x Bn block tile of Tm x Tn Parts (micro-tiles, warp
// tiles) that needs Threads threads, more than a block has; "" when it fits.
std::string blockThreadsError(const char *Rewrite, int64_t Bm, int64_t Bn, int64_t Tm, int64_t Tn,
                              const char *Parts, int64_t Threads);

// The error when Threads threads do not share the Bm x Bk tile of A and the
// Bk x Bn tile of B evenly; "" when they do.
std::string stagingShareError(const char *Rewrite, int64_t Threads, int64_t Bm, int64_t Bn,
                              int64_t Bk);

} // namespace ave::rw
