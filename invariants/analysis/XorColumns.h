// Swizzled write addresses for the writer solution. lds-swizzle stores
// `S[r][c ^ f(r)]`, an address `r * W + (c ^ f(r))` the layout matcher cannot
// invert through the XOR: the writer of a read stayed unsolved, and in a
// loop the read's older candidates then held under an approximation (a
// swizzled and pipelined GEMM was unproven). Where a writer coordinate c of
// extent E (a power of two) occurs only as `c ^ m`, m a remainder by a power
// of two no larger than E over the writer's other coordinates or such a
// coordinate itself (`tile[ty][tx ^ ty]`), `c ^ m` is a
// coordinate of extent E itself (XOR with m permutes [0, E)); once it is
// solved, c is that solution XOR m. Internal to invariants/.
#pragma once

#include "ave/invariants/LayoutMatch.h"
#include "ave/invariants/Term.h"

#include <vector>

namespace ave::inv {

struct XorColumn {
  const Term *coordinate = nullptr; // c
  const Term *mask = nullptr;       // m, over the other coordinates
  const Term *stand = nullptr;      // the fresh coordinate standing for c ^ m
};

// Layout's address with each such `c ^ m` replaced by its stand-in, which
// also replaces c among the coordinates (same extent); the columns found.
std::vector<XorColumn> standInForXorColumns(TermContext &T, TagLayout &Layout);

} // namespace ave::inv
