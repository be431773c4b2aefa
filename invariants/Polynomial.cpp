#include "ave/invariants/Polynomial.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace ave::inv {

bool MonomialLess::operator()(const Monomial &a, const Monomial &b) const {
  if (a.size() != b.size())
    return a.size() < b.size();
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i])
      return a[i]->id() < b[i]->id();
  return false;
}

namespace {

bool atomBefore(const Term *a, const Term *b) { return a->id() < b->id(); }

} // namespace

Monomial monomialProduct(const Monomial &a, const Monomial &b) {
  Monomial product;
  product.reserve(a.size() + b.size());
  std::merge(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(product), atomBefore);
  return product;
}

bool monomialDivides(const Monomial &divisor, const Monomial &mono) {
  return std::includes(mono.begin(), mono.end(), divisor.begin(), divisor.end(), atomBefore);
}

Monomial monomialQuotient(const Monomial &mono, const Monomial &divisor) {
  Monomial quotient;
  std::set_difference(mono.begin(), mono.end(), divisor.begin(), divisor.end(),
                      std::back_inserter(quotient), atomBefore);
  return quotient;
}

Polynomial Polynomial::constant(int64_t value) { return monomial({}, value); }

Polynomial Polynomial::atom(const Term *atom) { return monomial({atom}, 1); }

Polynomial Polynomial::monomial(Monomial mono, int64_t coefficient) {
  Polynomial p;
  std::sort(mono.begin(), mono.end(), atomBefore);
  if (coefficient != 0)
    p.Terms.emplace(std::move(mono), coefficient);
  return p;
}

void Polynomial::addTerm(const Monomial &mono, int64_t coefficient, bool &overflow) {
  auto [it, inserted] = Terms.emplace(mono, coefficient);
  if (!inserted && __builtin_add_overflow(it->second, coefficient, &it->second))
    overflow = true;
  if (it->second == 0)
    Terms.erase(it);
}

std::optional<Polynomial> Polynomial::plus(const Polynomial &other) const {
  Polynomial sum = *this;
  bool overflow = false;
  for (const auto &[mono, c] : other.Terms)
    sum.addTerm(mono, c, overflow);
  if (overflow)
    return std::nullopt;
  return sum;
}

std::optional<Polynomial> Polynomial::minus(const Polynomial &other) const {
  auto negated = other.scaled(-1);
  if (!negated)
    return std::nullopt;
  return plus(*negated);
}

std::optional<Polynomial> Polynomial::scaled(int64_t factor) const {
  Polynomial result;
  if (factor == 0)
    return result;
  for (const auto &[mono, c] : Terms) {
    int64_t product;
    if (__builtin_mul_overflow(c, factor, &product))
      return std::nullopt;
    result.Terms.emplace(mono, product);
  }
  return result;
}

std::optional<Polynomial> Polynomial::times(const Polynomial &other) const {
  Polynomial product;
  bool overflow = false;
  for (const auto &[ma, ca] : Terms)
    for (const auto &[mb, cb] : other.Terms) {
      int64_t c;
      if (__builtin_mul_overflow(ca, cb, &c))
        return std::nullopt;
      product.addTerm(monomialProduct(ma, mb), c, overflow);
    }
  if (overflow)
    return std::nullopt;
  return product;
}

bool Polynomial::isConstant() const {
  return Terms.empty() || (Terms.size() == 1 && Terms.begin()->first.empty());
}

int64_t Polynomial::constantPart() const { return coefficientOf({}); }

int64_t Polynomial::coefficientOf(const Monomial &mono) const {
  auto it = Terms.find(mono);
  return it == Terms.end() ? 0 : it->second;
}

bool Polynomial::allCoefficientsDivisibleBy(int64_t d) const {
  if (d == 0)
    return false;
  return std::all_of(Terms.begin(), Terms.end(), [&](const auto &t) { return t.second % d == 0; });
}

Polynomial Polynomial::dividedExactly(int64_t d) const {
  Polynomial result;
  for (const auto &[mono, c] : Terms)
    result.Terms.emplace(mono, c / d);
  return result;
}

namespace {

class Normalizer {
public:
  explicit Normalizer(TermContext &ctx) : Ctx(ctx) {}

  Polynomial run(const Term *t) {
    if (auto it = Memo.find(t); it != Memo.end())
      return it->second;
    Polynomial p = compute(t);
    Memo.emplace(t, p);
    return p;
  }

private:
  // A non-polynomial node: normalize what is inside, then it is one atom.
  // If normalizing the inside changes the node into something else (say
  // `(x*2)/2` whose inside is now a multiple of 2), read that instead.
  Polynomial asAtom(const Term *t) {
    if (t->numOperands() == 0)
      return Polynomial::atom(t);
    if (!InProgress.insert(t).second)
      return Polynomial::atom(t);
    std::vector<const Term *> ops;
    for (const Term *op : t->operands())
      ops.push_back(toTerm(Ctx, run(op)));
    const Term *rebuilt = Ctx.rebuild(t, ops);
    Polynomial result = rebuilt == t || !rebuilt ? Polynomial::atom(t) : run(rebuilt);
    InProgress.erase(t);
    return result;
  }

  Polynomial orAtom(const Term *t, std::optional<Polynomial> p) {
    return p ? std::move(*p) : asAtom(t);
  }

  Polynomial compute(const Term *t) {
    switch (t->kind()) {
    case TermKind::Constant:
      return Polynomial::constant(t->value());
    case TermKind::Symbol:
      return Polynomial::atom(t);
    case TermKind::Add:
      return orAtom(t, run(t->operand(0)).plus(run(t->operand(1))));
    case TermKind::Sub:
      return orAtom(t, run(t->operand(0)).minus(run(t->operand(1))));
    case TermKind::Mul:
      return orAtom(t, run(t->operand(0)).times(run(t->operand(1))));
    case TermKind::Neg:
      return orAtom(t, run(t->operand(0)).scaled(-1));
    case TermKind::Shl: {
      // Defined C left shifts (non-negative, no overflow) are products.
      const Term *count = t->operand(1);
      if (count->isConstant() && count->value() >= 0 && count->value() < 31)
        return orAtom(t, run(t->operand(0)).scaled(int64_t(1) << count->value()));
      return asAtom(t);
    }
    case TermKind::Div:
    case TermKind::Rem: {
      // An exact multiple of d divides exactly under truncation too.
      const Term *divisor = t->operand(1);
      if (divisor->isConstant() && divisor->value() != 0) {
        Polynomial dividend = run(t->operand(0));
        if (dividend.allCoefficientsDivisibleBy(divisor->value()))
          return t->kind() == TermKind::Div ? dividend.dividedExactly(divisor->value())
                                            : Polynomial();
      }
      return asAtom(t);
    }
    default:
      return asAtom(t);
    }
  }

  TermContext &Ctx;
  std::unordered_map<const Term *, Polynomial> Memo;
  std::unordered_set<const Term *> InProgress;
};

} // namespace

Polynomial toPolynomial(TermContext &ctx, const Term *term) {
  Normalizer normalizer(ctx);
  return normalizer.run(term);
}

const Term *toTerm(TermContext &ctx, const Monomial &mono) {
  const Term *product = ctx.constant(1);
  for (const Term *atom : mono)
    product = ctx.mul(product, atom);
  return product;
}

const Term *toTerm(TermContext &ctx, const Polynomial &poly) {
  // Highest degree first, constant last: reads like the kernel's own index.
  const Term *sum = nullptr;
  int64_t constantPart = 0;
  for (auto it = poly.terms().rbegin(); it != poly.terms().rend(); ++it) {
    const auto &[mono, c] = *it;
    if (mono.empty()) {
      constantPart = c;
      continue;
    }
    const Term *monoTerm = toTerm(ctx, mono);
    if (!sum)
      sum = ctx.mul(monoTerm, ctx.constant(c));
    else if (c < 0 && c != INT64_MIN)
      sum = ctx.sub(sum, ctx.mul(monoTerm, ctx.constant(-c)));
    else
      sum = ctx.add(sum, ctx.mul(monoTerm, ctx.constant(c)));
  }
  if (!sum)
    return ctx.constant(constantPart);
  return ctx.add(sum, ctx.constant(constantPart));
}

const Term *normalize(TermContext &ctx, const Term *term) {
  return toTerm(ctx, toPolynomial(ctx, term));
}

std::string print(const Polynomial &poly) {
  std::string out;
  for (auto it = poly.terms().rbegin(); it != poly.terms().rend(); ++it) {
    const auto &[mono, c] = *it;
    if (!out.empty())
      out += c < 0 ? " - " : " + ";
    else if (c < 0)
      out += "-";
    int64_t magnitude = c < 0 ? -c : c;
    bool showCoefficient = magnitude != 1 || mono.empty();
    if (showCoefficient)
      out += std::to_string(magnitude);
    for (size_t i = 0; i < mono.size(); ++i) {
      if (showCoefficient || i > 0)
        out += "·";
      out += print(mono[i]);
    }
  }
  return out.empty() ? "0" : out;
}

} // namespace ave::inv
