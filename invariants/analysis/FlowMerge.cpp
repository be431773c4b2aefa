// Joins at the CFG's merge points. Path-sensitive where it is cheap: each
// incoming path's value survives as a case under that path's condition, and
// an integer becomes a select on it; a variable no path changed joins to
// itself.

#include "ProvenanceInterpreter.h"

namespace ave::inv {

namespace {

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

// `c` and `!c` in either order: the two sides of one branch.
bool complementary(TermContext &T, const Term *A, const Term *B) {
  return A == T.logicalNot(B) || B == T.logicalNot(A);
}

} // namespace

AbstractValue ProvenanceInterpreter::joinValues(const Term *Cond, const AbstractValue &Then,
                                                AbstractValue Else) {
  if (Then.kind == AbstractValue::Kind::Int && Else.kind == AbstractValue::Kind::Int)
    return AbstractValue::ofInt(T.select(Cond, Then.term, Else.term));
  if (Then.kind == AbstractValue::Kind::Pointer && Else.kind == AbstractValue::Kind::Pointer &&
      Then.pointer.base == Else.pointer.base && Then.pointer.lanes == Else.pointer.lanes &&
      Then.pointer.offset && Else.pointer.offset) {
    Else.pointer.offset = T.select(Cond, Then.pointer.offset, Else.pointer.offset);
    return Else;
  }
  if (Then.kind == AbstractValue::Kind::Data && Else.kind == AbstractValue::Kind::Data) {
    const DataValue &Th = Then.data;
    DataValue &E = Else.data;
    if (Th.kind == DataValue::Kind::Unknown || E.kind == DataValue::Kind::Unknown)
      return AbstractValue::ofData(
          DataValue::unknown(Th.kind == DataValue::Kind::Unknown ? Th.reason : E.reason));
    if (Th.kind == DataValue::Kind::Neutral && E.kind == DataValue::Kind::Neutral &&
        Th.accumulator == E.accumulator)
      return Else;
    // Each side's cases survive under its path condition.
    DataValue Joined;
    Joined.kind = DataValue::Kind::Tagged;
    Joined.accumulator = Th.accumulator ? Th.accumulator : E.accumulator;
    for (ProvenanceCase C : Th.cases) {
      C.validity = T.logicalAnd(C.validity, Cond);
      Joined.cases.push_back(std::move(C));
    }
    for (ProvenanceCase C : E.cases) {
      C.validity = T.logicalAnd(C.validity, T.logicalNot(Cond));
      Joined.cases.push_back(std::move(C));
    }
    if (Joined.cases.empty())
      Joined.kind = DataValue::Kind::Neutral;
    Joined.reduced = Th.reduced;
    Joined.reduced.insert(E.reduced.begin(), E.reduced.end());
    Joined.reductions = Th.reductions;
    Joined.reductions.insert(Joined.reductions.end(), E.reductions.begin(), E.reductions.end());
    Joined.rescales = Th.rescales;
    Joined.rescales.insert(Joined.rescales.end(), E.rescales.begin(), E.rescales.end());
    return AbstractValue::ofData(std::move(Joined));
  }
  if (Then.kind != Else.kind) {
    if (Then.kind == AbstractValue::Kind::Data || Else.kind == AbstractValue::Kind::Data)
      return AbstractValue::ofData(DataValue::unknown("joined with a non-data value"));
    return Then.kind == AbstractValue::Kind::None ? Else : Then;
  }
  // Two different private arrays: the else side, as the structured walk did.
  return Else;
}

ProvenanceInterpreter::FlowState ProvenanceInterpreter::merge(std::vector<FlowState> &States) {
  if (States.size() == 1)
    return std::move(States.front());
  // The facts every path has in common stay facts; the rest is each path's
  // own condition.
  size_t Common = States.front().path.size();
  for (const FlowState &S : States) {
    size_t I = 0;
    while (I < Common && I < S.path.size() && S.path[I] == States.front().path[I])
      ++I;
    Common = I;
  }
  std::vector<const Term *> Conds;
  bool SomeUnconditional = false;
  for (const FlowState &S : States) {
    Conds.push_back(
        T.allOf(std::span<const Term *const>(S.path.data() + Common, S.path.size() - Common)));
    SomeUnconditional |= Conds.back()->isConstant() && Conds.back()->value() != 0;
  }
  FlowState Out;
  Out.path.assign(States.front().path.begin(), States.front().path.begin() + Common);
  // One of the paths was taken; for the two sides of one branch that is no news.
  if (!SomeUnconditional && !(Conds.size() == 2 && complementary(T, Conds[0], Conds[1]))) {
    const Term *AnyPath = T.falseTerm();
    for (const Term *C : Conds)
      AnyPath = T.logicalOr(AnyPath, C);
    Out.path.push_back(AnyPath);
  }
  // A variable declared on only some paths is out of scope here.
  for (auto &[Decl, First] : States.front().env) {
    bool Everywhere = true, Same = true;
    for (size_t I = 1; I < States.size() && Everywhere; ++I) {
      auto It = States[I].env.find(Decl);
      if (It == States[I].env.end())
        Everywhere = false;
      else
        Same = Same && sameValue(First, It->second);
    }
    if (!Everywhere)
      continue;
    if (Same) {
      Out.env.emplace(Decl, First);
      continue;
    }
    AbstractValue Joined = States.back().env.find(Decl)->second;
    for (size_t I = States.size() - 1; I-- > 0;)
      Joined = joinValues(Conds[I], States[I].env.find(Decl)->second, std::move(Joined));
    Out.env.emplace(Decl, std::move(Joined));
  }
  return Out;
}

} // namespace ave::inv
