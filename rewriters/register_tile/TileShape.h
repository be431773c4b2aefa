// The shape register-tile gives a block: each thread computes a TM x TN
// micro-tile of C, a block a BM x BN tile, with BK of K staged per step; the
// threads and each thread's share of the tile loads follow. Internal to
// rewriters/register_tile.
#pragma once

#include "ave/rewriters/Rewriter.h"

#include <cstdint>
#include <string>

namespace ave::rw {

struct TileShape {
  int64_t tm = 8, tn = 8, bm = 128, bn = 128, bk = 8;
  // The A tile in LDS with the other coordinate innermost than in memory
  // (As[bk][bm] for a row-major A: the inner product then reads a row).
  bool transposeA = false;

  int64_t threadsX() const { return bn / tn; } // threads along n
  int64_t threadsY() const { return bm / tm; } // threads along m
  int64_t threads() const { return threadsX() * threadsY(); }
  int64_t loadsA() const { return bm * bk / threads(); } // A elements each thread stages
  int64_t loadsB() const { return bk * bn / threads(); }

  // The shape from the rewriter's parameters, or why it is no shape (a
  // parameter error: nothing divides, or a block too large).
  static TileShape fromParameters(const ParameterValues &Values, std::string &Error);
};

} // namespace ave::rw
