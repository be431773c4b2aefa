// Where the address of one use of a `__shared__` array can flow. A layout
// rewrite moves elements, so it is sound only when every use of the array is
// a plain element read or write: the element's address must never leave the
// expression that consumes its value. Asking "is the direct parent `&`?" is
// not enough (`const float &e = t[r][c]; (&e)[1]`, a cast to `float2 &`,
// `__builtin_addressof`, a row handed to a function all keep the old layout
// in a pointer). So the walk follows the use from its DeclRefExpr up through
// every node that still designates the array, a row, or the element, until
// a node consumes the value (a load, an assignment whose result is dropped);
// anything else on the way is an escape, named with its location.
#pragma once

#include "clang/Basic/SourceLocation.h"

#include <string>
#include <vector>

namespace clang {
class ASTContext;
class ArraySubscriptExpr;
class DeclRefExpr;
class Expr;
} // namespace clang

namespace ave::rw {

struct ElementUse {
  // Set when the use is a plain element access (escape is then empty).
  const clang::ArraySubscriptExpr *expr = nullptr; // the outermost subscript
  std::vector<const clang::Expr *> indices;        // outermost dimension first
  // Per dimension: written `i[a]` (the integer before the bracket).
  std::vector<bool> reversed;
  bool isWrite = false; // assigned, compound-assigned, ++/--
  bool isRead = false;
  // An escape: the construct that lets the address out, and where it is.
  std::string escape;
  clang::SourceLocation escapeLocation;
  bool ok() const { return escape.empty(); }
};

// Classifies the use `Ref` of an array of `Rank` dimensions; the escape
// message names the array.
ElementUse followUse(clang::ASTContext &Ctx, const clang::DeclRefExpr &Ref, unsigned Rank);

} // namespace ave::rw
