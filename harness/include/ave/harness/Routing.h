// The reference of a kernel that reads through index arrays (a Mixture-of-
// Experts GEMM): the tags say which tensors meet (Y(t, n), X(t, k),
// W(x, k, n), P(r)) but not how the token t and the expert x of routed row r
// are chosen, so the user names that routing (`--route t=tok[r] --route
// x=ex[r]`), the way --einsum attention names a softmax the tags cannot
// spell. The reference then computes, for every routed row and every other
// output coordinate,
//
//   Y(tok[r], n) = sum_k X(tok[r], k) W(ex[r], k, n) P(r)
//
// reading the very index arrays the kernel reads. Each row must land on an
// element of its own: the output's routed coordinates come straight from
// permutations (`permutation(tok, T)`), otherwise two rows could meet in one
// element and the reference would need a combine it does not have.
#pragma once

#include "ave/harness/BenchSpec.h"
#include "ave/harness/ShapeBinding.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ave::harness {

struct Route {
  std::string coordinate; // a tag coordinate (t)
  ann::Expr value;        // over row coordinates, sizes and index reads (tok[r])
};

struct Routing {
  std::vector<Route> routes;
  // The coordinates the index arrays are read at (r), each bounded by the
  // length of the array it indexes.
  std::vector<std::string> rows;
  std::map<std::string, ann::Expr> rowBounds;
  std::vector<std::string> arrays; // the index arrays the routes read
  // One reference thread per point of these: the rows, then the output's
  // coordinates that are not routed.
  std::vector<std::string> free;
  std::vector<std::string> reduced; // summed: the rest, neither routed nor rows
  std::string text;                 // "Y(tok[r], n) = sum_k X(tok[r], k) W(ex[r], k, n) P(r)"

  // The bound of a row or tag coordinate.
  const ann::Expr *boundOf(const BenchSpec &Spec, const std::string &Coordinate) const;
  const Route *routeOf(const std::string &Coordinate) const;
};

// From the --route texts ("t=tok[r]"). Errors say which route and why (an
// unknown coordinate or array, a routed output coordinate that is not a
// permutation's read, index arrays left without a route or the reverse).
std::optional<Routing> deriveRouting(const BenchSpec &Spec, const std::vector<std::string> &Texts,
                                     std::string &Error);

// Empty when every route that reads an array directly (t=tok[r]) stays
// within its coordinate's tag bound at each shape: the array's values (below
// its bound, or its length for a permutation) must be below the bound, or
// the reference would read, or write, outside a tensor. Otherwise why not.
std::string routesWithinBounds(const BenchSpec &Spec, const Routing &Routing,
                               const std::vector<Bindings> &Shapes);

// A routed contraction that is a grouped GEMM (a MoE expert GEMM): rows r
// each take a row of A(t, k) through a routed t, times the matrix B(x, k, n)
// of the group (expert) x a bounded index array gives them, summed over k
// alone. Its anchor is one library GEMM per group (grouped_anchor.py), at
// the timed shape.
struct GroupedGemm {
  std::int64_t rows = 0, groups = 0, k = 0, n = 0;
  std::int64_t run = 1; // the group ids come in runs of this many rows (`blockwise`)
};

// Empty when the routing is not that shape (or a bound cannot be evaluated
// at the shape).
std::optional<GroupedGemm> groupedGemm(const BenchSpec &Spec, const Routing &Routing,
                                       const Bindings &Shape);

} // namespace ave::harness
