// The unroll rewriter: loops with a constant trip count get `#pragma
// unroll` (factor=full) or are unrolled by hand, `factor` copies of the body
// per iteration and a tail loop for the iterations left over. One candidate
// per kernel covers every loop it unrolls.
#pragma once

#include "ave/rewriters/Rewriter.h"

#include <memory>

namespace ave::rw {

std::unique_ptr<Rewriter> makeUnrollRewriter();

} // namespace ave::rw
