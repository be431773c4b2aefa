// The writer of one element of a tagged output, for one store: the
// store's thread, block and loop ids solved as terms of the element's
// coordinates. Output coverage (output-written, and the exactly-once
// coverage of atomic accumulations) asks whether the solved writer writes
// the element; a wrong or partial solution can only fail to prove.
// Internal to invariants/.
#pragma once

#include "AnalysisContext.h"
#include "AnalysisLog.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ave::inv {

// The writer of one element for one store: the store's thread, block and
// loop ids as terms of the element. Ids the destination divides by a
// constant (`tid / 16`, `tid % 16`) are split into their digits first, so
// that the destination is linear in what is solved: two for one divisor,
// more for divisors that nest (a warp's `tid / 32`, `tid % 32 / 4` and
// `tid % 4`: tid = 32*warp + 4*group + thread-in-group).
class WriterSolver {
public:
  WriterSolver(AnalysisContext &Ctx, const OutputWrite &W) : Ctx(Ctx), T(Ctx.terms), W(W) {}

  // The condition under which the solved writer writes the element, or null
  // with Why set.
  const Term *solve(const std::vector<std::pair<std::string, const Term *>> &Element,
                    std::string &Why);

private:
  // id = high*divisor + ... + digits[1]*weights[1] + low, lowest digit
  // first; each digit below the highest lies in [0, weights[j+1] /
  // weights[j]). One divisor: {low, high}, weights {1, divisor}.
  struct Digits {
    const Term *divisor = nullptr; // the highest weight
    const Term *high = nullptr, *low = nullptr;
    std::vector<const Term *> digits;
    std::vector<int64_t> weights; // constant divisors only; empty for a fixed divisor
  };
  // The digits [Lo, Hi) of an id that a chain of constant divisions and
  // remainders selects (`tid % 32 / 4`: [4, 32)); Hi 0 when unbounded.
  struct DigitRange {
    const Term *id = nullptr;
    int64_t lo = 1, hi = 0;
  };
  std::optional<DigitRange> digitRange(const Term *N) const;
  bool classify(std::string &Why);
  bool splitDigits(std::string &Why);
  // A division by a parameter of an expression of the ids, printed, or "".
  std::string nonlinearDivision() const;
  // Splits Id at the nested constant divisors Weights (ascending, each
  // dividing the next, the first 1) and maps each of its atoms.
  void splitChain(const Term *Id, const std::vector<int64_t> &Weights,
                  const std::vector<std::pair<const Term *, DigitRange>> &Atoms);
  void solveCoordinate(const std::string &Name, const Term *Coordinate, std::string &Why);
  LayoutMatchResult matchEither(const TagLayout &Layout, const Term *Coordinate);
  void solveFromLoopStarts();
  // Several unsolved ids in a solved counter's start: its digits modulo the
  // step. False when there are fewer than two, or they do not match.
  bool solveStartDigits(const Term *Counter, const Term *Init, const Term *Step);
  void chooseWitnesses();
  const Term *boundOf(const Term *Unknown) const;
  const Term *writesCondition(const std::vector<std::pair<std::string, const Term *>> &Element,
                              std::string &Why);
  bool isFixed(const Term *S) const;
  // Bound / Divisor when a kernel fact gives Bound as a product with it.
  const Term *quotientOf(const Term *Bound, const Term *Divisor) const;

  AnalysisContext &Ctx;
  TermContext &T;
  const OutputWrite &W;
  std::vector<const Term *> Ids; // thread, block and loop ids of the store
  TermKeyed<const LoopFrame *> Counters;
  TermKeyed<Digits> Split;            // ids split into digits
  TermMap DigitMap;                   // `tid / 16` -> high digit, tid -> 16*high + low
  std::vector<const Term *> Unknowns; // what is solved: ids and digits
  TermKeyed<const Term *> Bounds;     // extent of each unknown (for the matcher)
  TermMap Solved;
  // Ids solved as the quotient of a loop's start (`z` of `k0 = z * chunk`),
  // with that quotient: chunks that overlap may also hold the element in
  // the chunk before.
  std::vector<std::pair<const Term *, const Term *>> StartQuotients;
};

} // namespace ave::inv
