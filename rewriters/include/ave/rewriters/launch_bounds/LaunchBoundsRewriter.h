// The launch-bounds rewriter: `__launch_bounds__(threads[, min-blocks])`
// before a kernel, threads from its `#pragma ave launch block(...)`.
#pragma once

#include "ave/rewriters/Rewriter.h"

#include <memory>

namespace ave::rw {

std::unique_ptr<Rewriter> makeLaunchBoundsRewriter();

} // namespace ave::rw
