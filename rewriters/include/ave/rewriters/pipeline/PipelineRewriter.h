// The software-pipelining rewriter (`pipeline`): a K loop that stages tiles
// in __shared__ arrays (global loads -> shared stores -> barrier -> compute
// -> barrier) becomes one with `stages` buffers per array, a prologue that
// fills the first stages - 1, and a body that prefetches the tile
// stages - 1 ahead into registers before the compute and stores it into its
// stage after it, with one barrier per iteration.
#pragma once

#include "ave/rewriters/Rewriter.h"

#include <memory>

namespace ave::rw {

std::unique_ptr<Rewriter> makePipelineRewriter();

} // namespace ave::rw
