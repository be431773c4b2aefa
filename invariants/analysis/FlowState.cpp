// Joins at the CFG's merge points. Path-sensitive where it is cheap: each
// incoming path's value survives as a case under that path's condition, and
// an integer becomes a select on it; a variable no path changed joins to
// itself.

#include "FlowState.h"

namespace ave::inv {

namespace {

// `c` and `!c` in either order: the two sides of one branch.
bool complementary(TermContext &T, const Term *A, const Term *B) {
  return A == T.logicalNot(B) || B == T.logicalNot(A);
}

// How many leading path facts every state shares.
size_t commonPrefix(const std::vector<FlowState> &States) {
  size_t Common = States.front().path.size();
  for (const FlowState &S : States) {
    size_t I = 0;
    while (I < Common && I < S.path.size() && S.path[I] == States.front().path[I])
      ++I;
    Common = I;
  }
  return Common;
}

} // namespace

FlowState joinStates(TermContext &T, std::vector<FlowState> &States) {
  if (States.size() == 1)
    return std::move(States.front());
  size_t Common = commonPrefix(States);
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
      Joined = joinValues(T, Conds[I], States[I].env.find(Decl)->second, std::move(Joined));
    Out.env.emplace(Decl, std::move(Joined));
  }
  return Out;
}

} // namespace ave::inv
