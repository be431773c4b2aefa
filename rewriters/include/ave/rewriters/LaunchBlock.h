// The block of a kernel's `#pragma ave launch` as constants: what a rewrite
// that depends on the block size (launch-bounds, a staging copy's thread
// stride in vectorize) reads, with the reason when it cannot.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ave::ann {
struct BoundPragma;
}

namespace ave::rw {

// The block of Launch (the kernel's launch pragma, or null) as constants
// (x, y, z), or why not.
std::optional<std::vector<int64_t>> constantBlock(const ann::BoundPragma *Launch, std::string &Why);

} // namespace ave::rw
