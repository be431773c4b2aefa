#include "ave/invariants/LayoutMatch.h"

#include <algorithm>

namespace ave::inv {

namespace {

// How many times `atom` occurs in a monomial (monomials are sorted products).
size_t occurrences(const Monomial &mono, const Term *atom) {
  return static_cast<size_t>(std::count(mono.begin(), mono.end(), atom));
}

int64_t magnitude(int64_t v) { return v < 0 ? -v : v; }

} // namespace

const Term *LayoutMatcher::addressOf(const TagLayout &layout) {
  if (layout.address)
    return layout.address;
  // Row-major: c0*(B1*B2*...) + c1*(B2*...) + ... + c_last.
  const Term *address = Ctx.constant(0);
  const Term *stride = Ctx.constant(1);
  for (auto it = layout.coordinates.rbegin(); it != layout.coordinates.rend(); ++it) {
    address = Ctx.add(address, Ctx.mul(it->symbol, stride));
    stride = Ctx.mul(stride, it->bound);
  }
  return address;
}

std::string LayoutMatcher::strideText(const Stride &stride) {
  return print(Ctx.mul(toTerm(Ctx, stride.monomial), Ctx.constant(stride.coefficient)));
}

const LayoutMatcher::Decomposition &LayoutMatcher::decompose(const TagLayout &layout) {
  std::vector<const Term *> key{layout.address};
  for (const LayoutCoordinate &c : layout.coordinates) {
    key.push_back(c.symbol);
    key.push_back(c.bound);
  }
  auto it = Cache.find(key);
  if (it == Cache.end())
    it = Cache.emplace(std::move(key), computeDecomposition(layout)).first;
  return it->second;
}

LayoutMatcher::Decomposition LayoutMatcher::computeDecomposition(const TagLayout &layout) {
  Decomposition d;
  if (layout.coordinates.empty()) {
    d.reason = "tag has no coordinates";
    return d;
  }
  Polynomial address = toPolynomial(Ctx, addressOf(layout));
  std::vector<bool> claimed;
  for (const LayoutCoordinate &coordinate : layout.coordinates) {
    const std::string name = print(coordinate.symbol);
    std::optional<Polynomial> stride = Polynomial();
    for (const auto &[mono, c] : address.terms()) {
      size_t count = occurrences(mono, coordinate.symbol);
      if (count == 0)
        continue;
      Monomial rest = monomialQuotient(mono, {coordinate.symbol});
      bool otherCoordinate =
          std::any_of(layout.coordinates.begin(), layout.coordinates.end(),
                      [&](const LayoutCoordinate &o) { return occurrences(rest, o.symbol) != 0; });
      if (count > 1 || otherCoordinate) {
        d.reason =
            "layout is not linear in its coordinates: it has the term " + print(toTerm(Ctx, mono));
        return d;
      }
      stride = stride->plus(Polynomial::monomial(rest, c));
      if (!stride) {
        d.reason = "stride of " + name + " overflows";
        return d;
      }
    }
    if (stride->isZero()) {
      d.reason = "coordinate " + name + " does not occur in the layout";
      return d;
    }
    if (stride->terms().size() != 1) {
      d.reason = "stride of " + name + " is not a single product: " + print(toTerm(Ctx, *stride));
      return d;
    }
    const auto &[mono, c] = *stride->terms().begin();
    if (c <= 0) {
      d.reason = "stride of " + name + " is not positive: " + print(toTerm(Ctx, *stride));
      return d;
    }
    d.strides.push_back({coordinate.symbol, coordinate.bound, mono, c});
  }
  for (const auto &[mono, c] : address.terms()) {
    bool hasCoordinate = std::any_of(
        layout.coordinates.begin(), layout.coordinates.end(),
        [&, &m = mono](const LayoutCoordinate &o) { return occurrences(m, o.symbol) != 0; });
    if (!hasCoordinate)
      d.offset = *d.offset.plus(Polynomial::monomial(mono, c));
  }
  // Largest stride first; ties keep declaration order (reported below).
  // (std::sort with an explicit tie-break: stable_sort trips clang's
  // deprecation warning inside libstdc++ 12.)
  std::vector<size_t> order(d.strides.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t i, size_t j) {
    const Stride &a = d.strides[i], &b = d.strides[j];
    if (a.monomial.size() != b.monomial.size())
      return a.monomial.size() > b.monomial.size();
    if (magnitude(a.coefficient) != magnitude(b.coefficient))
      return magnitude(a.coefficient) > magnitude(b.coefficient);
    return i < j;
  });
  std::vector<Stride> sorted;
  for (size_t i : order)
    sorted.push_back(d.strides[i]);
  d.strides = std::move(sorted);
  // Greedy extraction is only meaningful along a chain of strides, each one
  // dividing the next larger (M*K ⊃ K ⊃ 1, or 64 > 1).
  for (size_t i = 0; i + 1 < d.strides.size(); ++i) {
    const Stride &larger = d.strides[i], &smaller = d.strides[i + 1];
    if (larger.monomial == smaller.monomial && larger.coefficient == smaller.coefficient) {
      d.reason = "coordinates " + print(larger.coordinate) + " and " + print(smaller.coordinate) +
                 " have the same stride " + strideText(larger);
      return d;
    }
    if (!monomialDivides(smaller.monomial, larger.monomial)) {
      d.reason = "strides " + strideText(larger) + " and " + strideText(smaller) +
                 " are not ordered (neither divides the other)";
      return d;
    }
  }
  d.valid = true;
  return d;
}

void LayoutMatcher::addBoundConditions(LayoutMatchResult &result, const Stride &stride,
                                       const Term *value) {
  for (const Term *condition : {Ctx.le(Ctx.constant(0), value), Ctx.lt(value, stride.bound)}) {
    if (condition->isConstant(1))
      continue;
    result.sideConditions.push_back(condition);
  }
}

LayoutMatchResult LayoutMatcher::matchCoefficients(const Decomposition &d,
                                                   const Polynomial &index) {
  LayoutMatchResult result;
  std::optional<Polynomial> remainder = index.minus(d.offset);
  if (!remainder) {
    result.reason = "index coefficients overflow";
    return result;
  }
  for (size_t i = 0; i < d.strides.size(); ++i) {
    const Stride &stride = d.strides[i];
    bool last = i + 1 == d.strides.size();
    bool unitStride = stride.monomial.empty() && stride.coefficient == 1;
    Polynomial part, rest;
    for (const auto &[mono, c] : remainder->terms()) {
      bool takes = (last && unitStride) ||
                   (monomialDivides(stride.monomial, mono) && c % stride.coefficient == 0);
      if (takes)
        part = *part.plus(
            Polynomial::monomial(monomialQuotient(mono, stride.monomial), c / stride.coefficient));
      else
        rest = *rest.plus(Polynomial::monomial(mono, c));
    }
    if (part.isZero() && !stride.monomial.empty()) {
      result.reason = "index term has no " + strideText(stride) + "-stride part (coordinate " +
                      print(stride.coordinate) + ")";
      return result;
    }
    const Term *value = toTerm(Ctx, part);
    result.coordinates[stride.coordinate] = value;
    addBoundConditions(result, stride, value);
    remainder = rest;
  }
  if (!remainder->isZero()) {
    result.reason = "index part " + print(toTerm(Ctx, *remainder)) +
                    " is not a multiple of the smallest stride " + strideText(d.strides.back());
    result.coordinates.clear();
    result.sideConditions.clear();
    return result;
  }
  result.matched = true;
  return result;
}

LayoutMatchResult LayoutMatcher::matchDivision(const Decomposition &d, const Polynomial &index) {
  LayoutMatchResult result;
  std::optional<Polynomial> relative = index.minus(d.offset);
  if (!relative) {
    result.reason = "index coefficients overflow";
    return result;
  }
  const Term *remainder = toTerm(Ctx, *relative);
  // Truncating `/` and `%` are the mixed-radix digits only for a
  // non-negative remainder.
  const Term *nonNegative = Ctx.le(Ctx.constant(0), remainder);
  if (nonNegative->isConstant(0)) {
    result.reason = "index " + print(remainder) + " is before the start of the tensor";
    return result;
  }
  if (!nonNegative->isConstant(1))
    result.sideConditions.push_back(nonNegative);
  for (size_t i = 0; i < d.strides.size(); ++i) {
    const Stride &stride = d.strides[i];
    bool last = i + 1 == d.strides.size();
    const Term *strideTerm =
        Ctx.mul(toTerm(Ctx, stride.monomial), Ctx.constant(stride.coefficient));
    const Term *value = Ctx.div(remainder, strideTerm);
    remainder = Ctx.rem(remainder, strideTerm);
    if (last && !remainder->isConstant(0))
      result.sideConditions.push_back(Ctx.eq(remainder, Ctx.constant(0)));
    value = normalize(Ctx, value);
    result.coordinates[stride.coordinate] = value;
    addBoundConditions(result, stride, value);
  }
  result.matched = true;
  return result;
}

LayoutMatchResult LayoutMatcher::match(const TagLayout &layout, const Term *index,
                                       LayoutMatchStrategy strategy) {
  const Decomposition &d = decompose(layout);
  if (!d.valid) {
    LayoutMatchResult result;
    result.reason = d.reason;
    return result;
  }
  Polynomial indexPoly = toPolynomial(Ctx, index);
  return strategy == LayoutMatchStrategy::Coefficients ? matchCoefficients(d, indexPoly)
                                                       : matchDivision(d, indexPoly);
}

} // namespace ave::inv
