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

const Term *substituteMemo(TermContext &ctx, const Term *term, const TermMap &replacements,
                           std::unordered_map<const Term *, const Term *> &memo) {
  if (auto it = replacements.find(term); it != replacements.end())
    return it->second;
  if (term->numOperands() == 0)
    return term;
  if (auto it = memo.find(term); it != memo.end())
    return it->second;
  std::vector<const Term *> ops;
  bool changed = false;
  for (const Term *op : term->operands()) {
    ops.push_back(substituteMemo(ctx, op, replacements, memo));
    changed |= ops.back() != op;
  }
  const Term *result = changed ? ctx.rebuild(term, ops) : term;
  memo.emplace(term, result);
  return result;
}

template <typename Visit>
void visitOnce(const Term *term, std::unordered_set<const Term *> &seen, Visit &&visit) {
  if (!seen.insert(term).second)
    return;
  visit(term);
  for (const Term *op : term->operands())
    visitOnce(op, seen, visit);
}

std::vector<const Term *> collectKind(const Term *term, TermKind kind) {
  std::unordered_set<const Term *> seen;
  std::vector<const Term *> found;
  visitOnce(term, seen, [&](const Term *t) {
    if (t->kind() == kind)
      found.push_back(t);
  });
  std::sort(found.begin(), found.end(),
            [](const Term *a, const Term *b) { return a->id() < b->id(); });
  return found;
}

class Evaluator {
public:
  explicit Evaluator(const Assignment &values) : Values(values) {}

  std::optional<int64_t> eval(const Term *t) {
    if (auto it = Memo.find(t); it != Memo.end())
      return it->second;
    std::optional<int64_t> v = compute(t);
    Memo.emplace(t, v);
    return v;
  }

private:
  std::optional<int64_t> compute(const Term *t) {
    switch (t->kind()) {
    case TermKind::Constant:
      return t->value();
    case TermKind::Symbol:
    case TermKind::Apply: {
      // An application's value is looked up by the whole term: the model
      // gives `tok(r)` a value for the r of this execution.
      auto it = Values.find(t);
      if (it == Values.end())
        return std::nullopt;
      return it->second;
    }
    case TermKind::LogicalAnd: {
      auto a = eval(t->operand(0));
      if (!a)
        return std::nullopt;
      if (*a == 0)
        return 0;
      auto b = eval(t->operand(1));
      if (!b)
        return std::nullopt;
      return *b != 0;
    }
    case TermKind::LogicalOr: {
      auto a = eval(t->operand(0));
      if (!a)
        return std::nullopt;
      if (*a != 0)
        return 1;
      auto b = eval(t->operand(1));
      if (!b)
        return std::nullopt;
      return *b != 0;
    }
    case TermKind::Select: {
      auto c = eval(t->operand(0));
      if (!c)
        return std::nullopt;
      return eval(t->operand(*c != 0 ? 1 : 2));
    }
    default: {
      std::vector<int64_t> values;
      for (const Term *op : t->operands()) {
        auto v = eval(op);
        if (!v)
          return std::nullopt;
        values.push_back(*v);
      }
      return applyCOperator(t->kind(), values);
    }
    }
  }

  const Assignment &Values;
  std::unordered_map<const Term *, std::optional<int64_t>> Memo;
};

} // namespace

const Term *substitute(TermContext &ctx, const Term *term, const TermMap &replacements) {
  if (replacements.empty())
    return term;
  std::unordered_map<const Term *, const Term *> memo;
  return substituteMemo(ctx, term, replacements, memo);
}

std::vector<const Term *> collectSymbols(const Term *term) {
  return collectKind(term, TermKind::Symbol);
}

std::vector<const Term *> collectApplications(const Term *term) {
  return collectKind(term, TermKind::Apply);
}

bool occursIn(const Term *needle, const Term *term) {
  std::unordered_set<const Term *> seen;
  bool found = false;
  visitOnce(term, seen, [&](const Term *t) { found |= t == needle; });
  return found;
}

bool containsBitwise(const Term *term) {
  std::unordered_set<const Term *> seen;
  bool found = false;
  visitOnce(term, seen, [&](const Term *t) { found |= isBitwise(t->kind()); });
  return found;
}

std::optional<int64_t> evaluate(const Term *term, const Assignment &values) {
  Evaluator evaluator(values);
  return evaluator.eval(term);
}

} // namespace ave::inv
