// Tag specs: the string inside AVE_TAG("...").
//
//   Name(c1 < B1, c2 < B2, ...) [= layout]
//
// Element `p[i]` of a tagged pointer carries Name(c1, c2, ...) for the
// coordinates with `i == layout`, `0 <= ci < Bi`. Without a layout the
// element order is row-major over the bounds.
#ifndef AVE_ANNOTATIONS_TAGSPEC_H
#define AVE_ANNOTATIONS_TAGSPEC_H

#include "ave/annotations/Expr.h"
#include "ave/annotations/Result.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ave::ann {

struct Coordinate {
  std::string name;
  unsigned nameBegin = 0, nameEnd = 0;
  Expr bound; // exclusive upper bound; the lower bound is 0
};

struct TagSpec {
  std::string tensor;
  unsigned nameBegin = 0, nameEnd = 0;
  std::vector<Coordinate> coordinates; // in declaration order, at least one
  std::optional<Expr> layout;          // absent: row-major over the bounds
  unsigned end = 0;                    // end offset of the whole spec

  // Index of the coordinate called `name`, or -1.
  int coordinateIndex(std::string_view Name) const;
  // The explicit layout, or rowMajorLayout(*this).
  Expr effectiveLayout() const;
};

// Horner form over the bounds: ((c1 * B2 + c2) * B3 + c3) ...; for two
// coordinates `m * K + k`. Synthesized nodes span the spec's text; the
// coordinate and bound leaves keep their own offsets.
Expr rowMajorLayout(const TagSpec &Spec);

Result<TagSpec> parseTagSpec(std::string_view Text);

// Canonical text, e.g. "A(m < M, k < K) = m * K + k".
std::string printTagSpec(const TagSpec &Spec);

} // namespace ave::ann

#endif // AVE_ANNOTATIONS_TAGSPEC_H
