#include "ave/invariants/LayoutMatch.h"

#include <algorithm>

namespace ave::inv {

namespace {

// How many times `atom` occurs in a monomial (monomials are sorted products).
size_t occurrences(const Monomial &Mono, const Term *Atom) {
  return static_cast<size_t>(std::count(Mono.begin(), Mono.end(), Atom));
}

int64_t magnitude(int64_t V) { return V < 0 ? -V : V; }

} // namespace

const Term *LayoutMatcher::addressOf(const TagLayout &Layout) {
  if (Layout.address)
    return Layout.address;
  // Row-major: c0*(B1*B2*...) + c1*(B2*...) + ... + c_last.
  const Term *Address = Ctx.constant(0);
  const Term *Stride = Ctx.constant(1);
  for (auto It = Layout.coordinates.rbegin(); It != Layout.coordinates.rend(); ++It) {
    Address = Ctx.add(Address, Ctx.mul(It->symbol, Stride));
    Stride = Ctx.mul(Stride, It->bound);
  }
  return Address;
}

std::string LayoutMatcher::strideText(const Stride &Stride) {
  return print(Ctx.mul(toTerm(Ctx, Stride.monomial), Ctx.constant(Stride.coefficient)));
}

const LayoutMatcher::Decomposition &LayoutMatcher::decompose(const TagLayout &Layout) {
  std::vector<const Term *> Key{Layout.address};
  for (const LayoutCoordinate &C : Layout.coordinates) {
    Key.push_back(C.symbol);
    Key.push_back(C.bound);
  }
  auto It = Cache.find(Key);
  if (It == Cache.end())
    It = Cache.emplace(std::move(Key), computeDecomposition(Layout)).first;
  return It->second;
}

LayoutMatcher::Decomposition LayoutMatcher::computeDecomposition(const TagLayout &Layout) {
  Decomposition D;
  if (Layout.coordinates.empty()) {
    D.reason = "tag has no coordinates";
    return D;
  }
  Polynomial Address = toPolynomial(Ctx, addressOf(Layout));
  std::vector<bool> Claimed;
  for (const LayoutCoordinate &Coordinate : Layout.coordinates) {
    const std::string Name = print(Coordinate.symbol);
    std::optional<Polynomial> Stride = Polynomial();
    for (const auto &[mono, c] : Address.terms()) {
      size_t Count = occurrences(mono, Coordinate.symbol);
      if (Count == 0)
        continue;
      Monomial Rest = monomialQuotient(mono, {Coordinate.symbol});
      bool OtherCoordinate =
          std::any_of(Layout.coordinates.begin(), Layout.coordinates.end(),
                      [&](const LayoutCoordinate &O) { return occurrences(Rest, O.symbol) != 0; });
      if (Count > 1 || OtherCoordinate) {
        D.reason =
            "layout is not linear in its coordinates: it has the term " + print(toTerm(Ctx, mono));
        return D;
      }
      Stride = Stride->plus(Polynomial::monomial(Rest, c));
      if (!Stride) {
        D.reason = "stride of " + Name + " overflows";
        return D;
      }
    }
    if (Stride->isZero()) {
      D.reason = "coordinate " + Name + " does not occur in the layout";
      return D;
    }
    if (Stride->terms().size() != 1) {
      D.reason = "stride of " + Name + " is not a single product: " + print(toTerm(Ctx, *Stride));
      return D;
    }
    const auto &[mono, c] = *Stride->terms().begin();
    if (c <= 0) {
      D.reason = "stride of " + Name + " is not positive: " + print(toTerm(Ctx, *Stride));
      return D;
    }
    D.strides.push_back({Coordinate.symbol, Coordinate.bound, mono, c});
  }
  for (const auto &[mono, c] : Address.terms()) {
    bool HasCoordinate = std::any_of(
        Layout.coordinates.begin(), Layout.coordinates.end(),
        [&, &M = mono](const LayoutCoordinate &O) { return occurrences(M, O.symbol) != 0; });
    if (!HasCoordinate)
      D.offset = *D.offset.plus(Polynomial::monomial(mono, c));
  }
  // Largest stride first; ties keep declaration order (reported below).
  // (std::sort with an explicit tie-break: stable_sort trips clang's
  // deprecation warning inside libstdc++ 12.)
  std::vector<size_t> Order(D.strides.size());
  for (size_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  std::sort(Order.begin(), Order.end(), [&](size_t I, size_t J) {
    const Stride &A = D.strides[I], &B = D.strides[J];
    if (A.monomial.size() != B.monomial.size())
      return A.monomial.size() > B.monomial.size();
    if (magnitude(A.coefficient) != magnitude(B.coefficient))
      return magnitude(A.coefficient) > magnitude(B.coefficient);
    return I < J;
  });
  std::vector<Stride> Sorted;
  for (size_t I : Order)
    Sorted.push_back(D.strides[I]);
  D.strides = std::move(Sorted);
  // Greedy extraction is only meaningful along a chain of strides, each one
  // dividing the next larger (M*K ⊃ K ⊃ 1, or 64 > 1).
  for (size_t I = 0; I + 1 < D.strides.size(); ++I) {
    const Stride &Larger = D.strides[I], &Smaller = D.strides[I + 1];
    if (Larger.monomial == Smaller.monomial && Larger.coefficient == Smaller.coefficient) {
      D.reason = "coordinates " + print(Larger.coordinate) + " and " + print(Smaller.coordinate) +
                 " have the same stride " + strideText(Larger);
      return D;
    }
    if (!monomialDivides(Smaller.monomial, Larger.monomial)) {
      D.reason = "strides " + strideText(Larger) + " and " + strideText(Smaller) +
                 " are not ordered (neither divides the other)";
      return D;
    }
  }
  D.valid = true;
  return D;
}

void LayoutMatcher::addBoundConditions(LayoutMatchResult &Result, const Stride &Stride,
                                       const Term *Value) {
  for (const Term *Condition : {Ctx.le(Ctx.constant(0), Value), Ctx.lt(Value, Stride.bound)}) {
    if (Condition->isConstant(1))
      continue;
    Result.sideConditions.push_back(Condition);
  }
}

LayoutMatchResult LayoutMatcher::matchCoefficients(const Decomposition &D, const Polynomial &Index,
                                                   bool ConstantsLow) {
  LayoutMatchResult Result;
  std::optional<Polynomial> Remainder = Index.minus(D.offset);
  if (!Remainder) {
    Result.reason = "index coefficients overflow";
    return Result;
  }
  for (size_t I = 0; I < D.strides.size(); ++I) {
    const Stride &Stride = D.strides[I];
    bool Last = I + 1 == D.strides.size();
    bool UnitStride = Stride.monomial.empty() && Stride.coefficient == 1;
    Polynomial Part, Rest;
    for (const auto &[mono, c] : Remainder->terms()) {
      bool Takes = (Last && UnitStride) ||
                   (monomialDivides(Stride.monomial, mono) && c % Stride.coefficient == 0 &&
                    !(ConstantsLow && !Last && !Stride.monomial.empty() &&
                      monomialQuotient(mono, Stride.monomial).empty()));
      if (Takes)
        Part = *Part.plus(
            Polynomial::monomial(monomialQuotient(mono, Stride.monomial), c / Stride.coefficient));
      else
        Rest = *Rest.plus(Polynomial::monomial(mono, c));
    }
    if (Part.isZero() && !Stride.monomial.empty()) {
      Result.reason = "index term has no " + strideText(Stride) + "-stride part (coordinate " +
                      print(Stride.coordinate) + ")";
      return Result;
    }
    const Term *Value = toTerm(Ctx, Part);
    Result.coordinates[Stride.coordinate] = Value;
    addBoundConditions(Result, Stride, Value);
    Remainder = Rest;
  }
  if (!Remainder->isZero()) {
    Result.reason = "index part " + print(toTerm(Ctx, *Remainder)) +
                    " is not a multiple of the smallest stride " + strideText(D.strides.back());
    Result.coordinates.clear();
    Result.sideConditions.clear();
    return Result;
  }
  Result.matched = true;
  return Result;
}

LayoutMatchResult LayoutMatcher::matchDivision(const Decomposition &D, const Polynomial &Index) {
  LayoutMatchResult Result;
  std::optional<Polynomial> Relative = Index.minus(D.offset);
  if (!Relative) {
    Result.reason = "index coefficients overflow";
    return Result;
  }
  const Term *Remainder = toTerm(Ctx, *Relative);
  // Truncating `/` and `%` are the mixed-radix digits only for a
  // non-negative remainder.
  const Term *NonNegative = Ctx.le(Ctx.constant(0), Remainder);
  if (NonNegative->isConstant(0)) {
    Result.reason = "index " + print(Remainder) + " is before the start of the tensor";
    return Result;
  }
  if (!NonNegative->isConstant(1))
    Result.sideConditions.push_back(NonNegative);
  for (size_t I = 0; I < D.strides.size(); ++I) {
    const Stride &Stride = D.strides[I];
    bool Last = I + 1 == D.strides.size();
    const Term *StrideTerm =
        Ctx.mul(toTerm(Ctx, Stride.monomial), Ctx.constant(Stride.coefficient));
    const Term *Value = Ctx.div(Remainder, StrideTerm);
    Remainder = Ctx.rem(Remainder, StrideTerm);
    if (Last && !Remainder->isConstant(0))
      Result.sideConditions.push_back(Ctx.eq(Remainder, Ctx.constant(0)));
    Value = normalize(Ctx, Value);
    Result.coordinates[Stride.coordinate] = Value;
    addBoundConditions(Result, Stride, Value);
  }
  Result.matched = true;
  return Result;
}

LayoutMatchResult LayoutMatcher::match(const TagLayout &Layout, const Term *Index,
                                       LayoutMatchStrategy Strategy) {
  const Decomposition &D = decompose(Layout);
  if (!D.valid) {
    LayoutMatchResult Result;
    Result.reason = D.reason;
    return Result;
  }
  Polynomial IndexPoly = toPolynomial(Ctx, Index);
  if (Strategy == LayoutMatchStrategy::Division)
    return matchDivision(D, IndexPoly);
  return matchCoefficients(D, IndexPoly, Strategy == LayoutMatchStrategy::CoefficientsLowConstants);
}

} // namespace ave::inv
