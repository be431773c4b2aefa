// Sizes for a bench run: `--shape M=4096,N=4096,K=4096` binds each scalar
// size parameter of the kernel, and annotation expressions (tag bounds and
// layouts, launch, assume) are evaluated under those bindings.
#pragma once

#include "ave/annotations/Expr.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ave::harness {

struct BenchSpec;

using Bindings = std::map<std::string, std::int64_t>;

// One value per size parameter, in the kernel's parameter order.
struct Shape {
  std::vector<std::string> names;
  std::vector<std::int64_t> values;
  Bindings bindings() const;
  std::string text() const; // "M=4096,N=4096,K=4096"
};

// "M=4096,N=4096,K=4096" (blanks allowed around the separators).
std::optional<Bindings> parseShapeText(const std::string &Text, std::string &Error);

// Orders `given` as the kernel's size parameters; every size must be bound
// and every name must be a size.
std::optional<Shape> shapeForSpec(const BenchSpec &Spec, const Bindings &Given, std::string &Error);

// Integer value of an annotation expression with the analysis' C `int`
// semantics (ave/invariants/CIntSemantics.h: truncating / and %, comparisons
// and logic giving 0/1, && || ?: evaluating only what C evaluates). What C
// leaves undefined (overflow, division by zero, a shift out of range, a value
// outside int) is an error, never a wrapped number. Identifiers resolve to
// the binding of their name (parameters, coordinates) or, for named
// constants, to their value.
std::optional<std::int64_t> evaluate(const ann::Expr &Expr, const Bindings &Bindings,
                                     std::string &Error);

// The text of the first kernel-level assumption `shape` violates, or empty.
std::string violatedAssumption(const BenchSpec &Spec, const Shape &Shape, std::string &Error);

// The multiple of which the kernel's `assume` facts require size `name` to
// be (`M % 16 == 0 && M % 64 == 0`: 64; none: 1).
std::int64_t granuleOf(const BenchSpec &Spec, const std::string &Name);

// The second shape a bundle checks: every size becomes an odd multiple of
// the granule the `assume` facts of every kernel in `kernels` require of it
// (their least common multiple: the candidate's and the reference's), just
// under the given size and different for each size (the i-th size steps i
// odd multiples further down), so power-of-two accidents and swapped
// dimensions show. Every assumption of every kernel must still hold.
std::optional<Shape> oddMultipleShape(const std::vector<const BenchSpec *> &Kernels,
                                      const Shape &Given, std::string &Error);
std::optional<Shape> oddMultipleShape(const BenchSpec &Spec, const Shape &Given,
                                      std::string &Error);

} // namespace ave::harness
