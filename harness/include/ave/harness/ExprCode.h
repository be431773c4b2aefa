// Annotation expressions as C++ source for the generated bundle: tag bounds
// and layouts become index arithmetic, launch and assume become host code.
#pragma once

#include "ave/annotations/Expr.h"

#include <functional>
#include <optional>
#include <string>

namespace ave::harness {

// How the generated code names an identifier node (a size, a coordinate) or
// a subscript node (an index array's read, `tok[r]`); nullopt: it cannot
// appear in generated code (the error says which).
using NameSpelling = std::function<std::optional<std::string>(const ann::Expr &Identifier)>;

// Fully parenthesised int64_t arithmetic, e.g. "((int64_t(m) * K) + k)".
// Named integer constants become their value. Empty on error.
std::string exprToCpp(const ann::Expr &Expr, const NameSpelling &Spell, std::string &Error);

} // namespace ave::harness
