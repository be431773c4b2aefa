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
  bool operator()(const Monomial &a, const Monomial &b) const;
};

class Polynomial {
public:
  Polynomial() = default;
  static Polynomial constant(int64_t value);
  static Polynomial atom(const Term *atom);
  static Polynomial monomial(Monomial mono, int64_t coefficient);

  /// nullopt when a coefficient would overflow int64 (the caller then keeps
  /// the expression as an atom).
  std::optional<Polynomial> plus(const Polynomial &other) const;
  std::optional<Polynomial> minus(const Polynomial &other) const;
  std::optional<Polynomial> times(const Polynomial &other) const;
  std::optional<Polynomial> scaled(int64_t factor) const;

  bool isZero() const { return Terms.empty(); }
  bool isConstant() const;
  int64_t constantPart() const;
  int64_t coefficientOf(const Monomial &mono) const;
  /// Every (monomial, coefficient) with a non-zero coefficient.
  const std::map<Monomial, int64_t, MonomialLess> &terms() const { return Terms; }
  /// True if every coefficient (the constant included) is a multiple of d.
  bool allCoefficientsDivisibleBy(int64_t d) const;
  /// Exact division of all coefficients; only valid when divisible.
  Polynomial dividedExactly(int64_t d) const;
  bool operator==(const Polynomial &other) const { return Terms == other.Terms; }

private:
  void addTerm(const Monomial &mono, int64_t coefficient, bool &overflow);
  std::map<Monomial, int64_t, MonomialLess> Terms;
};

/// True if every atom of `divisor` occurs in `mono` at least as often.
bool monomialDivides(const Monomial &divisor, const Monomial &mono);
/// `mono` with the atoms of `divisor` removed (precondition: it divides).
Monomial monomialQuotient(const Monomial &mono, const Monomial &divisor);
/// Product of monomials.
Monomial monomialProduct(const Monomial &a, const Monomial &b);

Polynomial toPolynomial(TermContext &ctx, const Term *term);
/// Sum of products, highest degree first: `by*K*16 + K*ty + k0 + tx`.
const Term *toTerm(TermContext &ctx, const Polynomial &poly);
const Term *toTerm(TermContext &ctx, const Monomial &mono);
/// toTerm(toPolynomial(term)): the canonical form of an integer term.
const Term *normalize(TermContext &ctx, const Term *term);
std::string print(const Polynomial &poly);

} // namespace ave::inv
