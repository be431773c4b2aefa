#include "ave/invariants/Polynomial.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace ave::inv {

bool MonomialLess::operator()(const Monomial &A, const Monomial &B) const {
  if (A.size() != B.size())
    return A.size() < B.size();
  for (size_t I = 0; I < A.size(); ++I)
    if (A[I] != B[I])
      return A[I]->id() < B[I]->id();
  return false;
}

namespace {

bool atomBefore(const Term *A, const Term *B) { return A->id() < B->id(); }

} // namespace

Monomial monomialProduct(const Monomial &A, const Monomial &B) {
  Monomial Product;
  Product.reserve(A.size() + B.size());
  std::merge(A.begin(), A.end(), B.begin(), B.end(), std::back_inserter(Product), atomBefore);
  return Product;
}

bool monomialDivides(const Monomial &Divisor, const Monomial &Mono) {
  return std::includes(Mono.begin(), Mono.end(), Divisor.begin(), Divisor.end(), atomBefore);
}

Monomial monomialQuotient(const Monomial &Mono, const Monomial &Divisor) {
  Monomial Quotient;
  std::set_difference(Mono.begin(), Mono.end(), Divisor.begin(), Divisor.end(),
                      std::back_inserter(Quotient), atomBefore);
  return Quotient;
}

Polynomial Polynomial::constant(int64_t Value) { return monomial({}, Value); }

Polynomial Polynomial::atom(const Term *Atom) { return monomial({Atom}, 1); }

Polynomial Polynomial::monomial(Monomial Mono, int64_t Coefficient) {
  Polynomial P;
  std::sort(Mono.begin(), Mono.end(), atomBefore);
  if (Coefficient != 0)
    P.Terms.emplace(std::move(Mono), Coefficient);
  return P;
}

void Polynomial::addTerm(const Monomial &Mono, int64_t Coefficient, bool &Overflow) {
  auto [it, inserted] = Terms.emplace(Mono, Coefficient);
  if (!inserted && __builtin_add_overflow(it->second, Coefficient, &it->second))
    Overflow = true;
  if (it->second == 0)
    Terms.erase(it);
}

std::optional<Polynomial> Polynomial::plus(const Polynomial &Other) const {
  Polynomial Sum = *this;
  bool Overflow = false;
  for (const auto &[mono, c] : Other.Terms)
    Sum.addTerm(mono, c, Overflow);
  if (Overflow)
    return std::nullopt;
  return Sum;
}

std::optional<Polynomial> Polynomial::minus(const Polynomial &Other) const {
  auto Negated = Other.scaled(-1);
  if (!Negated)
    return std::nullopt;
  return plus(*Negated);
}

std::optional<Polynomial> Polynomial::scaled(int64_t Factor) const {
  Polynomial Result;
  if (Factor == 0)
    return Result;
  for (const auto &[mono, c] : Terms) {
    int64_t Product;
    if (__builtin_mul_overflow(c, Factor, &Product))
      return std::nullopt;
    Result.Terms.emplace(mono, Product);
  }
  return Result;
}

std::optional<Polynomial> Polynomial::times(const Polynomial &Other) const {
  Polynomial Product;
  bool Overflow = false;
  for (const auto &[ma, ca] : Terms)
    for (const auto &[mb, cb] : Other.Terms) {
      int64_t C;
      if (__builtin_mul_overflow(ca, cb, &C))
        return std::nullopt;
      Product.addTerm(monomialProduct(ma, mb), C, Overflow);
    }
  if (Overflow)
    return std::nullopt;
  return Product;
}

bool Polynomial::isConstant() const {
  return Terms.empty() || (Terms.size() == 1 && Terms.begin()->first.empty());
}

int64_t Polynomial::constantPart() const { return coefficientOf({}); }

int64_t Polynomial::coefficientOf(const Monomial &Mono) const {
  auto It = Terms.find(Mono);
  return It == Terms.end() ? 0 : It->second;
}

bool Polynomial::allCoefficientsDivisibleBy(int64_t D) const {
  if (D == 0)
    return false;
  return std::all_of(Terms.begin(), Terms.end(), [&](const auto &T) { return T.second % D == 0; });
}

Polynomial Polynomial::dividedExactly(int64_t D) const {
  Polynomial Result;
  for (const auto &[mono, c] : Terms)
    Result.Terms.emplace(mono, c / D);
  return Result;
}

namespace {

class Normalizer {
public:
  explicit Normalizer(TermContext &Ctx) : Ctx(Ctx) {}

  Polynomial run(const Term *T) {
    if (auto It = Memo.find(T); It != Memo.end())
      return It->second;
    Polynomial P = compute(T);
    Memo.emplace(T, P);
    return P;
  }

private:
  // A non-polynomial node: normalize what is inside, then it is one atom.
  // If normalizing the inside changes the node into something else (say
  // `(x*2)/2` whose inside is now a multiple of 2), read that instead.
  Polynomial asAtom(const Term *T) {
    if (T->numOperands() == 0)
      return Polynomial::atom(T);
    if (!InProgress.insert(T).second)
      return Polynomial::atom(T);
    std::vector<const Term *> Ops;
    for (const Term *Op : T->operands())
      Ops.push_back(toTerm(Ctx, run(Op)));
    const Term *Rebuilt = Ctx.rebuild(T, Ops);
    Polynomial Result = Rebuilt == T || !Rebuilt ? Polynomial::atom(T) : run(Rebuilt);
    InProgress.erase(T);
    return Result;
  }

  Polynomial orAtom(const Term *T, std::optional<Polynomial> P) {
    return P ? std::move(*P) : asAtom(T);
  }

  Polynomial compute(const Term *T) {
    switch (T->kind()) {
    case TermKind::Constant:
      return Polynomial::constant(T->value());
    case TermKind::Symbol:
      return Polynomial::atom(T);
    case TermKind::Add:
      return orAtom(T, run(T->operand(0)).plus(run(T->operand(1))));
    case TermKind::Sub:
      return orAtom(T, run(T->operand(0)).minus(run(T->operand(1))));
    case TermKind::Mul:
      return orAtom(T, run(T->operand(0)).times(run(T->operand(1))));
    case TermKind::Neg:
      return orAtom(T, run(T->operand(0)).scaled(-1));
    case TermKind::Shl: {
      // Defined C left shifts (non-negative, no overflow) are products.
      const Term *Count = T->operand(1);
      if (Count->isConstant() && Count->value() >= 0 && Count->value() < 31)
        return orAtom(T, run(T->operand(0)).scaled(int64_t(1) << Count->value()));
      return asAtom(T);
    }
    case TermKind::Div:
    case TermKind::Rem: {
      // An exact multiple of d divides exactly under truncation too.
      const Term *Divisor = T->operand(1);
      if (Divisor->isConstant() && Divisor->value() != 0) {
        Polynomial Dividend = run(T->operand(0));
        if (Dividend.allCoefficientsDivisibleBy(Divisor->value()))
          return T->kind() == TermKind::Div ? Dividend.dividedExactly(Divisor->value())
                                            : Polynomial();
      }
      return asAtom(T);
    }
    default:
      return asAtom(T);
    }
  }

  TermContext &Ctx;
  std::unordered_map<const Term *, Polynomial> Memo;
  std::unordered_set<const Term *> InProgress;
};

} // namespace

Polynomial toPolynomial(TermContext &Ctx, const Term *Term) {
  Normalizer Normalizer(Ctx);
  return Normalizer.run(Term);
}

const Term *toTerm(TermContext &Ctx, const Monomial &Mono) {
  const Term *Product = Ctx.constant(1);
  for (const Term *Atom : Mono)
    Product = Ctx.mul(Product, Atom);
  return Product;
}

const Term *toTerm(TermContext &Ctx, const Polynomial &Poly) {
  // Highest degree first, constant last: reads like the kernel's own index.
  const Term *Sum = nullptr;
  int64_t ConstantPart = 0;
  for (auto It = Poly.terms().rbegin(); It != Poly.terms().rend(); ++It) {
    const auto &[mono, c] = *It;
    if (mono.empty()) {
      ConstantPart = c;
      continue;
    }
    const Term *MonoTerm = toTerm(Ctx, mono);
    if (!Sum)
      Sum = Ctx.mul(MonoTerm, Ctx.constant(c));
    else if (c < 0 && c != INT64_MIN)
      Sum = Ctx.sub(Sum, Ctx.mul(MonoTerm, Ctx.constant(-c)));
    else
      Sum = Ctx.add(Sum, Ctx.mul(MonoTerm, Ctx.constant(c)));
  }
  if (!Sum)
    return Ctx.constant(ConstantPart);
  return Ctx.add(Sum, Ctx.constant(ConstantPart));
}

const Term *normalize(TermContext &Ctx, const Term *Term) {
  return toTerm(Ctx, toPolynomial(Ctx, Term));
}

std::string print(const Polynomial &Poly) {
  std::string Out;
  for (auto It = Poly.terms().rbegin(); It != Poly.terms().rend(); ++It) {
    const auto &[mono, c] = *It;
    if (!Out.empty())
      Out += c < 0 ? " - " : " + ";
    else if (c < 0)
      Out += "-";
    int64_t Magnitude = c < 0 ? -c : c;
    bool ShowCoefficient = Magnitude != 1 || mono.empty();
    if (ShowCoefficient)
      Out += std::to_string(Magnitude);
    for (size_t I = 0; I < mono.size(); ++I) {
      if (ShowCoefficient || I > 0)
        Out += "·";
      Out += print(mono[I]);
    }
  }
  return Out.empty() ? "0" : Out;
}

} // namespace ave::inv
