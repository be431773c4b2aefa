#include "AbstractValue.h"

#include "ave/invariants/Polynomial.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <set>
#include <sstream>
#include <string>

namespace ave::inv {

const char *const RestartReason =
    "the running value is replaced on one path and kept on the other (`if (c) acc = x;` in "
    "its loop): which contributions survive is not modelled";

bool sameValue(const AbstractValue &A, const AbstractValue &B) {
  if (A.kind != B.kind)
    return false;
  switch (A.kind) {
  case AbstractValue::Kind::None:
    return true;
  case AbstractValue::Kind::Int:
    return A.term == B.term;
  case AbstractValue::Kind::Data:
    return A.data == B.data;
  case AbstractValue::Kind::Pointer:
    return A.pointer.base == B.pointer.base && A.pointer.offset == B.pointer.offset &&
           A.pointer.lanes == B.pointer.lanes;
  case AbstractValue::Kind::Array:
    // Private arrays are copied on write, so one storage means one value.
    return A.array == B.array;
  }
  return false;
}

bool inOnlineSoftmax(const DataValue &V) {
  auto Weight = V.parameterPower.find(SoftmaxWeightName);
  return V.maxShift || V.rescaledBy || V.shiftedByMax ||
         (Weight != V.parameterPower.end() && Weight->second != 0);
}

std::string storedArithmeticProblem(const DataValue &V) {
  if (!V.isTagged())
    return "";
  if (!V.nonlinear.empty())
    return "the value went through " + V.nonlinear + ", which the tags' einsum does not have";
  // DESIGN.md has max and min reductions (`m = fmaxf(m, x)` from -inf);
  // the tags' einsum, and so harness's reference, sums. A running max is
  // checked where it shifts a softmax, not where it is stored.
  // (A max of one element with itself, nothing reduced, is that element.)
  if ((V.accumulatedBy == 'M' || V.accumulatedBy == 'n') &&
      (!V.reductions.empty() || !V.reduced.empty()))
    return std::string("the value is a running ") + (V.accumulatedBy == 'M' ? "max" : "min") +
           " (`m = fmaxf(m, x)`, `fminf`), and the tags' einsum reduces by a sum";
  if (V.scaleIsOne())
    return "";
  if (std::isnan(V.scale))
    return "the value's constant factor differs between its terms or paths (`x + 2.0f * y`, "
           "`c ? x : 2.0f * x`), which the tags' einsum does not describe";
  std::ostringstream Out;
  Out << "the value carries the constant factor " << V.scale
      << " (`2.0f * x`, `x / 4.0f`), which the tags' einsum does not have";
  return Out.str();
}

void setParameters(DataValue &Out, const DataValue &A, const DataValue &B, char Op) {
  std::set<std::string> Names = A.parameters;
  Names.insert(B.parameters.begin(), B.parameters.end());
  std::set<std::string> Misapplied = A.misappliedParameters;
  Misapplied.insert(B.misappliedParameters.begin(), B.misappliedParameters.end());
  std::map<std::string, int> Power = A.parameterPower;
  for (const auto &[Name, P] : B.parameterPower) {
    int &Mine = Power[Name];
    if (Op == '*')
      Mine += P;
    else if (Op == '/')
      Mine -= P;
    else if (std::abs(P) > std::abs(Mine))
      Mine = P;
  }
  for (const auto &[Name, P] : Power)
    if (P != 0 && P != 1)
      Misapplied.insert(Name);
  Out.parameters = std::move(Names);
  Out.parameterPower = std::move(Power);
  if (Out.nonlinear.empty())
    Out.nonlinear = !A.nonlinear.empty() ? A.nonlinear : B.nonlinear;
  Out.misappliedParameters = std::move(Misapplied);
}

namespace {

// Whether V is the number 0 or an infinity (a running value before its
// loop, the `: 0.0f` of a guarded value, a masked score's -INFINITY): any
// parameter's power times it is itself.
bool isZeroNumber(const DataValue &V) {
  return V.kind == DataValue::Kind::Neutral && !V.fromParameter() && !V.constants.empty() &&
         std::all_of(V.constants.begin(), V.constants.end(),
                     [](double C) { return C == 0.0 || std::isinf(C); });
}

} // namespace

void markUnevenParameters(DataValue &Out, const DataValue &A, const DataValue &B) {
  // `c ? alpha : 1.0f`, alpha on even rows only, `alpha - alpha`, `alpha +
  // 1.0f`: the parameter is not one factor of the whole value. Taking the
  // union of the two sides' powers proved those kernels.
  if (isZeroNumber(A) || isZeroNumber(B))
    return;
  auto PowerIn = [](const DataValue &V, const std::string &Name) {
    auto It = V.parameterPower.find(Name);
    return It == V.parameterPower.end() ? 0 : It->second;
  };
  for (const std::string &Name : Out.parameters)
    if (PowerIn(A, Name) != PowerIn(B, Name) || A.misappliedParameters.count(Name) ||
        B.misappliedParameters.count(Name))
      Out.misappliedParameters.insert(Name);
}

namespace {

DataValue joinCases(TermContext &T, const Term *Cond, const DataValue &Then, DataValue Else);

// The online softmax's markers survive a join only where both sides agree;
// a running value rescaled on one side only is not followed.
DataValue joinData(TermContext &T, const Term *Cond, const DataValue &Then, DataValue Else) {
  bool Known = Then.kind != DataValue::Kind::Unknown && Else.kind != DataValue::Kind::Unknown;
  if (Known && Then.rescaledBy != Else.rescaledBy)
    return DataValue::unknown("a running value is rescaled by exp(m_prev - m) on one path and "
                              "not the same way on the other (online softmax)");
  std::optional<MaxShift> Shift =
      Then.maxShift == Else.maxShift ? Then.maxShift : std::optional<MaxShift>();
  std::optional<MaxShift> Rescaled = Then.rescaledBy;
  DataValue Out = joinCases(T, Cond, Then, std::move(Else));
  if (Out.kind != DataValue::Kind::Unknown) {
    Out.maxShift = std::move(Shift);
    Out.rescaledBy = std::move(Rescaled);
  }
  return Out;
}

DataValue joinCases(TermContext &T, const Term *Cond, const DataValue &Then, DataValue Else) {
  if (Then.kind == DataValue::Kind::Unknown || Else.kind == DataValue::Kind::Unknown)
    return DataValue::unknown(Then.kind == DataValue::Kind::Unknown ? Then.reason : Else.reason);
  if (Then.kind == DataValue::Kind::Neutral && Else.kind == DataValue::Kind::Neutral &&
      Then.accumulator == Else.accumulator) {
    // Either side's constant (`c ? 1.0f : 0.0f`) may be the value.
    Else.restarted = Else.restarted || Then.restarted;
    DataValue Before = Else;
    Else.constants.insert(Else.constants.end(), Then.constants.begin(), Then.constants.end());
    setParameters(Else, Else, Then, '+');
    markUnevenParameters(Else, Before, Then);
    return Else;
  }
  // `if (k == K / 2) acc = 0.0f;`, `acc = (c ? 0.0f : acc) + x`: on one
  // path the running value goes on, on the other it starts again, and what
  // was added before is lost there. Taken as the running value, the restart
  // was forgotten (the wrong kernels were proven). A value only overwritten
  // (`v = X[i]` on one path) is no accumulation: marked, and unknown only
  // if its loop accumulates it (LoopSummary::finish).
  bool Restarted = Then.restarted || Else.restarted;
  // A sum on one path and a max on the other (`if (k % 2) s += x; else s =
  // fmaxf(s, x);`) is no one reduction.
  if (Then.accumulatedBy && Else.accumulatedBy && Then.accumulatedBy != Else.accumulatedBy)
    return DataValue::unknown("a running value is combined by a sum on one path and by a max or "
                              "min on another, which the tags' einsum does not have");
  if (Then.accumulates() != Else.accumulates()) {
    if ((Then.accumulates() ? Then : Else).accumulatedBy == '+')
      return DataValue::unknown(RestartReason);
    Restarted = true;
  }
  // Each side's cases survive under its path condition; paths that leave
  // different constant factors leave none (NaN, reported at the store).
  DataValue Joined;
  Joined.kind = DataValue::Kind::Tagged;
  Joined.scale = Then.isTagged() ? Then.scale : Else.scale;
  if (Then.isTagged() && Else.isTagged() && !DataValue::sameScale(Then.scale, Else.scale))
    Joined.scale = std::nan("");
  Joined.accumulator = Then.accumulates() ? Then.accumulator : Else.accumulator;
  // A sum on one path and nothing added on the other is still a sum.
  Joined.accumulatedBy = Then.accumulatedBy ? Then.accumulatedBy : Else.accumulatedBy;
  for (ProvenanceCase C : Then.cases) {
    C.validity = T.logicalAnd(C.validity, Cond);
    Joined.cases.push_back(std::move(C));
  }
  for (ProvenanceCase C : Else.cases) {
    C.validity = T.logicalAnd(C.validity, T.logicalNot(Cond));
    Joined.cases.push_back(std::move(C));
  }
  if (Joined.cases.empty())
    Joined.kind = DataValue::Kind::Neutral;
  Joined.reduced = Then.reduced;
  Joined.reduced.insert(Else.reduced.begin(), Else.reduced.end());
  Joined.severalContributions = Then.severalContributions || Else.severalContributions;
  setParameters(Joined, Then, Else, '+');
  markUnevenParameters(Joined, Then, Else);
  // Each side's reductions hold on its side only: both are checked, each
  // under its condition.
  const Term *ElseCond = T.logicalNot(Cond);
  for (const auto &[Side, When] : {std::pair<const DataValue *, const Term *>{&Then, Cond},
                                   std::pair<const DataValue *, const Term *>{&Else, ElseCond}})
    for (Reduction R : Side->reductions) {
      R.applies = R.applies ? T.logicalAnd(R.applies, When) : When;
      Joined.reductions.push_back(std::move(R));
    }
  Joined.restarted = Restarted;
  Joined.rescales = Then.rescales;
  Joined.rescales.insert(Joined.rescales.end(), Else.rescales.begin(), Else.rescales.end());
  return Joined;
}

} // namespace

AbstractValue joinValues(TermContext &T, const Term *Cond, const AbstractValue &Then,
                         AbstractValue Else) {
  using Kind = AbstractValue::Kind;
  if (Then.kind == Kind::Int && Else.kind == Kind::Int)
    return AbstractValue::ofInt(T.select(Cond, Then.term, Else.term));
  if (Then.kind == Kind::Pointer && Else.kind == Kind::Pointer &&
      Then.pointer.base == Else.pointer.base && Then.pointer.lanes == Else.pointer.lanes &&
      Then.pointer.offset && Else.pointer.offset) {
    Else.pointer.offset = T.select(Cond, Then.pointer.offset, Else.pointer.offset);
    return Else;
  }
  if (Then.kind == Kind::Data && Else.kind == Kind::Data)
    return AbstractValue::ofData(joinData(T, Cond, Then.data, std::move(Else.data)));
  if (Then.kind != Else.kind) {
    if (Then.kind == Kind::Data || Else.kind == Kind::Data)
      return AbstractValue::ofData(DataValue::unknown("joined with a non-data value"));
    return Then.kind == Kind::None ? Else : Then;
  }
  // Two different private arrays: per element, Then's where Cond holds.
  if (Then.kind == Kind::Array && Then.array && Else.array) {
    auto Joined = std::make_shared<PrivateArray>();
    Joined->joinCond = Cond;
    Joined->thenArray = Then.array;
    Joined->elseArray = Else.array;
    Joined->size = Then.array->size == Else.array->size ? Then.array->size : 0;
    return AbstractValue::ofArray(std::move(Joined));
  }
  return Else;
}

AbstractValue substituteValue(TermContext &T, AbstractValue V, const TermMap &Map) {
  if (V.kind == AbstractValue::Kind::Data)
    V.data = substituteData(T, V.data, Map);
  else if (V.kind == AbstractValue::Kind::Int)
    V.term = substitute(T, V.term, Map);
  return V;
}

const Term *twoIndexElement(TermContext &T, const PrivateArray &Arr) {
  const Term *Element =
      T.add(T.mul(T.constant(Arr.slotStride), Arr.slotCounter), Arr.slotRemainder);
  return Arr.slotBase ? T.add(Arr.slotBase, Element) : Element;
}

const Term *remainderInRange(TermContext &T, const PrivateArray &Arr) {
  return T.logicalAnd(T.ge(Arr.slotRemainder, T.constant(0)),
                      T.lt(Arr.slotRemainder, T.constant(Arr.slotStride)));
}

DataValue substituteData(TermContext &T, const DataValue &V, const TermMap &Map) {
  DataValue Out = V;
  for (std::vector<ProvenanceCase> *Cases : {&Out.cases, &Out.rescales})
    for (ProvenanceCase &C : *Cases) {
      C.validity = substitute(T, C.validity, Map);
      for (const Term *&K : C.constraints)
        K = substitute(T, K, Map);
      for (auto &[Name, Coordinate] : C.coords)
        Coordinate = substitute(T, Coordinate, Map);
      for (ValueOrigin &O : C.origins) {
        for (const Term *&W : O.writerThread)
          W = substitute(T, W, Map);
        if (O.element)
          O.element = substitute(T, O.element, Map);
      }
    }
  for (Reduction &Whole : Out.reductions)
    forEachPiece(Whole, [&](Reduction &R) {
      R.term = substitute(T, R.term, Map);
      for (const Term *&K : R.constraints)
        K = substitute(T, K, Map);
      if (R.contributes)
        R.contributes = substitute(T, R.contributes, Map);
      if (R.applies)
        R.applies = substitute(T, R.applies, Map);
    });
  return Out;
}

std::vector<Reduction> sumReductions(const std::vector<Reduction> &Before,
                                     std::vector<Reduction> After, const std::string &Where) {
  std::vector<Reduction> Kept;
  std::set<std::string> Seen;
  for (size_t I = 0; I < Before.size(); ++I) {
    const Reduction &P = Before[I];
    if (std::find(Before.begin(), Before.begin() + I, P) != Before.begin() + I)
      continue; // the same record twice
    bool Continued = false;
    for (Reduction &R : After) {
      // Partial sums that crossed threads through shared memory (an LDS
      // tree adds its neighbour's partial) stay records of their own: the
      // combination over the block's threads is taken as a whole there.
      if (R.name != P.name || R.crossedThreads || P.crossedThreads)
        continue;
      Continued = true;
      if (Seen.count(P.name) || P.applies) {
        // Alternatives (an if/else of loops), or several records of the
        // name: which of them is continued is not tracked.
        if (R.notModelled.empty())
          R.notModelled = "'" + P.name + "' was reduced along several paths before " + Where +
                          " reduces it again; counting each index once is not modelled for that";
        continue;
      }
      Reduction Flat = P;
      std::vector<Reduction> Pieces = std::move(Flat.earlier);
      Flat.earlier.clear();
      R.earlier.insert(R.earlier.begin(), std::move(Flat));
      R.earlier.insert(R.earlier.begin(), Pieces.begin(), Pieces.end());
      if (!P.notModelled.empty() && R.notModelled.empty())
        R.notModelled = P.notModelled;
    }
    Seen.insert(P.name);
    if (!Continued)
      Kept.push_back(P);
  }
  After.insert(After.begin(), Kept.begin(), Kept.end());
  return After;
}

void takePointPieces(DataValue &Point, const std::vector<Reduction> &Reductions,
                     const Term *const (&Tids)[3],
                     const std::function<bool(const Reduction &)> &Takes) {
  // Alternatives would each be a piece of their own: one case only.
  if (Point.cases.size() != 1)
    return;
  ProvenanceCase &C = Point.cases.front();
  for (const Reduction &R : Reductions) {
    auto Coord = C.coords.find(R.name);
    if (Coord == C.coords.end() || Point.reduced.count(R.name) || !Takes(R))
      continue;
    Reduction Piece;
    Piece.name = R.name;
    Piece.term = Coord->second;
    Piece.constraints = C.constraints;
    Piece.constraints.push_back(C.validity);
    Piece.site = R.site;
    for (unsigned D = 0; D < 3; ++D)
      if (occursIn(Tids[D], Piece.term))
        Piece.partialOverThreadDims.push_back(D);
    Piece.perThreadTerm = Piece.term;
    Piece.perThreadConstraints = Piece.constraints;
    Point.reductions.push_back(std::move(Piece));
    Point.reduced.insert(R.name);
    C.coords.erase(Coord);
  }
}

namespace {

// Cond as Decide settles it: 1 holds, 0 never holds, -1 either.
int decideCondition(const Term *Cond, const ElementDecider &Decide) {
  if (Cond->isConstant())
    return Cond->value() != 0 ? 1 : 0;
  return Decide ? Decide(Cond) : -1;
}

// Decide, where Assumed holds as well.
ElementDecider under(TermContext &T, const Term *Assumed, const ElementDecider &Decide) {
  if (!Decide)
    return Decide;
  return [&T, Assumed, Decide](const Term *Cond) {
    if (Decide(T.logicalOr(T.logicalNot(Assumed), Cond)) == 1)
      return 1;
    if (Decide(T.logicalAnd(Assumed, Cond)) == 0)
      return 0;
    return -1;
  };
}

// Index - Base as Stride * Q + R with R's coefficients in [0, Stride)
// (`4*i + j` by 4: i and j), when R provably lies in [0, Stride); else
// the quotient and remainder of the division.
std::pair<const Term *, const Term *> splitByStride(TermContext &T, const Term *Rel, int64_t Stride,
                                                    const ElementDecider &Decide) {
  Polynomial P = toPolynomial(T, Rel);
  Polynomial Q, R;
  bool Exact = true;
  for (const auto &[Mono, Coefficient] : P.terms()) {
    int64_t Low = ((Coefficient % Stride) + Stride) % Stride;
    int64_t High = (Coefficient - Low) / Stride;
    auto NextQ = Q.plus(Polynomial::monomial(Mono, High));
    auto NextR = R.plus(Polynomial::monomial(Mono, Low));
    if (!NextQ || !NextR) {
      Exact = false;
      break;
    }
    Q = *NextQ;
    R = *NextR;
  }
  if (Exact) {
    const Term *Rest = toTerm(T, R);
    const Term *Inside = T.logicalAnd(T.ge(Rest, T.constant(0)), T.lt(Rest, T.constant(Stride)));
    if (decideCondition(Inside, Decide) == 1)
      return {toTerm(T, Q), Rest};
  }
  return {T.div(Rel, T.constant(Stride)), T.rem(Rel, T.constant(Stride))};
}

// What the slot's indices are at element Index.
TermMap slotIndices(TermContext &T, const PrivateArray &Arr, const Term *Index,
                    const ElementDecider &Decide) {
  const Term *Rel = Arr.slotBase ? normalize(T, T.sub(Index, Arr.slotBase)) : Index;
  if (!Arr.slotStride)
    return {{Arr.slotCounter, Rel}};
  auto [Q, R] = splitByStride(T, Rel, Arr.slotStride, Decide);
  return {{Arr.slotCounter, Q}, {Arr.slotRemainder, R}};
}

AbstractValue neverWritten() {
  return AbstractValue::ofData(DataValue::unknown("private array element never written"));
}

} // namespace

AbstractValue readElement(TermContext &T, const PrivateArray &Arr, const Term *Index,
                          const ElementDecider &Decide) {
  if (Index->isConstant()) {
    auto Slot = Arr.constantSlots.find(Index->value());
    if (Slot != Arr.constantSlots.end())
      return Slot->second;
  }
  if (Arr.joinCond) {
    AbstractValue Then = Arr.thenArray
                             ? readElement(T, *Arr.thenArray, Index, under(T, Arr.joinCond, Decide))
                             : neverWritten();
    AbstractValue Else = Arr.elseArray ? readElement(T, *Arr.elseArray, Index,
                                                     under(T, T.logicalNot(Arr.joinCond), Decide))
                                       : neverWritten();
    return joinValues(T, Arr.joinCond, Then, std::move(Else));
  }
  if (Arr.slotCounter) {
    TermMap Map = slotIndices(T, Arr, Index, Decide);
    AbstractValue V = substituteValue(T, Arr.slotValue, Map);
    if (!Arr.slotDomain)
      return V;
    const Term *Inside = substitute(T, Arr.slotDomain, Map);
    int Holds = decideCondition(Inside, Decide);
    if (Holds == 1)
      return V;
    AbstractValue Old =
        Arr.below ? readElement(T, *Arr.below, Index, under(T, T.logicalNot(Inside), Decide))
                  : neverWritten();
    if (Holds == 0)
      return Old;
    if (V.kind == AbstractValue::Kind::Int && Old.kind != AbstractValue::Kind::Int)
      return AbstractValue::ofInt(T.freshSymbol("elem", SymbolKind::Fresh));
    return joinValues(T, Inside, V, std::move(Old));
  }
  // `float4 acc = {0, 0, 0, 0}` read at any index: every slot is neutral,
  // and the value is any of theirs (its constants are all of theirs: a slot
  // that starts a sum at 1.0f is an initial value to reject, and was lost
  // here). A slot no initialiser wrote leaves the element unknown.
  if (!Arr.constantSlots.empty() && (!Arr.size || Arr.constantSlots.size() >= Arr.size) &&
      std::all_of(Arr.constantSlots.begin(), Arr.constantSlots.end(), [](const auto &S) {
        return S.second.kind == AbstractValue::Kind::Data &&
               S.second.data.kind == DataValue::Kind::Neutral && !S.second.data.accumulates();
      })) {
    DataValue Any = DataValue::neutral();
    for (const auto &[Slot, Value] : Arr.constantSlots)
      Any = joinCases(T, T.trueTerm(), Value.data, std::move(Any));
    return AbstractValue::ofData(std::move(Any));
  }
  return AbstractValue::ofData(DataValue::unknown("private array element never written"));
}

} // namespace ave::inv
