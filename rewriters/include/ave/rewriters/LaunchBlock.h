// The block of a kernel's `#pragma ave launch` as constants: what a rewrite
// that depends on the block size (launch-bounds, a staging copy's thread
// stride in vectorize) reads, with the reason when it cannot. And the edit
// that gives a kernel `__launch_bounds__(T)`: a rewrite that sets the block
// (register-tile) must also tell the compiler, or it sizes registers for
// the largest block (1024 threads on gfx942: 128 VGPRs, and an 8x8
// micro-tile spills) and a smaller bound written before would make every
// launch of the new block fail.
#pragma once

#include "ave/rewriters/EditRange.h"

#include "clang/Tooling/Core/Replacement.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
} // namespace clang

namespace ave::ann {
struct BoundPragma;
}

namespace ave::rw {

// The block of Launch (the kernel's launch pragma, or null) as constants
// (x, y, z), or why not.
std::optional<std::vector<int64_t>> constantBlock(const ann::BoundPragma *Launch, std::string &Why);

// Whether Kernel has launch bounds (`__launch_bounds__`, or HIP's
// `amdgpu_flat_work_group_size` it expands to).
bool hasLaunchBounds(const clang::FunctionDecl &Kernel);

// The edit that makes Kernel's launch bounds `Threads` threads per block:
// `__launch_bounds__(Threads)` before `__global__` when it has none; the
// thread count of its `__launch_bounds__` or `amdgpu_flat_work_group_size`
// replaced when that names another count (other arguments kept); no edit
// (std::nullopt with Why empty) when it already names Threads. Why says
// what stops it: a smallest block over Threads, a count spelled inside a
// macro's body.
std::optional<clang::tooling::Replacement> launchBoundsEdit(clang::ASTContext &Ctx,
                                                            const clang::FunctionDecl &Kernel,
                                                            int64_t Threads, std::string &Why);

// Kernel's `__launch_bounds__(Threads)` (one argument, as register-tile
// writes it), alone on its line: what launch-bounds replaces when asked for
// min-blocks. Else why not.
EditRange boundLineToWiden(clang::ASTContext &Ctx, const clang::FunctionDecl &Kernel,
                           int64_t Threads);

// Where `__launch_bounds__` goes before Kernel: at `__global__` when that
// precedes the declaration's start (an attribute before the return type).
clang::SourceLocation launchBoundsLocation(const clang::ASTContext &Ctx,
                                           const clang::FunctionDecl &Kernel);

} // namespace ave::rw
