// Walks over the term DAG: substitution, symbol collection, evaluation. Each
// walk memoizes per node, because shared subterms are the norm (a thread's
// row term appears in every index of the tile).
#include "ave/invariants/CIntSemantics.h"
#include "ave/invariants/Term.h"

#include <algorithm>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace ave::inv {

namespace {

const Term *substituteMemo(TermContext &Ctx, const Term *Node, const TermMap &Replacements,
                           std::unordered_map<const Term *, const Term *> &Memo) {
  if (auto It = Replacements.find(Node); It != Replacements.end())
    return It->second;
  if (Node->numOperands() == 0)
    return Node;
  if (auto It = Memo.find(Node); It != Memo.end())
    return It->second;
  std::vector<const Term *> Ops;
  bool Changed = false;
  for (const Term *Op : Node->operands()) {
    Ops.push_back(substituteMemo(Ctx, Op, Replacements, Memo));
    Changed |= Ops.back() != Op;
  }
  const Term *Result = Changed ? Ctx.rebuild(Node, Ops) : Node;
  Memo.emplace(Node, Result);
  return Result;
}

std::vector<const Term *> collectKind(const Term *Node, TermKind Kind) {
  std::vector<const Term *> Found;
  findSubterm(Node, [&](const Term *T) {
    if (T->kind() == Kind)
      Found.push_back(T);
    return false;
  });
  std::sort(Found.begin(), Found.end(),
            [](const Term *A, const Term *B) { return A->id() < B->id(); });
  return Found;
}

class Evaluator {
public:
  explicit Evaluator(const Assignment &Values) : Values(Values) {}

  std::optional<int64_t> eval(const Term *T) {
    if (auto It = Memo.find(T); It != Memo.end())
      return It->second;
    std::optional<int64_t> V = compute(T);
    Memo.emplace(T, V);
    return V;
  }

private:
  std::optional<int64_t> compute(const Term *T) {
    switch (T->kind()) {
    case TermKind::Constant:
      return T->value();
    case TermKind::Symbol:
    case TermKind::Apply: {
      // An application's value is looked up by the whole term: the model
      // gives `tok(r)` a value for the r of this execution.
      auto It = Values.find(T);
      if (It == Values.end())
        return std::nullopt;
      return It->second;
    }
    case TermKind::LogicalAnd: {
      auto A = eval(T->operand(0));
      if (!A)
        return std::nullopt;
      if (*A == 0)
        return 0;
      auto B = eval(T->operand(1));
      if (!B)
        return std::nullopt;
      return *B != 0;
    }
    case TermKind::LogicalOr: {
      auto A = eval(T->operand(0));
      if (!A)
        return std::nullopt;
      if (*A != 0)
        return 1;
      auto B = eval(T->operand(1));
      if (!B)
        return std::nullopt;
      return *B != 0;
    }
    case TermKind::Select: {
      auto C = eval(T->operand(0));
      if (!C)
        return std::nullopt;
      return eval(T->operand(*C != 0 ? 1 : 2));
    }
    case TermKind::Overflows: {
      // The operator's operands must be defined; then C leaves the
      // operator undefined exactly where applying it has no value (its
      // operand is always an operator: TermContext::overflows folds leaves).
      const Term *Op = T->operand(0);
      std::optional<std::vector<int64_t>> Args = operandValues(Op);
      if (!Args)
        return std::nullopt;
      return applyCOperator(Op->kind(), *Args) ? 0 : 1;
    }
    default: {
      std::optional<std::vector<int64_t>> Args = operandValues(T);
      if (!Args)
        return std::nullopt;
      return applyCOperator(T->kind(), *Args);
    }
    }
  }

  std::optional<std::vector<int64_t>> operandValues(const Term *T) {
    std::vector<int64_t> Out;
    for (const Term *Op : T->operands()) {
      std::optional<int64_t> V = eval(Op);
      if (!V)
        return std::nullopt;
      Out.push_back(*V);
    }
    return Out;
  }

  const Assignment &Values;
  std::unordered_map<const Term *, std::optional<int64_t>> Memo;
};

} // namespace

namespace {

const Term *exactMemo(TermContext &Ctx, const Term *Node, std::vector<const Term *> &Conditions,
                      std::unordered_map<const Term *, const Term *> &Memo) {
  if (Node->numOperands() == 0)
    return Node;
  if (auto It = Memo.find(Node); It != Memo.end())
    return It->second;
  const Term *Result = nullptr;
  const Term *Else = Node->kind() == TermKind::Select ? Node->operand(2) : nullptr;
  if (Else && Else->isSymbol() && Else->isApproximation() &&
      TermContext::deterministicApproximation(Else->baseName())) {
    Conditions.push_back(exactMemo(Ctx, Node->operand(0), Conditions, Memo));
    Result = exactMemo(Ctx, Node->operand(1), Conditions, Memo);
  } else {
    std::vector<const Term *> Ops;
    bool Changed = false;
    for (const Term *Op : Node->operands()) {
      Ops.push_back(exactMemo(Ctx, Op, Conditions, Memo));
      Changed |= Ops.back() != Op;
    }
    Result = Changed ? Ctx.rebuild(Node, Ops) : Node;
  }
  Memo.emplace(Node, Result);
  return Result;
}

} // namespace

const Term *exactBranches(TermContext &Ctx, const Term *Node,
                          std::vector<const Term *> &Conditions) {
  std::unordered_map<const Term *, const Term *> Memo;
  return exactMemo(Ctx, Node, Conditions, Memo);
}

const Term *substitute(TermContext &Ctx, const Term *Node, const TermMap &Replacements) {
  if (Replacements.empty())
    return Node;
  std::unordered_map<const Term *, const Term *> Memo;
  return substituteMemo(Ctx, Node, Replacements, Memo);
}

void collectConjuncts(const Term *Node, std::vector<const Term *> &Out) {
  if (Node->kind() != TermKind::LogicalAnd) {
    Out.push_back(Node);
    return;
  }
  for (const Term *Op : Node->operands())
    collectConjuncts(Op, Out);
}

std::vector<const Term *> collectSymbols(const Term *Node) {
  return collectKind(Node, TermKind::Symbol);
}

const Term *firstApproximation(const Term *Node) {
  for (const Term *S : collectSymbols(Node))
    if (S->isApproximation())
      return S;
  return nullptr;
}

std::vector<const Term *> collectApplications(const Term *Node) {
  return collectKind(Node, TermKind::Apply);
}

const Term *findSubterm(const Term *Root, const std::function<bool(const Term *)> &Stop) {
  std::unordered_set<const Term *> Seen;
  std::vector<const Term *> Work{Root};
  while (!Work.empty()) {
    const Term *T = Work.back();
    Work.pop_back();
    if (!Seen.insert(T).second)
      continue;
    if (Stop(T))
      return T;
    Work.insert(Work.end(), T->operands().begin(), T->operands().end());
  }
  return nullptr;
}

bool occursIn(const Term *Needle, const Term *Node) {
  return findSubterm(Node, [&](const Term *T) { return T == Needle; }) != nullptr;
}

bool containsBitwise(const Term *Node) {
  return findSubterm(Node, [](const Term *T) { return isBitwise(T->kind()); }) != nullptr;
}

std::optional<int64_t> evaluate(const Term *Node, const Assignment &Values) {
  Evaluator Evaluator(Values);
  return Evaluator.eval(Node);
}

} // namespace ave::inv
