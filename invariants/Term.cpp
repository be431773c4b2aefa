// Hash-consing and the canonicalizing builders of TermContext. Every builder
// ends in raw(), which interns, so canonical forms are the only forms stored.
#include "ave/invariants/Term.h"

#include "ave/invariants/CIntSemantics.h"

#include <algorithm>
#include <functional>

namespace ave::inv {

bool isComparison(TermKind kind) {
  switch (kind) {
  case TermKind::Lt:
  case TermKind::Le:
  case TermKind::Gt:
  case TermKind::Ge:
  case TermKind::Eq:
  case TermKind::Ne:
    return true;
  default:
    return false;
  }
}

bool isBitwise(TermKind kind) {
  switch (kind) {
  case TermKind::BitAnd:
  case TermKind::BitOr:
  case TermKind::BitXor:
  case TermKind::Shl:
  case TermKind::Shr:
  case TermKind::BitNot:
    return true;
  default:
    return false;
  }
}

bool Term::isBoolean() const {
  if (isConstant())
    return Value == 0 || Value == 1;
  if (isComparison(Kind))
    return true;
  if (Kind == TermKind::LogicalAnd || Kind == TermKind::LogicalOr || Kind == TermKind::LogicalNot)
    return true;
  if (Kind == TermKind::Select)
    return Operands[1]->isBoolean() && Operands[2]->isBoolean();
  return false;
}

namespace {

size_t combineHash(size_t seed, size_t value) {
  return seed ^ (value + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2));
}

bool isCommutative(TermKind kind) {
  switch (kind) {
  case TermKind::Add:
  case TermKind::Mul:
  case TermKind::BitAnd:
  case TermKind::BitOr:
  case TermKind::BitXor:
  case TermKind::Eq:
  case TermKind::Ne:
    return true;
  default:
    return false;
  }
}

// Canonical operand order: compound terms, then symbols, then constants,
// each group by id. `16*by` and `by*16` meet, and sums read like kernel
// code: `by*16 + ty`, `row*K + k`.
int operandGroup(const Term *t) {
  if (t->isConstant())
    return 2;
  return t->numOperands() == 0 ? 1 : 0;
}

bool operandBefore(const Term *a, const Term *b) {
  if (operandGroup(a) != operandGroup(b))
    return operandGroup(a) < operandGroup(b);
  if (a->isConstant())
    return a->value() < b->value();
  return a->id() < b->id();
}

const char *const DimNames[] = {"x", "y", "z"};

} // namespace

bool TermContext::KeyEqual::operator()(const Term *a, const Term *b) const {
  return a->kind() == b->kind() && a->value() == b->value() && a->name() == b->name() &&
         a->symbolKind() == b->symbolKind() && a->dim() == b->dim() &&
         std::equal(a->operands().begin(), a->operands().end(), b->operands().begin(),
                    b->operands().end());
}

TermContext::TermContext() = default;

const Term *TermContext::intern(Term &&candidate) {
  size_t h = std::hash<int>()(static_cast<int>(candidate.Kind));
  h = combineHash(h, std::hash<int64_t>()(candidate.Value));
  h = combineHash(h, std::hash<std::string>()(candidate.Name));
  h = combineHash(h, static_cast<size_t>(candidate.SymKind) * 4 + candidate.Dim);
  for (const Term *op : candidate.Operands)
    h = combineHash(h, op->id());
  candidate.Hash = h;
  if (auto it = Interned.find(&candidate); it != Interned.end())
    return it->second;
  candidate.Id = static_cast<unsigned>(Storage.size());
  Storage.push_back(std::move(candidate));
  const Term *stored = &Storage.back();
  Interned.emplace(stored, stored);
  return stored;
}

const Term *TermContext::raw(TermKind kind, std::vector<const Term *> operands) {
  if (isCommutative(kind) && operands.size() == 2 && operandBefore(operands[1], operands[0]))
    std::swap(operands[0], operands[1]);
  Term t;
  t.Kind = kind;
  t.Operands = std::move(operands);
  return intern(std::move(t));
}

const Term *TermContext::constant(int64_t value) {
  Term t;
  t.Kind = TermKind::Constant;
  t.Value = value;
  return intern(std::move(t));
}

const Term *TermContext::symbol(const std::string &name, SymbolKind kind, unsigned dim) {
  Term t;
  t.Kind = TermKind::Symbol;
  t.Name = name;
  t.SymKind = kind;
  t.Dim = dim;
  return intern(std::move(t));
}

const Term *TermContext::builtin(SymbolKind kind, unsigned dim) {
  const char *base = "sym";
  switch (kind) {
  case SymbolKind::ThreadIdx:
    base = "threadIdx";
    break;
  case SymbolKind::BlockIdx:
    base = "blockIdx";
    break;
  case SymbolKind::BlockDim:
    base = "blockDim";
    break;
  case SymbolKind::GridDim:
    base = "gridDim";
    break;
  default:
    break;
  }
  return symbol(std::string(base) + "." + DimNames[dim % 3], kind, dim);
}

const Term *TermContext::freshCopy(const Term *original) {
  std::string base = original->isSymbol() ? original->name() : "v";
  SymbolKind kind = original->isSymbol() ? original->symbolKind() : SymbolKind::Fresh;
  unsigned dim = original->isSymbol() ? original->dim() : 0;
  for (;;) {
    unsigned n = ++FreshCounters[base];
    std::string name = base + "'" + std::to_string(n);
    size_t before = Storage.size();
    const Term *s = symbol(name, kind, dim);
    if (Storage.size() != before) // newly created: not equal to any existing term
      return s;
  }
}

const Term *TermContext::freshSymbol(const std::string &base, SymbolKind kind) {
  for (;;) {
    unsigned n = ++FreshCounters[base];
    std::string name = base + "'" + std::to_string(n);
    size_t before = Storage.size();
    const Term *s = symbol(name, kind, 0);
    if (Storage.size() != before)
      return s;
  }
}

const Term *TermContext::apply(const std::string &function, std::vector<const Term *> args) {
  Term t;
  t.Kind = TermKind::Apply;
  t.Name = function;
  t.Operands = std::move(args);
  return intern(std::move(t));
}

const Term *TermContext::foldIfConstant(TermKind kind, std::span<const Term *const> operands) {
  std::vector<int64_t> values;
  for (const Term *op : operands) {
    if (!op->isConstant())
      return nullptr;
    values.push_back(op->value());
  }
  if (auto v = applyCOperator(kind, values))
    return constant(*v);
  return nullptr; // undefined in C: keep the term, the solver sees the UB
}

const Term *TermContext::asBoolean(const Term *a) {
  return a->isBoolean() ? a : ne(a, constant(0));
}

const Term *TermContext::add(const Term *a, const Term *b) {
  const Term *ops[] = {a, b};
  if (const Term *f = foldIfConstant(TermKind::Add, ops))
    return f;
  if (a->isConstant())
    std::swap(a, b);
  if (b->isConstant(0))
    return a;
  // (x / c) * c + x % c -> x: the address of `a[x / W][x % W]`, so that a
  // store spread over a loop (`for (x = tid; ...; x += 64)`) reads as a
  // layout of its counter. Exact in C (truncating division, the same
  // constant c != 0), and no overflow: |(x / c) * c| <= |x|.
  auto WholePart = [](const Term *Times, const Term *Rem) {
    return Times->kind() == TermKind::Mul && Rem->kind() == TermKind::Rem &&
           Rem->operand(1)->isConstant() && !Rem->operand(1)->isConstant(0) &&
           Times->operand(1) == Rem->operand(1) && Times->operand(0)->kind() == TermKind::Div &&
           Times->operand(0)->operand(0) == Rem->operand(0) &&
           Times->operand(0)->operand(1) == Rem->operand(1);
  };
  if (WholePart(a, b))
    return b->operand(0);
  if (WholePart(b, a))
    return a->operand(0);
  // (x + c1) + c2 -> x + (c1 + c2)
  if (b->isConstant() && a->kind() == TermKind::Add && a->operand(1)->isConstant()) {
    const Term *inner[] = {a->operand(1), b};
    if (const Term *sum = foldIfConstant(TermKind::Add, inner))
      return add(a->operand(0), sum);
  }
  return raw(TermKind::Add, {a, b});
}

const Term *TermContext::sub(const Term *a, const Term *b) {
  const Term *ops[] = {a, b};
  if (const Term *f = foldIfConstant(TermKind::Sub, ops))
    return f;
  if (a == b)
    return constant(0);
  if (b->isConstant(0))
    return a;
  if (a->isConstant(0))
    return neg(b);
  if (b->isConstant() && b->value() != IntMin)
    return add(a, constant(-b->value()));
  return raw(TermKind::Sub, {a, b});
}

const Term *TermContext::mul(const Term *a, const Term *b) {
  const Term *ops[] = {a, b};
  if (const Term *f = foldIfConstant(TermKind::Mul, ops))
    return f;
  if (a->isConstant())
    std::swap(a, b);
  if (b->isConstant(0))
    return b; // x * 0 is 0 for every int x, no overflow possible
  if (b->isConstant(1))
    return a;
  if (b->isConstant(-1))
    return neg(a);
  // (x * c1) * c2 -> x * (c1 * c2)
  if (b->isConstant() && a->kind() == TermKind::Mul && a->operand(1)->isConstant()) {
    const Term *inner[] = {a->operand(1), b};
    if (const Term *product = foldIfConstant(TermKind::Mul, inner))
      return mul(a->operand(0), product);
  }
  return raw(TermKind::Mul, {a, b});
}

const Term *TermContext::div(const Term *a, const Term *b) {
  const Term *ops[] = {a, b};
  if (const Term *f = foldIfConstant(TermKind::Div, ops))
    return f;
  if (b->isConstant(1))
    return a;
  if (b->isConstant(-1))
    return neg(a);
  return raw(TermKind::Div, {a, b});
}

const Term *TermContext::rem(const Term *a, const Term *b) {
  const Term *ops[] = {a, b};
  if (const Term *f = foldIfConstant(TermKind::Rem, ops))
    return f;
  if (b->isConstant(1))
    return constant(0);
  return raw(TermKind::Rem, {a, b});
}

const Term *TermContext::bitAnd(const Term *a, const Term *b) {
  const Term *ops[] = {a, b};
  if (const Term *f = foldIfConstant(TermKind::BitAnd, ops))
    return f;
  if (a->isConstant())
    std::swap(a, b);
  if (b->isConstant(0))
    return b;
  if (b->isConstant(-1) || a == b)
    return a;
  return raw(TermKind::BitAnd, {a, b});
}

const Term *TermContext::bitOr(const Term *a, const Term *b) {
  const Term *ops[] = {a, b};
  if (const Term *f = foldIfConstant(TermKind::BitOr, ops))
    return f;
  if (a->isConstant())
    std::swap(a, b);
  if (b->isConstant(0) || a == b)
    return a;
  if (b->isConstant(-1))
    return b;
  return raw(TermKind::BitOr, {a, b});
}

const Term *TermContext::bitXor(const Term *a, const Term *b) {
  const Term *ops[] = {a, b};
  if (const Term *f = foldIfConstant(TermKind::BitXor, ops))
    return f;
  if (a == b)
    return constant(0);
  if (a->isConstant())
    std::swap(a, b);
  if (b->isConstant(0))
    return a;
  return raw(TermKind::BitXor, {a, b});
}

const Term *TermContext::shl(const Term *a, const Term *b) {
  const Term *ops[] = {a, b};
  if (const Term *f = foldIfConstant(TermKind::Shl, ops))
    return f;
  if (b->isConstant(0))
    return a;
  return raw(TermKind::Shl, {a, b});
}

const Term *TermContext::shr(const Term *a, const Term *b) {
  const Term *ops[] = {a, b};
  if (const Term *f = foldIfConstant(TermKind::Shr, ops))
    return f;
  if (b->isConstant(0))
    return a;
  return raw(TermKind::Shr, {a, b});
}

const Term *TermContext::neg(const Term *a) {
  const Term *ops[] = {a};
  if (const Term *f = foldIfConstant(TermKind::Neg, ops))
    return f;
  if (a->kind() == TermKind::Neg)
    return a->operand(0);
  return raw(TermKind::Neg, {a});
}

const Term *TermContext::bitNot(const Term *a) {
  const Term *ops[] = {a};
  if (const Term *f = foldIfConstant(TermKind::BitNot, ops))
    return f;
  if (a->kind() == TermKind::BitNot)
    return a->operand(0);
  return raw(TermKind::BitNot, {a});
}

const Term *TermContext::lt(const Term *a, const Term *b) {
  const Term *ops[] = {a, b};
  if (const Term *f = foldIfConstant(TermKind::Lt, ops))
    return f;
  if (a == b)
    return constant(0);
  return raw(TermKind::Lt, {a, b});
}

const Term *TermContext::le(const Term *a, const Term *b) {
  const Term *ops[] = {a, b};
  if (const Term *f = foldIfConstant(TermKind::Le, ops))
    return f;
  if (a == b)
    return constant(1);
  return raw(TermKind::Le, {a, b});
}

const Term *TermContext::gt(const Term *a, const Term *b) {
  const Term *ops[] = {a, b};
  if (const Term *f = foldIfConstant(TermKind::Gt, ops))
    return f;
  if (a == b)
    return constant(0);
  return raw(TermKind::Gt, {a, b});
}

const Term *TermContext::ge(const Term *a, const Term *b) {
  const Term *ops[] = {a, b};
  if (const Term *f = foldIfConstant(TermKind::Ge, ops))
    return f;
  if (a == b)
    return constant(1);
  return raw(TermKind::Ge, {a, b});
}

const Term *TermContext::eq(const Term *a, const Term *b) {
  const Term *ops[] = {a, b};
  if (const Term *f = foldIfConstant(TermKind::Eq, ops))
    return f;
  if (a == b)
    return constant(1);
  return raw(TermKind::Eq, {a, b});
}

const Term *TermContext::ne(const Term *a, const Term *b) {
  const Term *ops[] = {a, b};
  if (const Term *f = foldIfConstant(TermKind::Ne, ops))
    return f;
  if (a == b)
    return constant(0);
  return raw(TermKind::Ne, {a, b});
}

const Term *TermContext::logicalAnd(const Term *a, const Term *b) {
  if (a->isConstant())
    return a->value() == 0 ? constant(0) : asBoolean(b);
  if (b->isConstant() && b->value() != 0)
    return asBoolean(a);
  if (a == b)
    return asBoolean(a);
  // `a && 0` is 0 but still evaluates a; a has no side effects, so fold.
  if (b->isConstant(0))
    return b;
  return raw(TermKind::LogicalAnd, {a, b});
}

const Term *TermContext::logicalOr(const Term *a, const Term *b) {
  if (a->isConstant())
    return a->value() != 0 ? constant(1) : asBoolean(b);
  if (b->isConstant() && b->value() == 0)
    return asBoolean(a);
  if (a == b)
    return asBoolean(a);
  if (b->isConstant())
    return constant(1);
  return raw(TermKind::LogicalOr, {a, b});
}

const Term *TermContext::logicalNot(const Term *a) {
  if (a->isConstant())
    return constant(a->value() == 0);
  switch (a->kind()) {
  case TermKind::LogicalNot:
    return asBoolean(a->operand(0));
  case TermKind::Lt:
    return ge(a->operand(0), a->operand(1));
  case TermKind::Le:
    return gt(a->operand(0), a->operand(1));
  case TermKind::Gt:
    return le(a->operand(0), a->operand(1));
  case TermKind::Ge:
    return lt(a->operand(0), a->operand(1));
  case TermKind::Eq:
    return ne(a->operand(0), a->operand(1));
  case TermKind::Ne:
    return eq(a->operand(0), a->operand(1));
  default:
    return raw(TermKind::LogicalNot, {a});
  }
}

const Term *TermContext::select(const Term *cond, const Term *a, const Term *b) {
  if (cond->isConstant())
    return cond->value() != 0 ? a : b;
  if (a == b)
    return a;
  return raw(TermKind::Select, {cond, a, b});
}

const Term *TermContext::allOf(std::span<const Term *const> conditions) {
  const Term *result = trueTerm();
  for (const Term *c : conditions)
    result = logicalAnd(result, c);
  return result;
}

const Term *TermContext::make(TermKind kind, std::span<const Term *const> ops) {
  auto arity = [&](size_t n) { return ops.size() == n; };
  switch (kind) {
  case TermKind::Add:
    return arity(2) ? add(ops[0], ops[1]) : nullptr;
  case TermKind::Sub:
    return arity(2) ? sub(ops[0], ops[1]) : nullptr;
  case TermKind::Mul:
    return arity(2) ? mul(ops[0], ops[1]) : nullptr;
  case TermKind::Div:
    return arity(2) ? div(ops[0], ops[1]) : nullptr;
  case TermKind::Rem:
    return arity(2) ? rem(ops[0], ops[1]) : nullptr;
  case TermKind::BitAnd:
    return arity(2) ? bitAnd(ops[0], ops[1]) : nullptr;
  case TermKind::BitOr:
    return arity(2) ? bitOr(ops[0], ops[1]) : nullptr;
  case TermKind::BitXor:
    return arity(2) ? bitXor(ops[0], ops[1]) : nullptr;
  case TermKind::Shl:
    return arity(2) ? shl(ops[0], ops[1]) : nullptr;
  case TermKind::Shr:
    return arity(2) ? shr(ops[0], ops[1]) : nullptr;
  case TermKind::Neg:
    return arity(1) ? neg(ops[0]) : nullptr;
  case TermKind::BitNot:
    return arity(1) ? bitNot(ops[0]) : nullptr;
  case TermKind::Lt:
    return arity(2) ? lt(ops[0], ops[1]) : nullptr;
  case TermKind::Le:
    return arity(2) ? le(ops[0], ops[1]) : nullptr;
  case TermKind::Gt:
    return arity(2) ? gt(ops[0], ops[1]) : nullptr;
  case TermKind::Ge:
    return arity(2) ? ge(ops[0], ops[1]) : nullptr;
  case TermKind::Eq:
    return arity(2) ? eq(ops[0], ops[1]) : nullptr;
  case TermKind::Ne:
    return arity(2) ? ne(ops[0], ops[1]) : nullptr;
  case TermKind::LogicalAnd:
    return arity(2) ? logicalAnd(ops[0], ops[1]) : nullptr;
  case TermKind::LogicalOr:
    return arity(2) ? logicalOr(ops[0], ops[1]) : nullptr;
  case TermKind::LogicalNot:
    return arity(1) ? logicalNot(ops[0]) : nullptr;
  case TermKind::Select:
    return arity(3) ? select(ops[0], ops[1], ops[2]) : nullptr;
  case TermKind::Constant:
  case TermKind::Symbol:
  case TermKind::Apply:
    return nullptr;
  }
  return nullptr;
}

const Term *TermContext::rebuild(const Term *like, std::span<const Term *const> operands) {
  switch (like->kind()) {
  case TermKind::Constant:
  case TermKind::Symbol:
    return like;
  case TermKind::Apply:
    return apply(like->name(), std::vector<const Term *>(operands.begin(), operands.end()));
  default:
    return make(like->kind(), operands);
  }
}

} // namespace ave::inv
