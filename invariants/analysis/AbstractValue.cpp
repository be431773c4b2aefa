#include "AbstractValue.h"

#include <algorithm>

namespace ave::inv {

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

namespace {

DataValue joinData(TermContext &T, const Term *Cond, const DataValue &Then, DataValue Else) {
  if (Then.kind == DataValue::Kind::Unknown || Else.kind == DataValue::Kind::Unknown)
    return DataValue::unknown(Then.kind == DataValue::Kind::Unknown ? Then.reason : Else.reason);
  if (Then.kind == DataValue::Kind::Neutral && Else.kind == DataValue::Kind::Neutral &&
      Then.accumulator == Else.accumulator)
    return Else;
  // Each side's cases survive under its path condition.
  DataValue Joined;
  Joined.kind = DataValue::Kind::Tagged;
  Joined.accumulator = Then.accumulates() ? Then.accumulator : Else.accumulator;
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
  Joined.reductions = Then.reductions;
  Joined.reductions.insert(Joined.reductions.end(), Else.reductions.begin(), Else.reductions.end());
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
  // Two different private arrays: the else side, as the structured walk did.
  return Else;
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
  for (Reduction &R : Out.reductions) {
    R.term = substitute(T, R.term, Map);
    for (const Term *&K : R.constraints)
      K = substitute(T, K, Map);
  }
  return Out;
}

AbstractValue readElement(TermContext &T, const PrivateArray &Arr, const Term *Index) {
  if (Index->isConstant()) {
    auto Slot = Arr.constantSlots.find(Index->value());
    if (Slot != Arr.constantSlots.end())
      return Slot->second;
  }
  if (Arr.slotCounter) {
    AbstractValue V = Arr.slotValue;
    TermMap Map{{Arr.slotCounter, Index}};
    if (V.kind == AbstractValue::Kind::Data)
      V.data = substituteData(T, V.data, Map);
    else if (V.kind == AbstractValue::Kind::Int)
      V.term = substitute(T, V.term, Map);
    return V;
  }
  // `float4 acc = {0, 0, 0, 0}` read at any index: every slot is neutral.
  if (!Arr.constantSlots.empty() &&
      std::all_of(Arr.constantSlots.begin(), Arr.constantSlots.end(), [](const auto &S) {
        return S.second.kind == AbstractValue::Kind::Data &&
               S.second.data.kind == DataValue::Kind::Neutral && !S.second.data.accumulates();
      }))
    return AbstractValue::ofData(DataValue::neutral());
  return AbstractValue::ofData(DataValue::unknown("private array element never written"));
}

} // namespace ave::inv
