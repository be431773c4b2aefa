// The LDS layout rewriters: lds-pad and lds-swizzle.
#pragma once

#include "ave/rewriters/Rewriter.h"

#include <memory>

namespace ave::rw {

std::unique_ptr<Rewriter> makeLdsPadRewriter();
std::unique_ptr<Rewriter> makeLdsSwizzleRewriter();

} // namespace ave::rw
