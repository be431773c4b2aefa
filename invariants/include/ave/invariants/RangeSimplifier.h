// Range-based simplification before a query reaches Z3. Lane and tile index
// arithmetic is full of `/` and `%` by constants whose operands are already
// known to be small (`(i + 16*(kk/4)) % 64` with i < 16, kk < 16); Z3 has to
// case-split on each of them and can time out, while interval reasoning
// removes them outright. Only bounds implied by the asserted facts and by the
// query's own top-level conjuncts are used, so the simplified query is
// equisatisfiable with the original.
#pragma once

#include "ave/invariants/Term.h"

#include <map>
#include <optional>

namespace ave::inv {

class Polynomial;

struct Interval {
  int64_t lo;
  int64_t hi; // inclusive
};

// `d*(x/d) + x%d` folded back to `x` inside a sum, for positive constants
// d only (an exact identity of C's division that needs no facts): a
// staged store `As[s][e / 16][e % 16]` has the address `1024*s + e`, in
// which a layout match sees e's thread id.
const Term *foldConstantQuotientRemainder(TermContext &Ctx, const Term *Sum);

class RangeSimplifier {
public:
  explicit RangeSimplifier(TermContext &Ctx) : Ctx(Ctx) {}

  // Records the symbol bounds stated by the top-level conjuncts of `Fact`
  // (`x >= 0`, `x < 16`, `blockDim.x == 64`, `tid < blockDim.x`).
  void addFacts(const Term *Fact);
  const Term *simplify(const Term *T);
  // Symbols whose value the facts fix (replaced by constants when simplifying).
  TermKeyed<int64_t> pinned() const;
  std::optional<Interval> interval(const Term *T);
  // A quotient or remainder from its operands alone.
  std::optional<Interval> quotientInterval(const Term *T);

private:
  bool boundLinear(const Term *Comparison);
  void boundDividend(const Term *Quotient, Interval Value);
  void tighten(const Term *Sym, std::optional<int64_t> Lo, std::optional<int64_t> Hi);
  const Term *rewrite(const Term *T);
  const Term *overflowQuestion(const Term *T);
  // Whether T's value stays inside int wherever its operands do (its
  // interval is known): a rule that builds new operators applies only then,
  // or Z3 would read a definedness condition the question does not have.
  bool fitsInInt(const Term *T);
  const Term *divRem(const Term *T);
  const Term *remainderOfRemainder(const Polynomial &P, const Term *D);
  const Term *shiftedDividend(const Polynomial &P, int64_t C);
  const Term *byLowerDigit(const Polynomial &P, int64_t C, bool Div);
  const Term *quotientComparison(const Term *Cmp);
  // The comparison rules in turn, on `Cmp`, the rewritten `Original`.
  const Term *comparison(const Term *Original, const Term *Cmp);
  const Term *remainderOfShifted(const Term *Cmp);
  // A comparison the intervals decide (`(c - 1) % 256 / 4 < 64`), unless
  // it is one the bounds came from.
  const Term *decideByIntervals(const Term *Cmp);
  const Term *linearOverBox(const Term *T);
  const Term *foldBoundedPart(const Term *Sum);
  const Term *foldParityPairs(const Term *Sum);

  TermContext &Ctx;
  TermKeyed<Interval> Bounds;
  TermSet Sources; // the conjuncts given to addFacts: bounds come from them
  TermKeyed<const Term *> Memo;
  TermKeyed<const Term *> Linearized; // null: not affine on its box
};

} // namespace ave::inv
