// Where ave-rewrite keeps what it may reuse across runs: the execution
// stage's prepared bundles and the parser's precompiled HIP prefix. One
// place decides, so both follow the same override.
#pragma once

#include <string>

namespace ave::support {

// $AVE_REWRITE_CACHE_DIR, else $XDG_CACHE_HOME/ave-rewrite, else
// $HOME/.cache/ave-rewrite, else <temp>/ave-rewrite-cache.
std::string userCacheDir();

} // namespace ave::support
