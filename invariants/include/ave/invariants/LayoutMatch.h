// The layout algebra: which tag coordinates does an index address?
//
// A tag `A(m < M, k < K) = m * lda + k` says element `A[i]` is `A(m, k)` for
// the (m, k) with `i == m*lda + k` in bounds. Asking Z3 for (m, k) with a
// symbolic lda is nonlinear (unknown after 10 s, DESIGN.md), so we decompose
// instead: the layout is linear in its coordinates, `Σ c·stride(c) + offset`,
// each stride a monomial over size parameters. Normalizing the index to a
// polynomial and collecting, from the largest stride down, the monomials that
// the stride divides gives each coordinate's term; the rest belongs to the
// unit-stride coordinate. Bounds on the results are returned as side
// conditions, which are linear and cheap to prove; since a mixed-radix
// decomposition within bounds is unique, proving them proves the match.
// docs/analysis.md, "The layout algebra".
#pragma once

#include "ave/invariants/Polynomial.h"
#include "ave/invariants/Term.h"

#include <map>
#include <string>
#include <vector>

namespace ave::inv {

struct LayoutCoordinate {
  const Term *symbol; // the coordinate, SymbolKind::Coordinate
  const Term *bound;  // exclusive upper bound: 0 <= symbol < bound
};

struct TagLayout {
  std::vector<LayoutCoordinate> coordinates; // in declaration order
  /// Address in terms of the coordinates; nullptr means row-major over the
  /// bounds (`c0*B1*B2 + c1*B2 + c2`).
  const Term *address = nullptr;
};

enum class LayoutMatchStrategy {
  /// Coefficient matching: readable terms (`m = by*16 + ty`). A coordinate
  /// takes exactly the monomials its stride divides, so an index that
  /// carries across a constant stride (`ty*64 + tx + 1` for `m*64 + k`)
  /// yields a side condition that fails.
  Coefficients,
  /// Coefficient matching where a coordinate other than the last takes no
  /// constant multiple of its own stride: `row*K + K - 1` for `m*K + k` is
  /// m = row, k = K - 1 (Coefficients reads m = row + 1, k = -1, whose side
  /// conditions never hold). The retry when Coefficients' fail.
  CoefficientsLowConstants,
  /// Mixed-radix division (`m = idx / 64`, `k = idx % 64`): correct for every
  /// in-bounds index, terms are less readable and symbolic strides make the
  /// query nonlinear. The retry when coefficient side conditions fail.
  Division,
};

struct LayoutMatchResult {
  bool matched = false;
  std::string reason;                  // why not, when !matched
  TermKeyed<const Term *> coordinates; // coordinate symbol -> term
  /// Must all hold for the index to address those coordinates.
  std::vector<const Term *> sideConditions;
  /// Set by a caller that keeps a coefficient match whose side conditions
  /// the path does not imply: the division's side conditions, which hold
  /// exactly where the index is in bounds. A model that leaves the
  /// coefficient conditions false but these true reads in bounds (the
  /// coordinates are misread there), so an out-of-bounds verdict must make
  /// these false too.
  std::vector<const Term *> exactConditions;
};

/// Matches indices against tag layouts; decomposed layouts are cached, so
/// one matcher per kernel serves every access of every tagged pointer.
class LayoutMatcher {
public:
  explicit LayoutMatcher(TermContext &Ctx) : Ctx(Ctx) {}

  LayoutMatchResult match(const TagLayout &Layout, const Term *Index,
                          LayoutMatchStrategy Strategy = LayoutMatchStrategy::Coefficients);

  /// The address term of a layout (row-major when `layout.address` is null).
  const Term *addressOf(const TagLayout &Layout);

  /// Number of distinct layouts decomposed so far.
  size_t cachedLayouts() const { return Cache.size(); }

private:
  struct Stride {
    const Term *coordinate;
    const Term *bound;
    Monomial monomial;   // over size symbols; empty for a constant stride
    int64_t coefficient; // stride == coefficient * monomial
  };
  struct Decomposition {
    bool valid = false;
    std::string reason;
    std::vector<Stride> strides; // largest first
    Polynomial offset;           // the part of the address without coordinates
  };

  const Decomposition &decompose(const TagLayout &Layout);
  Decomposition computeDecomposition(const TagLayout &Layout);
  LayoutMatchResult matchCoefficients(const Decomposition &D, const Polynomial &Index,
                                      bool ConstantsLow);
  LayoutMatchResult matchDivision(const Decomposition &D, const Polynomial &Index);
  void addBoundConditions(LayoutMatchResult &Result, const Stride &Stride, const Term *Value);
  std::string strideText(const Stride &Stride);

  TermContext &Ctx;
  std::map<std::vector<const Term *>, Decomposition> Cache;
};

} // namespace ave::inv
