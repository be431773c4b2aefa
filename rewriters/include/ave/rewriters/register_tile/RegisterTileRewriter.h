// The register-tile rewriter: a tiled GEMM that computes one output per
// thread (a staged K loop of one A and one B element per thread, `acc +=
// x * y`, `C[...] = acc`) becomes one where each thread computes a TM x TN
// micro-tile in a private accumulator array, from a column of the A tile
// and a row of the B tile held in registers, and a block a BM x BN tile.
// The body is regenerated from the tags; the launch pragma and the launches
// in the same file get the new block and grid.
#pragma once

#include "ave/rewriters/Rewriter.h"

#include <memory>

namespace ave::rw {

std::unique_ptr<Rewriter> makeRegisterTileRewriter();

} // namespace ave::rw
