// The grid of a kernel whose `#pragma ave launch` gives only its block, read
// from what the analysis knows about its stores into the output.
//
// The analysis matches every store into the output tensor against the
// tag's layout and so knows the output coordinates each thread writes, as
// terms over blockIdx, threadIdx and loop counters (the same terms its
// store-coordinate obligations compare). When each output coordinate is
// `T * blockIdx.d + r`, with a constant tile T, at most one block axis per
// coordinate, and the solver proves 0 <= r < T (what one block stores stays
// inside its tile), the grid along d is the coordinate's extent divided by
// T, rounded up. Anything less clear (no readable store, a coordinate built
// from two block axes, gridDim in the index, a block axis the kernel uses
// elsewhere, r not provably inside the tile) is refused with the reason.
#pragma once

#include "ave/harness/BenchSpec.h"

#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
}
namespace ave::ann {
struct KernelAnnotations;
}

namespace ave::harness {

struct InferredGrid {
  std::vector<ann::Expr> grid; // x[, y[, z]], over the kernel's sizes
  // For the bundle summary: "one block stores 16 x 16 elements of C(m, n):
  // m = blockIdx.y*16 + threadIdx.y, n = blockIdx.x*16 + threadIdx.x".
  std::string explanation;
};

// `Spec` is the kernel's bench spec (its output, sizes, assumptions and the
// pragma's block); the annotations and AST are those it was built from.
// Nullopt with `why` set when the grid is not clear.
std::optional<InferredGrid> inferGrid(clang::ASTContext &Context,
                                      const ann::KernelAnnotations &Annotations,
                                      const BenchSpec &Spec, std::string &Why);

} // namespace ave::harness
