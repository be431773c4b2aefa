// The vectorize rewriter: copy loops become 128-bit accesses (float4,
// int4, double2, ...). Register loops that fill or drain a private array
// from contiguous memory load or store W elements at once; staging loops
// that copy a tile one element per thread give each thread W consecutive
// elements. Shared arrays read or written as vectors get the alignment
// their vectors need. One candidate per kernel covers every site; the
// `vector-aligned` obligation of the checker proves each access aligned.
#pragma once

#include "ave/rewriters/Rewriter.h"

#include <memory>

namespace ave::rw {

std::unique_ptr<Rewriter> makeVectorizeRewriter();

} // namespace ave::rw
