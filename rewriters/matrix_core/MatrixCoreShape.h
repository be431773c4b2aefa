// The block matrix-core gives a kernel: a BM x BN tile of C with BK of K
// staged per step, split into warp tiles of WM x WN. On NVIDIA each warp of
// 32 lanes computes one warp tile with mma.sync m16n8k16 (WM/16 x WN/8
// instructions per 16 of K); on AMD each wave of 64 lanes computes two warp
// tiles side by side along n (so bn / wn is even) with
// mfma_f32_16x16x16f16: wm/16 x 2*wn/16 instructions, as many as a warp's.
// Both run the same block of 32 x warps threads. Internal to
// rewriters/matrix_core.
#pragma once

#include "ave/rewriters/Rewriter.h"

#include <cstdint>
#include <string>

namespace ave::rw {

struct MatrixCoreShape {
  int64_t bm = 64, bn = 64, bk = 32, wm = 32, wn = 32;

  int64_t warpsN() const { return bn / wn; } // warp tiles along n
  int64_t warps() const { return (bm / wm) * warpsN(); }
  int64_t threads() const { return 32 * warps(); }
  // An AMD wave: two warp tiles along n.
  int64_t waveM() const { return wm; }
  int64_t waveN() const { return 2 * wn; }
  int64_t wavesN() const { return bn / waveN(); }
  int64_t loadsA() const { return bm * bk / threads(); } // A elements each thread stages
  int64_t loadsB() const { return bk * bn / threads(); }

  // The shape from the rewriter's parameters, or why it is no shape.
  static MatrixCoreShape fromParameters(const ParameterValues &Values, std::string &Error);
};

} // namespace ave::rw
