// Polynomial normal form of integer terms: Σ coefficient · monomial, where a
// monomial is a sorted product of atoms. Atoms are symbols, uninterpreted
// applications and every subterm that is not polynomial (`x ^ y`, `x / 3`,
// `x % 8`, comparisons); an atom's own operands are normalized first, so
// `(a + b) / 16` and `(b + a) / 16` are the same atom.
//
// This is what lets the layout algebra read `(by*16 + ty)*K + k0 + tx` as
// `16·by·K + ty·K + k0 + tx` and match it against `m·K + k` without asking a
// solver a nonlinear question.
#pragma once

#include "ave/invariants/Term.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ave::inv {

/// Product of atoms, sorted by atom id; repeated atoms are powers. Empty is 1.
using Monomial = std::vector<const Term *>;

/// Orders monomials by degree, then atom ids: deterministic and independent
/// of how the polynomial was built.
struct MonomialLess {
  bool operator()(const Monomial &A, const Monomial &B) const;
};

class Polynomial {
public:
  Polynomial() = default;
  static Polynomial constant(int64_t Value);
  static Polynomial atom(const Term *Atom);
  static Polynomial monomial(Monomial Mono, int64_t Coefficient);

  /// nullopt when a coefficient would overflow int64 (the caller then keeps
  /// the expression as an atom).
  std::optional<Polynomial> plus(const Polynomial &Other) const;
  std::optional<Polynomial> minus(const Polynomial &Other) const;
  std::optional<Polynomial> times(const Polynomial &Other) const;
  std::optional<Polynomial> scaled(int64_t Factor) const;

  bool isZero() const { return Terms.empty(); }
  bool isConstant() const;
  int64_t constantPart() const;
  int64_t coefficientOf(const Monomial &Mono) const;
  /// Every (monomial, coefficient) with a non-zero coefficient.
  const std::map<Monomial, int64_t, MonomialLess> &terms() const { return Terms; }
  /// True if every coefficient (the constant included) is a multiple of d.
  bool allCoefficientsDivisibleBy(int64_t D) const;
  /// Exact division of all coefficients; only valid when divisible.
  Polynomial dividedExactly(int64_t D) const;
  bool operator==(const Polynomial &Other) const { return Terms == Other.Terms; }

private:
  void addTerm(const Monomial &Mono, int64_t Coefficient, bool &Overflow);
  std::map<Monomial, int64_t, MonomialLess> Terms;
};

/// True if every atom of `divisor` occurs in `mono` at least as often.
bool monomialDivides(const Monomial &Divisor, const Monomial &Mono);
/// `mono` with the atoms of `divisor` removed (precondition: it divides).
Monomial monomialQuotient(const Monomial &Mono, const Monomial &Divisor);
/// Product of monomials.
Monomial monomialProduct(const Monomial &A, const Monomial &B);

Polynomial toPolynomial(TermContext &Ctx, const Term *Term);
/// Sum of products, highest degree first: `by*K*16 + K*ty + k0 + tx`.
const Term *toTerm(TermContext &Ctx, const Polynomial &Poly);
const Term *toTerm(TermContext &Ctx, const Monomial &Mono);
/// toTerm(toPolynomial(term)): the canonical form of an integer term.
const Term *normalize(TermContext &Ctx, const Term *Term);
std::string print(const Polynomial &Poly);

} // namespace ave::inv
