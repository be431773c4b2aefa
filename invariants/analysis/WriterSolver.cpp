#include "WriterSolver.h"

#include "clang/AST/Decl.h"

#include <algorithm>
#include <functional>
#include <set>

namespace ave::inv {

namespace {

void visitTerms(const Term *Node, TermSet &Seen,
                const std::function<void(const Term *)> &Callback) {
  if (!Seen.insert(Node).second)
    return;
  Callback(Node);
  for (const Term *Op : Node->operands())
    visitTerms(Op, Seen, Callback);
}

} // namespace

bool WriterSolver::isFixed(const Term *S) const {
  // Launch sizes and parameters: the same for every writer.
  if (S->isFresh())
    return false;
  return S->symbolKind() == SymbolKind::Param || S->symbolKind() == SymbolKind::BlockDim ||
         S->symbolKind() == SymbolKind::GridDim;
}

bool WriterSolver::classify(std::string &Why) {
  std::vector<const Term *> All = W.path;
  for (const auto &[Name, D] : W.destination)
    All.push_back(D);
  const KernelSymbols &K = Ctx.symbols;
  for (const Term *X : All) {
    if (!collectApplications(X).empty()) {
      Why = "its destination or guard reads memory (" + print(collectApplications(X).front()) +
            "), which the writer solution does not invert";
      return false;
    }
    for (const Term *S : collectSymbols(X)) {
      if (isFixed(S) || std::find(Ids.begin(), Ids.end(), S) != Ids.end())
        continue;
      bool Builtin = false;
      for (unsigned D = 0; D < 3; ++D)
        if (S == K.tid[D] || S == K.bid[D]) {
          Bounds[S] = S == K.tid[D] ? K.bdim[D] : K.gdim[D];
          Builtin = true;
        }
      const LoopFrame *Frame = nullptr;
      for (const LoopFrame &F : W.loops)
        if (F.canonical && F.span.counter == S && F.init && F.step)
          Frame = &F;
      if (!Builtin && !Frame) {
        Why = S->baseName() == LeftEarlyName
                  ? "it runs only on the threads that did not leave a loop before it early "
                    "(a return or a goto out of the loop), which depends on data"
                  : "it depends on '" + S->baseName() +
                        "', a value the analysis approximates, so its writer cannot be solved";
        return false;
      }
      if (Frame) {
        Counters[S] = Frame;
        const std::vector<const Term *> &F = Frame->span.facts;
        Bounds[S] = F.size() > 1 && F[1]->kind() == TermKind::Lt ? F[1]->operand(1) : nullptr;
      }
      Ids.push_back(S);
    }
  }
  return true;
}

std::optional<WriterSolver::DigitRange> WriterSolver::digitRange(const Term *N) const {
  if (std::find(Ids.begin(), Ids.end(), N) != Ids.end())
    return DigitRange{N, 1, 0};
  if (N->numOperands() != 2)
    return std::nullopt;
  const Term *A = N->operand(0), *B = N->operand(1);
  int64_t Divisor = 0;
  bool Quotient = true;
  if ((N->kind() == TermKind::Div || N->kind() == TermKind::Rem) && B->isConstant()) {
    Divisor = B->value();
    Quotient = N->kind() == TermKind::Div;
  } else if (N->kind() == TermKind::Shr && B->isConstant() && B->value() >= 0 && B->value() < 31) {
    Divisor = int64_t(1) << B->value();
  } else if (N->kind() == TermKind::BitAnd) {
    if (A->isConstant())
      std::swap(A, B);
    if (B->isConstant() && B->value() > 0 && B->value() < (int64_t(1) << 31) &&
        (B->value() & (B->value() + 1)) == 0) {
      Divisor = B->value() + 1;
      Quotient = false;
    }
  }
  if (Divisor <= 0)
    return std::nullopt;
  std::optional<DigitRange> R = digitRange(A);
  if (!R || R->lo > (int64_t(1) << 40) / Divisor)
    return std::nullopt;
  const int64_t Boundary = R->lo * Divisor;
  if (R->hi && Boundary >= R->hi) // `(tid % 32) % 64`: the same digits; `(tid % 32) / 64`: 0
    return !Quotient && Boundary % R->hi == 0 ? R : std::nullopt;
  if (R->hi && R->hi % Boundary != 0)
    return std::nullopt; // the digits do not nest
  if (Quotient)
    R->lo = Boundary;
  else
    R->hi = Boundary;
  return R;
}

void WriterSolver::splitChain(const Term *Id, const std::vector<int64_t> &Weights,
                              const std::vector<std::pair<const Term *, DigitRange>> &Atoms) {
  const size_t Top = Weights.size() - 1;
  Digits Dg;
  Dg.weights = Weights;
  Dg.digits.resize(Weights.size());
  for (size_t J = Top + 1; J-- > 0;)
    Dg.digits[J] = T.freshSymbol(Id->baseName() + (J == Top ? "_hi"
                                                   : J == 0 ? "_lo"
                                                            : "_mid" + std::to_string(J)),
                                 SymbolKind::Fresh);
  Dg.high = Dg.digits[Top];
  Dg.low = Dg.digits[0];
  Dg.divisor = T.constant(Weights[Top]);
  // Digits J with weight in [Lo, Hi), each times its weight over Lo, highest first.
  auto Sum = [&](int64_t Lo, int64_t Hi) {
    const Term *Out = nullptr;
    for (size_t J = Top + 1; J-- > 0;) {
      if (Weights[J] < Lo || (Hi && Weights[J] >= Hi))
        continue;
      const Term *Part =
          Weights[J] == Lo ? Dg.digits[J] : T.mul(T.constant(Weights[J] / Lo), Dg.digits[J]);
      Out = Out ? T.add(Out, Part) : Part;
    }
    return Out;
  };
  DigitMap[Id] = Sum(1, 0);
  for (size_t J = 0; J < Top; ++J)
    Bounds[Dg.digits[J]] = T.constant(Weights[J + 1] / Weights[J]);
  Bounds[Dg.high] = Bounds[Id] ? T.div(Bounds[Id], Dg.divisor) : nullptr;
  for (size_t J = Top + 1; J-- > 0;)
    Unknowns.push_back(Dg.digits[J]);
  for (const auto &[Atom, Range] : Atoms)
    if (const Term *Value = Sum(Range.lo, Range.hi))
      DigitMap[Atom] = Value;
  Split[Id] = std::move(Dg);
}

bool WriterSolver::splitDigits(std::string &Why) {
  // `id / d`, `id % d`, `id >> s`, `id & (2^s - 1)` with d fixed: a divisor
  // that is a parameter splits the id in two; constant ones, nested in each
  // other (`tid % 32 / 4`), into as many digits as they make.
  TermKeyed<TermSet> Fixed;
  std::vector<std::pair<const Term *, std::pair<const Term *, bool>>> FixedAtoms;
  TermKeyed<std::set<int64_t>> Boundaries;
  TermKeyed<std::vector<std::pair<const Term *, DigitRange>>> ChainAtoms;
  TermSet Seen;
  auto FixedTerm = [&](const Term *X) {
    if (X->isConstant())
      return false;
    for (const Term *S : collectSymbols(X))
      if (!isFixed(S))
        return false;
    return collectApplications(X).empty();
  };
  auto Visit = [&](const Term *N) {
    if (N->numOperands() != 2)
      return;
    const Term *A = N->operand(0), *B = N->operand(1);
    if ((N->kind() == TermKind::Div || N->kind() == TermKind::Rem) && FixedTerm(B)) {
      if (std::find(Ids.begin(), Ids.end(), A) != Ids.end()) {
        Fixed[A].insert(B);
        FixedAtoms.push_back({N, {A, N->kind() == TermKind::Div}});
      }
      return;
    }
    std::optional<DigitRange> R = digitRange(N);
    if (!R || R->id == N)
      return;
    Boundaries[R->id].insert(R->lo);
    if (R->hi)
      Boundaries[R->id].insert(R->hi);
    ChainAtoms[R->id].push_back({N, *R});
  };
  for (const Term *X : W.path)
    visitTerms(X, Seen, Visit);
  for (const auto &[Name, D] : W.destination)
    visitTerms(D, Seen, Visit);
  if (std::string Nonlinear = nonlinearDivision(); !Nonlinear.empty()) {
    Why = "its destination divides an expression of the thread and loop ids by a parameter (" +
          Nonlinear + ")";
    return false;
  }
  for (const auto &[Id, Set] : Fixed) {
    if (Set.size() > 1 || Boundaries.count(Id)) {
      Why = "'" + Id->baseName() + "' is divided by two different amounts";
      return false;
    }
    Digits Dg;
    Dg.divisor = *Set.begin();
    Dg.high = T.freshSymbol(Id->baseName() + "_hi", SymbolKind::Fresh);
    Dg.low = T.freshSymbol(Id->baseName() + "_lo", SymbolKind::Fresh);
    Dg.digits = {Dg.low, Dg.high};
    Split[Id] = Dg;
    DigitMap[Id] = T.add(T.mul(Dg.divisor, Dg.high), Dg.low);
    Bounds[Dg.low] = Dg.divisor;
    Bounds[Dg.high] = Bounds[Id] ? T.div(Bounds[Id], Dg.divisor) : nullptr;
    Unknowns.push_back(Dg.high);
    Unknowns.push_back(Dg.low);
  }
  for (const auto &[Atom, Of] : FixedAtoms)
    DigitMap[Atom] = Of.second ? Split[Of.first].high : Split[Of.first].low;
  for (auto &[Id, Set] : Boundaries) {
    Set.insert(1);
    std::vector<int64_t> Weights(Set.begin(), Set.end());
    for (size_t J = 1; J < Weights.size(); ++J)
      if (Weights[J] % Weights[J - 1] != 0) {
        Why = "'" + Id->baseName() + "' is divided by amounts that do not nest (" +
              std::to_string(Weights[J - 1]) + " and " + std::to_string(Weights[J]) + ")";
        return false;
      }
    splitChain(Id, Weights, ChainAtoms[Id]);
  }
  for (const Term *Id : Ids)
    if (!Split.count(Id))
      Unknowns.push_back(Id);
  return true;
}

std::string WriterSolver::nonlinearDivision() const {
  // `(15*row + col) / N`: a division by a parameter of an expression of
  // the ids is not split (and would make the question nonlinear).
  std::string Nonlinear;
  TermSet Seen;
  auto FindNonlinear = [&](const Term *N) {
    if ((N->kind() == TermKind::Div || N->kind() == TermKind::Rem) &&
        !N->operand(1)->isConstant() &&
        std::find(Ids.begin(), Ids.end(), N->operand(0)) == Ids.end())
      for (const Term *S : collectSymbols(N->operand(0)))
        if (std::find(Ids.begin(), Ids.end(), S) != Ids.end() && Nonlinear.empty())
          Nonlinear = print(N);
  };
  for (const auto &[Name, D] : W.destination)
    visitTerms(D, Seen, FindNonlinear);
  return Nonlinear;
}

const Term *WriterSolver::boundOf(const Term *Unknown) const {
  auto It = Bounds.find(Unknown);
  // The matcher uses a bound only for side conditions, which the writes
  // condition replaces: any positive stand-in will do.
  return It != Bounds.end() && It->second ? It->second : T.constant(1 << 30);
}

LayoutMatchResult WriterSolver::matchEither(const TagLayout &Layout, const Term *Coordinate) {
  LayoutMatchResult M = Ctx.matcher.match(Layout, Coordinate, LayoutMatchStrategy::Division);
  if (!M.matched)
    M = Ctx.matcher.match(Layout, Coordinate, LayoutMatchStrategy::Coefficients);
  return M;
}

void WriterSolver::solveCoordinate(const std::string &Name, const Term *Coordinate,
                                   std::string &Why) {
  const Term *Dest = substitute(T, substitute(T, W.destination.at(Name), DigitMap), Solved);
  TagLayout Layout;
  Layout.address = Dest;
  for (const Term *U : Unknowns)
    if (!Solved.count(U) && occursIn(U, Dest))
      Layout.coordinates.push_back({U, boundOf(U)});
  if (Layout.coordinates.empty())
    return;
  LayoutMatchResult M = matchEither(Layout, Coordinate);
  // A reversed id (`255 - tid`): solved as its mirror image in its range.
  for (size_t I = 0; !M.matched && I < Layout.coordinates.size(); ++I) {
    const Term *U = Layout.coordinates[I].symbol;
    auto B = Bounds.find(U);
    if (B == Bounds.end() || !B->second)
      continue;
    const Term *Mirror = T.freshSymbol(U->baseName() + "_rev", SymbolKind::Fresh);
    const Term *Last = T.sub(B->second, T.constant(1));
    TagLayout Reflected = Layout;
    Reflected.address = substitute(T, Dest, TermMap{{U, T.sub(Last, Mirror)}});
    Reflected.coordinates[I].symbol = Mirror;
    LayoutMatchResult R = matchEither(Reflected, Coordinate);
    if (!R.matched)
      continue;
    R.coordinates[U] = T.sub(Last, R.coordinates.at(Mirror));
    M = R;
  }
  if (!M.matched) {
    if (Why.empty())
      Why = "its destination coordinate '" + Name + "' (" + print(W.destination.at(Name)) +
            ") is not solved for the thread, block and loop ids: " + M.reason;
    return;
  }
  for (const LayoutCoordinate &C : Layout.coordinates)
    Solved[C.symbol] = normalize(T, M.coordinates.at(C.symbol));
}

void WriterSolver::solveFromLoopStarts() {
  // `for (i = tid; i < n; i += 64)`: a solved counter fixes the id its start
  // adds, modulo the step. `for (k = z * chunk; k < z * chunk + chunk; ++k)`
  // (a split-K chunk): the id its start multiplies is the counter's
  // quotient by that factor.
  for (const auto &[Counter, Frame] : Counters) {
    auto C = Solved.find(Counter);
    if (C == Solved.end() || Split.count(Counter))
      continue;
    const Term *Init = substitute(T, Frame->init, DigitMap);
    if (solveStartDigits(C->second, Init, Frame->step))
      continue;
    for (const Term *U : Unknowns) {
      if (Solved.count(U) || !occursIn(U, Init))
        continue;
      const Term *Rest = substitute(T, Init, TermMap{{U, T.constant(0)}});
      const Term *Factor =
          normalize(T, T.sub(substitute(T, Init, TermMap{{U, T.constant(1)}}), Rest));
      const Term *Offset = T.sub(C->second, substitute(T, Rest, Solved));
      Solved[U] = Factor->isConstant(1) ? T.rem(Offset, Frame->step) : T.div(Offset, Factor);
      // Chunks no longer than the distance of their starts (a split-K
      // chunk: `k < k0 + chunk`) do not overlap: one writer at most. The
      // trip count `n > 0 ? n : 0` is at most the distance when n is.
      const Term *Trip = Frame->span.tripCount;
      if (Trip && Trip->kind() == TermKind::Select && Trip->operand(2)->isConstant(0))
        Trip = Trip->operand(1);
      const Term *Overlap =
          Trip ? normalize(T, T.sub(T.mul(substitute(T, Trip, DigitMap), Frame->step), Factor))
               : nullptr;
      if (!Factor->isConstant(1) && !(Overlap && Overlap->isConstant() && Overlap->value() <= 0))
        StartQuotients.emplace_back(U, Solved[U]);
      break;
    }
  }
}

bool WriterSolver::solveStartDigits(const Term *Counter, const Term *Init, const Term *Step) {
  // `for (j = bx * 64 + lane; j < C; j += 128)`: several ids in the start,
  // below the step, are the digits of the counter modulo the step (bx =
  // j % 128 / 64, lane = j % 64), solved as a layout of the start.
  TermMap Zero;
  TagLayout Layout;
  for (const Term *U : Unknowns)
    if (!Solved.count(U) && occursIn(U, Init)) {
      Zero[U] = T.constant(0);
      Layout.coordinates.push_back({U, boundOf(U)});
    }
  if (Layout.coordinates.size() < 2)
    return false;
  const Term *Rest = substitute(T, Init, Zero);
  Layout.address = normalize(T, T.sub(Init, Rest));
  const Term *Offset = T.rem(T.sub(Counter, substitute(T, Rest, Solved)), Step);
  LayoutMatchResult M = matchEither(Layout, Offset);
  if (!M.matched)
    return false;
  for (const LayoutCoordinate &C : Layout.coordinates)
    Solved[C.symbol] = normalize(T, M.coordinates.at(C.symbol));
  return true;
}

void WriterSolver::chooseWitnesses() {
  // Ids the destination does not fix: the first value of their range (a
  // loop's start, 0 for the rest). The writes condition checks the choice.
  for (size_t Round = 0; Round <= Unknowns.size(); ++Round)
    for (const Term *U : Unknowns) {
      if (Solved.count(U))
        continue;
      auto F = Counters.find(U);
      const Term *Value = F != Counters.end()
                              ? substitute(T, substitute(T, F->second->init, DigitMap), Solved)
                              : T.constant(0);
      bool Open = std::any_of(Unknowns.begin(), Unknowns.end(), [&](const Term *V) {
        return !Solved.count(V) && occursIn(V, Value);
      });
      if (!Open || Round == Unknowns.size())
        Solved[U] = Value;
    }
}

const Term *
WriterSolver::writesCondition(const std::vector<std::pair<std::string, const Term *>> &Element,
                              std::string &Why) {
  TermMap Final;
  for (const auto &[From, To] : DigitMap)
    Final[From] = substitute(T, To, Solved);
  for (const Term *Id : Ids)
    if (!Split.count(Id))
      Final[Id] = Solved.at(Id);
  std::vector<const Term *> Parts;
  for (const Term *Id : Ids) {
    const Term *V = Final.at(Id);
    auto S = Split.find(Id);
    // `blockIdx.y = H*b + h` of a grid `B * H`: `b < B` is the range
    // (linear), not `H*b + h < B*H`.
    const Term *HighBound = S != Split.end() && !S->second.divisor->isConstant()
                                ? quotientOf(Bounds.at(Id), S->second.divisor)
                                : nullptr;
    if (HighBound) {
      Parts.push_back(T.ge(Solved.at(S->second.high), T.constant(0)));
      Parts.push_back(T.lt(Solved.at(S->second.high), HighBound));
    } else if (!Counters.count(Id)) { // a counter's range is in the path
      Parts.push_back(T.ge(V, T.constant(0)));
      Parts.push_back(T.lt(V, Bounds.at(Id)));
    }
    if (S != Split.end()) {
      const Digits &Dg = S->second;
      for (size_t J = 0; J + 1 < Dg.digits.size(); ++J) {
        Parts.push_back(T.ge(Solved.at(Dg.digits[J]), T.constant(0)));
        Parts.push_back(
            T.lt(Solved.at(Dg.digits[J]),
                 Dg.weights.empty() ? Dg.divisor : T.constant(Dg.weights[J + 1] / Dg.weights[J])));
      }
      Parts.push_back(T.ge(Solved.at(Dg.high), T.constant(0)));
    }
  }
  for (const Term *P : W.path)
    Parts.push_back(substitute(T, P, Final));
  for (const auto &[Name, Coordinate] : Element)
    Parts.push_back(T.eq(substitute(T, W.destination.at(Name), Final), Coordinate));
  const Term *Writes = T.allOf(Parts);
  TermSet ElementSymbols;
  for (const auto &[Name, Coordinate] : Element) // a symbol, or a permutation's inverse of one
    for (const Term *S : collectSymbols(Coordinate))
      ElementSymbols.insert(S);
  for (const Term *S : collectSymbols(Writes))
    if (!isFixed(S) && !ElementSymbols.count(S)) {
      Why = "'" + S->baseName() + "' of its writer is not solved";
      return nullptr;
    }
  return Writes;
}

const Term *WriterSolver::quotientOf(const Term *Bound, const Term *Divisor) const {
  // Bound is a launch size the launch pragma gives as a product with
  // Divisor as a factor (`gridDim.y == B * H`): the other factors.
  if (!Bound)
    return nullptr;
  for (const Term *F : Ctx.kernelFacts) {
    if (F->kind() != TermKind::Eq)
      continue;
    const Term *Other = F->operand(0) == Bound   ? F->operand(1)
                        : F->operand(1) == Bound ? F->operand(0)
                                                 : nullptr;
    if (!Other || Other->kind() != TermKind::Mul)
      continue;
    std::vector<const Term *> Rest;
    bool Found = false;
    for (const Term *Op : Other->operands()) {
      if (!Found && Op == Divisor)
        Found = true;
      else
        Rest.push_back(Op);
    }
    if (!Found || Rest.empty())
      continue;
    const Term *Q = Rest.front();
    for (size_t I = 1; I < Rest.size(); ++I)
      Q = T.mul(Q, Rest[I]);
    return Q;
  }
  return nullptr;
}

const Term *WriterSolver::solve(const std::vector<std::pair<std::string, const Term *>> &Element,
                                std::string &Why) {
  if (!classify(Why) || !splitDigits(Why))
    return nullptr;
  for (const auto &[Name, Coordinate] : Element)
    solveCoordinate(Name, Coordinate, Why);
  for (const Term *U : Unknowns)
    for (const auto &[Name, D] : W.destination)
      if (!Solved.count(U) && occursIn(U, substitute(T, D, DigitMap)))
        return nullptr; // Why says which coordinate was not solved
  solveFromLoopStarts();
  TermMap BeforeWitnesses = Solved;
  chooseWitnesses();
  const Term *Writes = writesCondition(Element, Why);
  // Chunks whose starts are closer than their length (`k0 = z * chunk / 2`)
  // overlap: the chunk before the one the quotient names may hold the
  // element too. The alternative is checked like the first writer, so it
  // adds only writers that exist (without it, whether an element that no
  // chunk holds was confirmed depended on which element Z3 reported first).
  for (const auto &[U, Quotient] : StartQuotients) {
    if (!Writes)
      break;
    Solved = BeforeWitnesses;
    Solved[U] = T.sub(Quotient, T.constant(1));
    chooseWitnesses();
    std::string Unused;
    if (const Term *Before = writesCondition(Element, Unused))
      Writes = T.logicalOr(Writes, Before);
  }
  return Writes;
}

} // namespace ave::inv
