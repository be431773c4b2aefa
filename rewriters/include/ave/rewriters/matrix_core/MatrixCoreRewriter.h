// The matrix-core rewriter: an fp16 tiled GEMM that computes one output per
// thread with scalar FMAs (a staged K loop, `acc += x * y` with fp16 tiles
// and a float accumulator, `C[...] = acc`) becomes one whose warps compute
// its block tile on the matrix cores: MFMA (mfma_f32_16x16x16f16, wave64)
// on AMD, mma.sync m16n8k16 (warp32, through ave/matrix_core.h) elsewhere,
// from one source. The body is regenerated from the tags; the launch pragma
// and the launches in the same file get the new block and grid.
#pragma once

#include "ave/rewriters/Rewriter.h"

#include <memory>

namespace ave::rw {

std::unique_ptr<Rewriter> makeMatrixCoreRewriter();

} // namespace ave::rw
