#include "ave/invariants/RangeSimplifier.h"

#include "ave/invariants/Polynomial.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <set>

namespace ave::inv {

namespace {

constexpr int64_t IntMin = std::numeric_limits<int32_t>::min();
constexpr int64_t IntMax = std::numeric_limits<int32_t>::max();

std::optional<Interval> clampToInt(int64_t Lo, int64_t Hi) {
  if (Lo < IntMin || Hi > IntMax || Lo > Hi)
    return std::nullopt;
  return Interval{Lo, Hi};
}

// What a fact can bound directly: a symbol, or a quotient or remainder
// (`elem % 4 >= 0` from a folded slot's domain bounds that remainder where
// its dividend is unbounded).
bool boundable(const Term *T) {
  return T->isSymbol() || T->kind() == TermKind::Div || T->kind() == TermKind::Rem;
}

// The addends of T's top-level sum (1 for anything else).
size_t summands(const Term *T) {
  if (T->kind() != TermKind::Add)
    return 1;
  size_t N = 0;
  for (const Term *Op : T->operands())
    N += summands(Op);
  return N;
}

} // namespace

void RangeSimplifier::tighten(const Term *Sym, std::optional<int64_t> Lo,
                              std::optional<int64_t> Hi) {
  auto It = Bounds.find(Sym);
  Interval I = It == Bounds.end() ? Interval{IntMin, IntMax} : It->second;
  if (Lo)
    I.lo = std::max(I.lo, *Lo);
  if (Hi)
    I.hi = std::min(I.hi, *Hi);
  if (I.lo <= I.hi)
    Bounds[Sym] = I;
  Memo.clear();
}

void RangeSimplifier::addFacts(const Term *Fact) {
  std::vector<const Term *> Conjuncts;
  collectConjuncts(Fact, Conjuncts);
  Sources.insert(Conjuncts.begin(), Conjuncts.end());
  // Two rounds: a bound like `tid < blockDim.x` is usable once blockDim.x
  // is pinned by `blockDim.x == 64`.
  for (int Round = 0; Round < 2; ++Round) {
    for (const Term *C : Conjuncts) {
      if (C->numOperands() != 2)
        continue;
      if (boundLinear(C))
        continue;
      const Term *A = C->operand(0), *B = C->operand(1);
      // A symbol's interval so far bounds the other side too (`blockIdx.y <
      // gridDim.y` once gridDim.y is known to be at most M / 16).
      std::optional<Interval> IA = interval(A);
      std::optional<Interval> IB = interval(B);
      switch (C->kind()) {
      case TermKind::Lt: // A < B
        if (boundable(A) && IB)
          tighten(A, std::nullopt, IB->hi - 1);
        if (boundable(B) && IA)
          tighten(B, IA->lo + 1, std::nullopt);
        break;
      case TermKind::Le:
        if (boundable(A) && IB)
          tighten(A, std::nullopt, IB->hi);
        if (boundable(B) && IA)
          tighten(B, IA->lo, std::nullopt);
        break;
      case TermKind::Gt: // A > B
        if (boundable(A) && IB)
          tighten(A, IB->lo + 1, std::nullopt);
        if (boundable(B) && IA)
          tighten(B, std::nullopt, IA->hi - 1);
        break;
      case TermKind::Ge:
        if (boundable(A) && IB)
          tighten(A, IB->lo, std::nullopt);
        if (boundable(B) && IA)
          tighten(B, std::nullopt, IA->hi);
        break;
      case TermKind::Eq:
        if (A->isSymbol() && IB)
          tighten(A, IB->lo, IB->hi);
        if (B->isSymbol() && IA)
          tighten(B, IA->lo, IA->hi);
        if (IB)
          boundDividend(A, *IB);
        if (IA)
          boundDividend(B, *IA);
        break;
      default:
        break;
      }
    }
  }
}

void RangeSimplifier::boundDividend(const Term *Quotient, Interval I) {
  // `gridDim.y == M / 16` with gridDim.y >= 1: M >= 16 (truncation keeps
  // S / C >= lo > 0 exactly for S >= lo * C, and S / C <= hi >= 0 for S <=
  // hi * C + C - 1).
  if (Quotient->kind() != TermKind::Div || !Quotient->operand(0)->isSymbol() ||
      !Quotient->operand(1)->isConstant() || Quotient->operand(1)->value() <= 0)
    return;
  const Term *S = Quotient->operand(0);
  int64_t C = Quotient->operand(1)->value();
  std::optional<int64_t> Lo, Hi;
  if (I.lo > 0)
    Lo = I.lo * C;
  if (I.hi >= 0)
    Hi = I.hi * C + C - 1;
  tighten(S, Lo, Hi);
}

bool RangeSimplifier::boundLinear(const Term *C) {
  // `t - 1 < 0`, `k0 + 16 <= K`-style facts: A op B with A - B == a*S + c,
  // a = +-1 and S a symbol, bounds S.
  TermKind K = C->kind();
  if (K != TermKind::Lt && K != TermKind::Le && K != TermKind::Gt && K != TermKind::Ge &&
      K != TermKind::Eq)
    return false;
  if (C->operand(0)->isSymbol() && C->operand(1)->isConstant())
    return false; // the plain form, handled by the caller
  std::optional<Polynomial> Diff =
      toPolynomial(Ctx, C->operand(0)).minus(toPolynomial(Ctx, C->operand(1)));
  if (!Diff)
    return false;
  const Term *Sym = nullptr;
  int64_t A = 0;
  for (const auto &[Mono, Coeff] : Diff->terms()) {
    if (Mono.empty())
      continue;
    if (Sym || Mono.size() != 1 || !Mono[0]->isSymbol() || (Coeff != 1 && Coeff != -1))
      return false;
    Sym = Mono[0];
    A = Coeff;
  }
  if (!Sym)
    return false;
  int64_t Const = Diff->constantPart(); // A*S + Const  op  0
  // Normalize to S op' V.
  int64_t V = A == 1 ? -Const : Const;
  bool Flip = A == -1;
  auto Op = K;
  if (Flip)
    Op = K == TermKind::Lt   ? TermKind::Gt
         : K == TermKind::Le ? TermKind::Ge
         : K == TermKind::Gt ? TermKind::Lt
         : K == TermKind::Ge ? TermKind::Le
                             : K;
  switch (Op) {
  case TermKind::Lt:
    tighten(Sym, std::nullopt, V - 1);
    break;
  case TermKind::Le:
    tighten(Sym, std::nullopt, V);
    break;
  case TermKind::Gt:
    tighten(Sym, V + 1, std::nullopt);
    break;
  case TermKind::Ge:
    tighten(Sym, V, std::nullopt);
    break;
  case TermKind::Eq:
    tighten(Sym, V, V);
    break;
  default:
    return false;
  }
  return true;
}

TermKeyed<int64_t> RangeSimplifier::pinned() const {
  TermKeyed<int64_t> Out;
  for (const auto &[Sym, I] : Bounds)
    if (I.lo == I.hi && Sym->isSymbol())
      Out[Sym] = I.lo;
  return Out;
}

// The interval of a quotient or remainder from its operands.
std::optional<Interval> RangeSimplifier::quotientInterval(const Term *T) {
  const Term *D = T->operand(1);
  std::optional<Interval> X = interval(T->operand(0));
  // A remainder by a positive constant lies strictly between -C and C,
  // whatever the dividend.
  if (!X && T->kind() == TermKind::Rem && D->isConstant() && D->value() > 0)
    return Interval{1 - D->value(), D->value() - 1};
  if (!X)
    return std::nullopt;
  if (!D->isConstant()) {
    // `blockIdx.y / H` with blockIdx.y >= 0 and H >= 1: between the
    // extremes of the quotient; the remainder below both.
    std::optional<Interval> Y = interval(D);
    if (!Y || Y->lo < 1 || X->lo < 0)
      return std::nullopt;
    if (T->kind() == TermKind::Div)
      return Interval{X->lo / Y->hi, X->hi / Y->lo};
    return Interval{0, std::min(X->hi, Y->hi - 1)};
  }
  if (D->value() <= 0)
    return std::nullopt;
  int64_t C = D->value();
  // Truncating division by a positive constant is monotonic, negative
  // dividends included (`M / 16` with M only bounded above).
  if (T->kind() == TermKind::Div)
    return Interval{X->lo / C, X->hi / C};
  if (X->lo < 0) // C's remainder takes the dividend's sign
    return Interval{std::max(X->lo, 1 - C), X->hi > 0 ? std::min(X->hi, C - 1) : 0};
  return X->hi < C ? *X : Interval{0, C - 1};
}

std::optional<Interval> RangeSimplifier::interval(const Term *T) {
  switch (T->kind()) {
  case TermKind::Constant:
    return Interval{T->value(), T->value()};
  case TermKind::Symbol: {
    auto It = Bounds.find(T);
    if (It == Bounds.end())
      return std::nullopt;
    return It->second;
  }
  case TermKind::Add:
  case TermKind::Sub: {
    std::optional<Interval> Acc = interval(T->operand(0));
    for (size_t I = 1; Acc && I < T->numOperands(); ++I) {
      std::optional<Interval> R = interval(T->operand(I));
      if (!R)
        return std::nullopt;
      Acc = T->kind() == TermKind::Add ? clampToInt(Acc->lo + R->lo, Acc->hi + R->hi)
                                       : clampToInt(Acc->lo - R->hi, Acc->hi - R->lo);
    }
    return Acc;
  }
  case TermKind::Mul: {
    std::optional<Interval> Acc = interval(T->operand(0));
    for (size_t I = 1; Acc && I < T->numOperands(); ++I) {
      std::optional<Interval> R = interval(T->operand(I));
      if (!R)
        return std::nullopt;
      int64_t P[] = {Acc->lo * R->lo, Acc->lo * R->hi, Acc->hi * R->lo, Acc->hi * R->hi};
      Acc = clampToInt(*std::min_element(P, P + 4), *std::max_element(P, P + 4));
    }
    return Acc;
  }
  case TermKind::Neg: {
    std::optional<Interval> I = interval(T->operand(0));
    return I ? clampToInt(-I->hi, -I->lo) : std::nullopt;
  }
  case TermKind::Div:
  case TermKind::Rem: {
    std::optional<Interval> Computed = quotientInterval(T);
    auto Fact = Bounds.find(T);
    if (Fact == Bounds.end())
      return Computed;
    if (!Computed)
      return Fact->second;
    Interval Both{std::max(Computed->lo, Fact->second.lo), std::min(Computed->hi, Fact->second.hi)};
    return Both.lo <= Both.hi ? std::optional<Interval>(Both) : Computed;
  }
  case TermKind::Select: {
    std::optional<Interval> A = interval(T->operand(1)), B = interval(T->operand(2));
    if (!A || !B)
      return std::nullopt;
    return Interval{std::min(A->lo, B->lo), std::max(A->hi, B->hi)};
  }
  default:
    if (isComparison(T->kind()) || T->kind() == TermKind::LogicalAnd ||
        T->kind() == TermKind::LogicalOr || T->kind() == TermKind::LogicalNot ||
        T->kind() == TermKind::Overflows)
      return Interval{0, 1};
    return std::nullopt;
  }
}

// P as the summands whose coefficient C divides and the rest, or nullopt
// when a sum overflows.
static std::optional<std::pair<Polynomial, Polynomial>> splitByMultiples(const Polynomial &P,
                                                                         int64_t C) {
  Polynomial Multiple, Rest;
  for (const auto &[Mono, Coeff] : P.terms()) {
    Polynomial &Part = Coeff % C == 0 ? Multiple : Rest;
    std::optional<Polynomial> Sum = Part.plus(Polynomial::monomial(Mono, Coeff));
    if (!Sum)
      return std::nullopt;
    Part = *Sum;
  }
  return std::make_pair(std::move(Multiple), std::move(Rest));
}

// `a*x - a*(x % c)` in P as `a*c*(x / c)` (the same number: truncation
// keeps x = c*(x / c) + x % c), where a*c and C share a factor: a warp's
// first thread `8*tid - 8*(tid % 16)` is then a multiple of 128 that
// splitByMultiples (or byLowerDigit, for a factor of C) sees, and whose
// interval the pair no longer widens below zero.
static Polynomial regroupRemainders(TermContext &Ctx, const Polynomial &P, int64_t C) {
  Polynomial Out = P;
  for (const auto &[Mono, Coeff] : P.terms()) {
    if (Mono.size() != 1 || Mono[0]->kind() != TermKind::Rem ||
        !Mono[0]->operand(1)->isConstant() || Mono[0]->operand(1)->value() <= 0)
      continue;
    const Term *X = Mono[0]->operand(0);
    const int64_t Divisor = Mono[0]->operand(1)->value();
    Polynomial XP = toPolynomial(Ctx, X);
    if (XP.terms().size() != 1 || XP.terms().begin()->second != 1)
      continue;
    const Monomial &XMono = XP.terms().begin()->first;
    const int64_t A = -Coeff;
    if (Out.coefficientOf(XMono) != A || A == 0 || std::gcd(A * Divisor, C) == 1)
      continue;
    std::optional<Polynomial> Quotient =
        toPolynomial(Ctx, Ctx.div(X, Ctx.constant(Divisor))).scaled(A * Divisor);
    std::optional<Polynomial> Next = Out.minus(Polynomial::monomial(XMono, A));
    if (Next)
      Next = Next->minus(Polynomial::monomial(Mono, Coeff));
    if (Next && Quotient)
      Next = Next->plus(*Quotient);
    if (Next && Quotient)
      Out = *Next;
  }
  return Out;
}

const Term *RangeSimplifier::divRem(const Term *T) {
  const Term *X = T->operand(0), *D = T->operand(1);
  if (!D->isConstant() || D->value() <= 0)
    return T;
  int64_t C = D->value();
  // (y % a) % c is y % c when c divides a, whatever y's sign: both take the
  // sign of y and agree modulo c (a float4 store's lane `n % 128 % 8 % 4`).
  if (T->kind() == TermKind::Rem && X->kind() == TermKind::Rem && X->operand(1)->isConstant() &&
      X->operand(1)->value() > 0 && X->operand(1)->value() % C == 0)
    return divRem(Ctx.rem(X->operand(0), D));
  // The dividend's polynomial, with its `x - x % c` pairs as multiples of c.
  const Polynomial Whole = toPolynomial(Ctx, X);
  const Polynomial P = regroupRemainders(Ctx, Whole, C);
  if (!(P == Whole))
    X = toTerm(Ctx, P);
  if (T->kind() == TermKind::Div)
    if (const Term *Unshifted = shiftedDividend(P, C))
      return divRem(Ctx.div(Unshifted, D));
  std::optional<Interval> IX = interval(X);
  // A sum whose summands cancel: a pipelined stage simplified one iteration
  // back, `s % 2 * 1024 + ((s - 1) % 2 + 1) % 2 * -1024`, is now `s % 2 *
  // 1024 - s % 2 * 1024`, and only the polynomial sees the zero (the sum as
  // written spans both signs). Only then: the polynomial's order of terms
  // elsewhere made Z3 slower (the register-tile chain of vectorize.test).
  if (!IX || IX->lo < 0)
    if (const Term *Canonical = toTerm(Ctx, P); summands(Canonical) < summands(X))
      if (std::optional<Interval> IC = interval(Canonical); IC && IC->lo >= 0)
        return divRem(T->kind() == TermKind::Div ? Ctx.div(Canonical, D) : Ctx.rem(Canonical, D));
  bool Div = T->kind() == TermKind::Div;
  // |x| < C, either sign: truncation makes x / C zero and x % C x itself.
  if (IX && IX->lo > -C && IX->hi < C)
    return Div ? Ctx.constant(0) : X;
  if (!IX || IX->lo < 0)
    return T;
  if (IX->hi < C)
    return Div ? Ctx.constant(0) : X;
  // x = C*a + r with r in [0, C): x / C = a, x % C = r (x >= 0).
  std::optional<std::pair<Polynomial, Polynomial>> Split = splitByMultiples(P, C);
  if (!Split)
    return T;
  const auto &[Multiple, Rest] = *Split;
  if (!Div)
    if (const Term *Folded = remainderOfRemainder(P, D))
      return Folded;
  if (Multiple.isZero()) {
    const Term *Digit = byLowerDigit(P, C, Div);
    return Digit ? Digit : T;
  }
  const Term *R = toTerm(Ctx, Rest);
  std::optional<Interval> IR = interval(R);
  if (!IR || IR->lo < 0)
    return T;
  if (IR->hi < C)
    return Div ? toTerm(Ctx, Multiple.dividedExactly(C)) : R;
  // A rest of C or more (`(tid + 256*l) / 16` with tid < 256): with x and r
  // non-negative, x / C = a + r / C and x % C = r % C.
  return Div ? Ctx.add(toTerm(Ctx, Multiple.dividedExactly(C)), Ctx.div(R, D)) : Ctx.rem(R, D);
}

// x / C and x % C for C = c*D, where x = c*a + r with r in [0, c) and x >=
// 0 (so a >= 0): x / C = a / D and x % C = c*(a % D) + r. A tile stored
// transposed and read back as `As[k][m]`, flattened to 128*k + m with m <
// 128, leaves `(128*k + m) / 512` and `(128*k + m) % 512 / 128` in its
// writer's lane, which are k / 4 and k % 4; Z3 would split every digit.
// c is the largest proper divisor of C that the other summands' rest fits
// under. Null when there is none.
const Term *RangeSimplifier::byLowerDigit(const Polynomial &P, int64_t C, bool Div) {
  std::set<int64_t, std::greater<>> Digits;
  for (const auto &[Mono, Coeff] : P.terms())
    if (int64_t G = std::gcd(Coeff, C); G > 1 && G < C)
      Digits.insert(G);
  for (int64_t Low : Digits) {
    std::optional<std::pair<Polynomial, Polynomial>> Split = splitByMultiples(P, Low);
    if (!Split || Split->first.isZero())
      continue;
    const auto &[Multiple, Rest] = *Split;
    const Term *R = toTerm(Ctx, Rest);
    std::optional<Interval> IR = interval(R);
    if (!IR || IR->lo < 0 || IR->hi >= Low)
      continue;
    const Term *A = toTerm(Ctx, Multiple.dividedExactly(Low));
    const Term *High = Ctx.constant(C / Low);
    return Div ? Ctx.div(A, High) : Ctx.add(Ctx.mul(Ctx.constant(Low), Ctx.rem(A, High)), R);
  }
  return nullptr;
}

// `(x - q) / C` is `x / C` where 0 < q < C and the facts say either
// `x % C == q` (then x > 0: C's remainder takes the dividend's sign), or
// `(x - q) % C == 0` and `x - q >= 0`: in both, x - q = C*m with m >= 0, and
// x = C*m + q, so x / C = m. Lane q of a vector store, solved for its
// writer, leaves `(4*w + q - q) / 4` in this shape, whose dividend x (not
// x - q) splits into a multiple of C and a rest in [0, C). Null when P
// (the dividend) is not such an x - q.
const Term *RangeSimplifier::shiftedDividend(const Polynomial &P, int64_t C) {
  const int64_t Q = -P.constantPart();
  if (Q <= 0 || Q >= C)
    return nullptr;
  std::optional<Polynomial> X = P.plus(Polynomial::constant(Q));
  if (!X)
    return nullptr;
  auto RemainderFact = [&](const Term *F, const Polynomial &Of, int64_t Value) {
    return F->kind() == TermKind::Eq && F->operand(1)->isConstant(Value) &&
           F->operand(0)->kind() == TermKind::Rem && F->operand(0)->operand(1)->isConstant(C) &&
           toPolynomial(Ctx, F->operand(0)->operand(0)) == Of;
  };
  bool Exact = false, NonNegative = false;
  for (const Term *F : Sources) {
    if (RemainderFact(F, *X, Q))
      return toTerm(Ctx, *X);
    Exact = Exact || RemainderFact(F, P, 0);
    NonNegative = NonNegative || (F->kind() == TermKind::Le && F->operand(0)->isConstant(0) &&
                                  toPolynomial(Ctx, F->operand(1)) == P);
  }
  return Exact && NonNegative ? toTerm(Ctx, *X) : nullptr;
}

// `(a % C + r) % C` is `(a + r) % C` where a and r are non-negative: both
// sums are then non-negative and equal modulo C. A pipelined loop's write
// stage seen one iteration back, `((t - 1) % 2 + 1) % 2`, is the read's
// `t % 2` (t >= 1 there). Null when P (the dividend) has no such part.
const Term *RangeSimplifier::remainderOfRemainder(const Polynomial &P, const Term *D) {
  for (const auto &[Mono, Coeff] : P.terms()) {
    if (Coeff != 1 || Mono.size() != 1 || Mono[0]->kind() != TermKind::Rem ||
        Mono[0]->operand(1) != D)
      continue;
    const Term *A = Mono[0]->operand(0);
    std::optional<Polynomial> Others = P.plus(Polynomial::monomial(Mono, -1));
    if (!Others)
      return nullptr;
    std::optional<Polynomial> Sum = Others->plus(toPolynomial(Ctx, A));
    std::optional<Interval> IA = interval(A), IR = interval(toTerm(Ctx, *Others));
    if (!Sum || !IA || !IR || IA->lo < 0 || IR->lo < 0)
      return nullptr;
    const Term *Dividend = toTerm(Ctx, *Sum);
    if (!fitsInInt(Dividend))
      return nullptr;
    return divRem(Ctx.rem(Dividend, D));
  }
  return nullptr;
}

// The quotient's pair one digit lower: `c*a*(x/c) + d*a*((x%c)/d)`, with d
// dividing c, is `a*x - a*(x%d)`. C guarantees (y/d)*d == y - y%d, and
// (x%c)%d == x%d when d divides c (both remainders take the sign of x). A
// vector store's writer leaves this behind: element c of a float4 store at
// 4*(256*blockIdx.x + 4*threadIdx.x) + j is written when
// `(c-j)/256*256 + (c-j)%256/4*4 + j == c`, which is `(c-j)%4 == 0`.
// Every rule below builds new operators; each must stay inside int wherever
// the query can be defined (`Fits`: RangeSimplifier::fitsInInt), or Z3 would read
// a definedness condition into it that the question as asked does not have.
using FitsInInt = llvm::function_ref<bool(const Term *)>;

static std::optional<Polynomial> foldLowerDigit(TermContext &Ctx, const Polynomial &P,
                                                FitsInInt Fits) {
  for (const auto &[Mono, Coeff] : P.terms()) {
    if (Mono.size() != 1 || Mono[0]->kind() != TermKind::Div)
      continue;
    const Term *Rem = Mono[0]->operand(0), *D = Mono[0]->operand(1);
    if (Rem->kind() != TermKind::Rem || !D->isConstant() || D->value() <= 0)
      continue;
    const Term *X = Rem->operand(0), *C = Rem->operand(1);
    if (!C->isConstant() || C->value() <= 0 || C->value() % D->value() != 0 ||
        Coeff % D->value() != 0)
      continue;
    int64_t A = Coeff / D->value();
    Monomial QuotMono{Ctx.div(X, C)};
    if (P.coefficientOf(QuotMono) != A * C->value())
      continue;
    std::optional<Polynomial> Out = P.minus(Polynomial::monomial(Mono, Coeff));
    if (Out)
      Out = Out->minus(Polynomial::monomial(QuotMono, A * C->value()));
    std::optional<Polynomial> XPoly = toPolynomial(Ctx, X).scaled(A);
    if (Out && XPoly)
      Out = Out->plus(*XPoly);
    if (Out)
      Out = Out->minus(Polynomial::monomial(Monomial{Ctx.rem(X, D)}, A));
    if (Out && Fits(toTerm(Ctx, *Out)))
      return Out;
  }
  return std::nullopt;
}

// C guarantees (x / d) * d + x % d == x for every d != 0: in a sum,
// `a*d*(x/d) + a*(x%d)` folds back to `a*x`, whether d is a constant (lane
// arithmetic like `4*(kk/4) + kk%4`, once the ranges are applied) or a
// size (`(y / H * H + y % H) * N`, a batch and head split out of one block
// index and put back together). The common factor `a` may hold symbols.
// Folding a symbolic d removes the question's `d != 0`, so it needs d's
// range to exclude 0; a new product `a*x` must stay inside int (`Fits`).
static std::optional<Polynomial> foldQuotientRemainder(TermContext &Ctx, const Polynomial &P,
                                                       FitsInInt Fits, FitsInInt NonZero) {
  for (const auto &[Mono, Coeff] : P.terms()) {
    for (size_t At = 0; At < Mono.size(); ++At) {
      if (Mono[At]->kind() != TermKind::Rem || (At > 0 && Mono[At] == Mono[At - 1]))
        continue;
      const Term *X = Mono[At]->operand(0), *D = Mono[At]->operand(1);
      const bool Plain = Mono.size() == 1 && D->isConstant();
      if (!D->isConstant() && !NonZero(D))
        continue;
      // A single monomial: a constant divisor of 0 has none.
      Polynomial DPoly = toPolynomial(Ctx, D);
      if (DPoly.terms().size() != 1)
        continue;
      const auto &[DMono, DCoeff] = *DPoly.terms().begin();
      if (Plain && DCoeff <= 0)
        continue;
      Monomial Rest = monomialQuotient(Mono, Monomial{Mono[At]});
      Monomial Partner = monomialProduct(monomialProduct(Rest, Monomial{Ctx.div(X, D)}), DMono);
      int64_t PartnerCoeff = 0;
      if (__builtin_mul_overflow(Coeff, DCoeff, &PartnerCoeff) ||
          P.coefficientOf(Partner) != PartnerCoeff)
        continue;
      std::optional<Polynomial> Joined =
          toPolynomial(Ctx, X).times(Polynomial::monomial(Rest, Coeff));
      if (!Joined || (!Plain && !Fits(toTerm(Ctx, *Joined))))
        continue;
      std::optional<Polynomial> Out = P.minus(Polynomial::monomial(Mono, Coeff));
      if (Out)
        Out = Out->minus(Polynomial::monomial(Partner, PartnerCoeff));
      if (Out)
        Out = Out->plus(*Joined);
      if (Out)
        return Out;
    }
  }
  return std::nullopt;
}

const Term *foldConstantQuotientRemainder(TermContext &Ctx, const Term *Sum) {
  if (Sum->kind() != TermKind::Add)
    return Sum;
  // With neither callback allowing anything, only the folds by a positive
  // constant of a lone `x % d` apply: exact, and building no new product.
  auto Never = [](const Term *) { return false; };
  std::optional<Polynomial> Folded =
      foldQuotientRemainder(Ctx, toPolynomial(Ctx, Sum), Never, Never);
  return Folded ? foldConstantQuotientRemainder(Ctx, toTerm(Ctx, *Folded)) : Sum;
}

static const Term *foldDivRemPairs(TermContext &Ctx, const Term *Sum, FitsInInt Fits,
                                   FitsInInt NonZero) {
  if (Sum->kind() != TermKind::Add)
    return Sum;
  Polynomial P = toPolynomial(Ctx, Sum);
  if (std::optional<Polynomial> Lower = foldLowerDigit(Ctx, P, Fits))
    return foldDivRemPairs(Ctx, toTerm(Ctx, *Lower), Fits, NonZero);
  if (std::optional<Polynomial> Folded = foldQuotientRemainder(Ctx, P, Fits, NonZero))
    return foldDivRemPairs(Ctx, toTerm(Ctx, *Folded), Fits, NonZero);
  return Sum;
}

namespace {

bool hasDivRem(const Term *T) {
  if (T->kind() == TermKind::Div || T->kind() == TermKind::Rem)
    return true;
  for (const Term *Op : T->operands())
    if (hasDivRem(Op))
      return true;
  return false;
}

} // namespace

const Term *RangeSimplifier::linearOverBox(const Term *T) {
  // Few symbols, each in a small known range: evaluate T on the whole box
  // and, when it agrees everywhere with the affine function through the
  // box's corner and its unit steps, use that. Matrix-core lane arithmetic
  // (`(kk % 2 + i / 8 * 2 + kk / 8 * 4) % 2 + ...` is `kk`) folds this way,
  // where Z3 would case-split on every `/` and `%`.
  constexpr uint64_t MaxPoints = 4096;
  std::vector<const Term *> Symbols = collectSymbols(T);
  if (Symbols.empty() || Symbols.size() > 4)
    return nullptr;
  std::vector<Interval> Box;
  uint64_t Points = 1;
  for (const Term *S : Symbols) {
    std::optional<Interval> I = interval(S);
    if (!I || I->hi - I->lo >= int64_t(MaxPoints))
      return nullptr;
    Points *= uint64_t(I->hi - I->lo + 1);
    if (Points > MaxPoints)
      return nullptr;
    Box.push_back(*I);
  }
  Assignment At;
  for (size_t J = 0; J < Symbols.size(); ++J)
    At[Symbols[J]] = Box[J].lo;
  std::optional<int64_t> Corner = evaluate(T, At);
  if (!Corner)
    return nullptr;
  std::vector<int64_t> Slope(Symbols.size(), 0);
  for (size_t J = 0; J < Symbols.size(); ++J) {
    if (Box[J].hi == Box[J].lo)
      continue;
    At[Symbols[J]] = Box[J].lo + 1;
    std::optional<int64_t> Step = evaluate(T, At);
    At[Symbols[J]] = Box[J].lo;
    if (!Step)
      return nullptr;
    Slope[J] = *Step - *Corner;
  }
  // Every point of the box, odometer order.
  std::vector<int64_t> X;
  for (const Interval &I : Box)
    X.push_back(I.lo);
  for (uint64_t N = 0; N < Points; ++N) {
    int64_t Expected = *Corner;
    for (size_t J = 0; J < Symbols.size(); ++J) {
      At[Symbols[J]] = X[J];
      Expected += Slope[J] * (X[J] - Box[J].lo);
    }
    std::optional<int64_t> Actual = evaluate(T, At);
    if (!Actual || *Actual != Expected)
      return nullptr;
    for (size_t J = 0; J < X.size(); ++J) {
      if (X[J] < Box[J].hi) {
        ++X[J];
        break;
      }
      X[J] = Box[J].lo;
    }
  }
  int64_t Constant = *Corner;
  for (size_t J = 0; J < Symbols.size(); ++J)
    Constant -= Slope[J] * Box[J].lo;
  const Term *Out = Ctx.constant(Constant);
  for (size_t J = 0; J < Symbols.size(); ++J)
    if (Slope[J])
      Out = Ctx.add(Out, Ctx.mul(Symbols[J], Ctx.constant(Slope[J])));
  return Out;
}

const Term *RangeSimplifier::foldBoundedPart(const Term *Sum) {
  // The summands over small-range symbols only, as one affine term.
  Polynomial P = toPolynomial(Ctx, Sum);
  Polynomial Bounded, Rest;
  for (const auto &[Mono, Coeff] : P.terms()) {
    bool Small = true;
    for (const Term *Atom : Mono)
      for (const Term *S : collectSymbols(Atom)) {
        std::optional<Interval> I = interval(S);
        Small = Small && I && I->hi - I->lo < 4096;
      }
    Polynomial One = Polynomial::monomial(Mono, Coeff);
    std::optional<Polynomial> Next = (Small ? Bounded : Rest).plus(One);
    if (!Next)
      return Sum;
    (Small ? Bounded : Rest) = *Next;
  }
  const Term *Part = toTerm(Ctx, Bounded);
  if (!hasDivRem(Part))
    return Sum;
  auto Known = Linearized.find(Part);
  const Term *Affine =
      Known != Linearized.end() ? Known->second : (Linearized[Part] = linearOverBox(Part));
  if (!Affine)
    return Sum;
  return Ctx.add(toTerm(Ctx, Rest), Affine);
}

// `a + x == b + x` is `a == b`: an equation whose sides share summands (a
// writer's exactness condition once its digits folded, `-((c-1) % 4) + c ==
// c`) loses them, and one summand left is solved for (`(c-1) % 4 == 0`).
static const Term *cancelEquation(TermContext &Ctx, const Term *Cmp, FitsInInt Fits) {
  if (Cmp->kind() != TermKind::Eq && Cmp->kind() != TermKind::Ne)
    return Cmp;
  Polynomial Left = toPolynomial(Ctx, Cmp->operand(0));
  Polynomial Right = toPolynomial(Ctx, Cmp->operand(1));
  std::optional<Polynomial> Diff = Left.minus(Right);
  if (!Diff || Diff->terms().size() >= Left.terms().size() + Right.terms().size())
    return Cmp; // nothing cancelled
  bool Equal = Cmp->kind() == TermKind::Eq;
  int64_t Constant = Diff->constantPart();
  std::optional<Polynomial> Rest = Diff->minus(Polynomial::constant(Constant));
  if (!Rest)
    return Cmp;
  if (Rest->isZero())
    return (Constant == 0) == Equal ? Ctx.trueTerm() : Ctx.falseTerm();
  const Term *Lhs = toTerm(Ctx, *Rest);
  if (!Fits(Lhs))
    return Cmp;
  int64_t Rhs = -Constant;
  if (Rest->terms().size() == 1) {
    const auto &[Mono, Coeff] = *Rest->terms().begin();
    if (Rhs % Coeff != 0)
      return Equal ? Ctx.falseTerm() : Ctx.trueTerm();
    Lhs = toTerm(Ctx, Polynomial::monomial(Mono, 1));
    Rhs /= Coeff;
  }
  return Equal ? Ctx.eq(Lhs, Ctx.constant(Rhs)) : Ctx.ne(Lhs, Ctx.constant(Rhs));
}

const Term *RangeSimplifier::remainderOfShifted(const Term *Cmp) {
  // (y + k) % m == 0  <=>  y % m == (-k) mod m, for y >= 0 and a constant
  // m > 0: four components of a vector store ask it of c, c-1, c-2 and c-3,
  // and Z3 then splits one remainder instead of four.
  if (Cmp->kind() != TermKind::Eq && Cmp->kind() != TermKind::Ne)
    return Cmp;
  const Term *Rem = Cmp->operand(0);
  if (Rem->kind() != TermKind::Rem || !Cmp->operand(1)->isConstant(0) ||
      !Rem->operand(1)->isConstant() || Rem->operand(1)->value() <= 0)
    return Cmp;
  Polynomial X = toPolynomial(Ctx, Rem->operand(0));
  int64_t K = X.constantPart(), M = Rem->operand(1)->value();
  std::optional<Polynomial> Y = X.minus(Polynomial::constant(K));
  if (K == 0 || !Y)
    return Cmp;
  const Term *YTerm = toTerm(Ctx, *Y);
  std::optional<Interval> IY = interval(YTerm);
  if (!IY || IY->lo < 0)
    return Cmp;
  const Term *Residue = Ctx.constant(((-K) % M + M) % M);
  const Term *YRem = Ctx.rem(YTerm, Rem->operand(1));
  return Cmp->kind() == TermKind::Eq ? Ctx.eq(YRem, Residue) : Ctx.ne(YRem, Residue);
}

const Term *RangeSimplifier::foldParityPairs(const Term *Sum) {
  // x % 2 + (x + k) % 2 is 1 for an odd k and x, x + k >= 0: exactly one of
  // them is odd. A double buffer's two halves, `16 * (t % 2)` and
  // `16 * ((t - 1) % 2)`, add up to 16.
  if (Sum->kind() != TermKind::Add)
    return Sum;
  Polynomial P = toPolynomial(Ctx, Sum);
  for (const auto &[First, Coeff] : P.terms()) {
    if (First.size() != 1 || First[0]->kind() != TermKind::Rem ||
        !First[0]->operand(1)->isConstant(2))
      continue;
    Polynomial X = toPolynomial(Ctx, First[0]->operand(0));
    for (const auto &[Second, Other] : P.terms()) {
      if (Second.size() != 1 || Second[0]->kind() != TermKind::Rem || Second == First ||
          Other != Coeff || !Second[0]->operand(1)->isConstant(2))
        continue;
      std::optional<Polynomial> Shift = toPolynomial(Ctx, Second[0]->operand(0)).minus(X);
      if (!Shift || !Shift->isConstant() || Shift->constantPart() % 2 == 0)
        continue;
      std::optional<Interval> A = interval(First[0]->operand(0));
      std::optional<Interval> B = interval(Second[0]->operand(0));
      if (!A || !B || A->lo < 0 || B->lo < 0)
        continue;
      std::optional<Polynomial> Out = P.minus(Polynomial::monomial(First, Coeff));
      if (Out)
        Out = Out->minus(Polynomial::monomial(Second, Coeff));
      if (Out)
        Out = Out->plus(Polynomial::constant(Coeff));
      const Term *Folded = Out ? toTerm(Ctx, *Out) : nullptr;
      if (Folded && fitsInInt(Folded))
        return Folded;
    }
  }
  return Sum;
}

const Term *RangeSimplifier::decideByIntervals(const Term *Cmp) {
  // A comparison the bounds were read from stays: folded by its own bound
  // it would drop that bound from the query.
  if (!isComparison(Cmp->kind()) || Sources.count(Cmp))
    return Cmp;
  std::optional<Interval> A = interval(Cmp->operand(0)), B = interval(Cmp->operand(1));
  if (!A || !B)
    return Cmp;
  std::optional<bool> Known;
  switch (Cmp->kind()) {
  case TermKind::Lt:
    Known = A->hi < B->lo ? std::optional(true) : A->lo >= B->hi ? std::optional(false) : Known;
    break;
  case TermKind::Le:
    Known = A->hi <= B->lo ? std::optional(true) : A->lo > B->hi ? std::optional(false) : Known;
    break;
  case TermKind::Gt:
    Known = A->lo > B->hi ? std::optional(true) : A->hi <= B->lo ? std::optional(false) : Known;
    break;
  case TermKind::Ge:
    Known = A->lo >= B->hi ? std::optional(true) : A->hi < B->lo ? std::optional(false) : Known;
    break;
  case TermKind::Eq:
  case TermKind::Ne:
    if (A->hi < B->lo || B->hi < A->lo)
      Known = Cmp->kind() == TermKind::Ne;
    else if (A->lo == A->hi && B->lo == B->hi)
      Known = Cmp->kind() == TermKind::Eq;
    break;
  default:
    break;
  }
  if (!Known)
    return Cmp;
  return *Known ? Ctx.trueTerm() : Ctx.falseTerm();
}

const Term *RangeSimplifier::quotientComparison(const Term *Cmp) {
  TermKind K = Cmp->kind();
  if (K != TermKind::Lt && K != TermKind::Le && K != TermKind::Gt && K != TermKind::Ge)
    return Cmp;
  const Term *A = Cmp->operand(0), *B = Cmp->operand(1);
  if (K == TermKind::Gt || K == TermKind::Ge) {
    std::swap(A, B);
    K = K == TermKind::Gt ? TermKind::Lt : TermKind::Le;
  }
  bool Strict = K == TermKind::Lt;
  // x / y and x % y by a symbolic divisor (`b = blockIdx.y / H`): with
  // x >= 0 and y >= 1 a bound on the quotient is a linear bound on x times
  // y, which the facts usually state (`blockIdx.y < B * H`), where Z3 would
  // otherwise search nonlinear arithmetic for each query.
  auto ByPositive = [this](const Term *Q, TermKind Kind) {
    if (Q->kind() != Kind || Q->operand(1)->isConstant())
      return false;
    std::optional<Interval> X = interval(Q->operand(0)), Y = interval(Q->operand(1));
    return X && Y && X->lo >= 0 && Y->lo >= 1;
  };
  if (ByPositive(A, TermKind::Rem) && Strict && B == A->operand(1))
    return Ctx.trueTerm(); // x % y < y
  if (ByPositive(B, TermKind::Rem) && !Strict && A->isConstant(0))
    return Ctx.trueTerm(); // 0 <= x % y
  // x / c < B  <=>  x < c * B for a constant c > 0, where x >= 0, or where
  // x > -c (its quotient is then 0) and B >= 1: a bound on a store's block
  // index (`(c - 1) / 256 < gridDim.x`) becomes linear.
  if (A->kind() == TermKind::Div && A->operand(1)->isConstant() && A->operand(1)->value() > 0) {
    const Term *Bound = Strict ? B : Ctx.add(B, Ctx.constant(1));
    std::optional<Interval> X = interval(A->operand(0)), IB = interval(Bound);
    int64_t C = A->operand(1)->value();
    const Term *Scaled = Ctx.mul(Bound, A->operand(1));
    if (X && (X->lo >= 0 || (X->lo > -C && IB && IB->lo >= 1)) && fitsInInt(Scaled))
      return Ctx.lt(A->operand(0), Scaled);
  }
  if (ByPositive(A, TermKind::Div)) // x / y < B  <=>  x < y * B
    return Ctx.lt(A->operand(0), Ctx.mul(A->operand(1), Strict ? B : Ctx.add(B, Ctx.constant(1))));
  if (ByPositive(B, TermKind::Div)) // A <= x / y  <=>  y * A <= x
    return Ctx.le(Ctx.mul(B->operand(1), Strict ? Ctx.add(A, Ctx.constant(1)) : A), B->operand(0));
  return Cmp;
}

bool RangeSimplifier::fitsInInt(const Term *T) { return interval(T).has_value(); }

const Term *RangeSimplifier::comparison(const Term *Original, const Term *Cmp) {
  auto Fits = [this](const Term *T) { return fitsInInt(T); };
  Cmp = remainderOfShifted(quotientComparison(cancelEquation(Ctx, Cmp, Fits)));
  return Sources.count(Original) ? Cmp : decideByIntervals(Cmp);
}

// `overflows(op(a, b))`: whether op's own result leaves int. Rewriting the
// operator could fold away the very operation asked about (`x * 16 / 16` is
// x), so it stays; its operands are rewritten, each keeping its value
// wherever the facts hold (`(y / H * H + y % H) * N` asks about `y * N`).
// The answer is 0 where the ranges keep the result an int (interval() is
// nullopt past it). The rewritten operands may be defined where the
// originals are not (`H == 0`): that only adds executions to the question.
const Term *RangeSimplifier::overflowQuestion(const Term *T) {
  const Term *Op = T->operand(0);
  if (interval(Op))
    return Ctx.falseTerm();
  std::vector<const Term *> Ops;
  bool Changed = false;
  for (const Term *Arg : Op->operands()) {
    Ops.push_back(rewrite(Arg));
    Changed = Changed || Ops.back() != Arg;
  }
  if (!Changed)
    return T;
  const Term *Rebuilt = Ctx.rebuild(Op, Ops);
  if (interval(Rebuilt))
    return Ctx.falseTerm();
  return Rebuilt->kind() == Op->kind() ? Ctx.overflows(Rebuilt) : T;
}

const Term *RangeSimplifier::rewrite(const Term *T) {
  if (T->isConstant())
    return T;
  if (T->isSymbol()) {
    auto It = Bounds.find(T);
    if (It != Bounds.end() && It->second.lo == It->second.hi)
      return Ctx.constant(It->second.lo);
    return T;
  }
  auto Memoized = Memo.find(T);
  if (Memoized != Memo.end())
    return Memoized->second;
  if (T->kind() == TermKind::Overflows) {
    const Term *Out = overflowQuestion(T);
    Memo[T] = Out;
    return Out;
  }
  std::vector<const Term *> Ops;
  bool Changed = false;
  for (const Term *Op : T->operands()) {
    Ops.push_back(rewrite(Op));
    Changed = Changed || Ops.back() != Op;
  }
  const Term *Out = Changed ? Ctx.rebuild(T, Ops) : T;
  auto Fits = [this](const Term *X) { return fitsInInt(X); };
  auto NonZero = [this](const Term *X) {
    std::optional<Interval> I = interval(X);
    return I && (I->lo > 0 || I->hi < 0);
  };
  if (Out->kind() == TermKind::Div || Out->kind() == TermKind::Rem)
    Out = divRem(Out);
  else if (Out->kind() == TermKind::Add)
    Out = foldBoundedPart(foldDivRemPairs(Ctx, foldParityPairs(Out), Fits, NonZero));
  else
    Out = comparison(T, Out);
  Memo[T] = Out;
  return Out;
}

const Term *RangeSimplifier::simplify(const Term *T) { return rewrite(T); }

} // namespace ave::inv
