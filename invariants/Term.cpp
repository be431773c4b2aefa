// Hash-consing and the canonicalizing builders of TermContext. Every builder
// ends in raw(), which interns, so canonical forms are the only forms stored.
#include "ave/invariants/Term.h"

#include "ave/invariants/CIntSemantics.h"

#include <algorithm>
#include <functional>

namespace ave::inv {

bool isComparison(TermKind Kind) {
  switch (Kind) {
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

bool isBitwise(TermKind Kind) {
  switch (Kind) {
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
  return Kind == TermKind::Overflows;
}

namespace {

size_t combineHash(size_t Seed, size_t Value) {
  return Seed ^ (Value + 0x9e3779b97f4a7c15ULL + (Seed << 6) + (Seed >> 2));
}

bool isCommutative(TermKind Kind) {
  switch (Kind) {
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
int operandGroup(const Term *T) {
  if (T->isConstant())
    return 2;
  return T->numOperands() == 0 ? 1 : 0;
}

bool operandBefore(const Term *A, const Term *B) {
  if (operandGroup(A) != operandGroup(B))
    return operandGroup(A) < operandGroup(B);
  if (A->isConstant())
    return A->value() < B->value();
  return A->id() < B->id();
}

const char *const DimNames[] = {"x", "y", "z"};

} // namespace

bool TermContext::KeyEqual::operator()(const Term *A, const Term *B) const {
  return A->kind() == B->kind() && A->value() == B->value() && A->name() == B->name() &&
         A->symbolKind() == B->symbolKind() && A->dim() == B->dim() &&
         std::equal(A->operands().begin(), A->operands().end(), B->operands().begin(),
                    B->operands().end());
}

TermContext::TermContext() = default;

const Term *TermContext::intern(Term &&Candidate) {
  size_t H = std::hash<int>()(static_cast<int>(Candidate.Kind));
  H = combineHash(H, std::hash<int64_t>()(Candidate.Value));
  H = combineHash(H, std::hash<std::string>()(Candidate.Name));
  H = combineHash(H, static_cast<size_t>(Candidate.SymKind) * 4 + Candidate.Dim);
  for (const Term *Op : Candidate.Operands)
    H = combineHash(H, Op->id());
  Candidate.Hash = H;
  if (auto It = Interned.find(&Candidate); It != Interned.end())
    return It->second;
  Candidate.Id = static_cast<unsigned>(Storage.size());
  Storage.push_back(std::move(Candidate));
  const Term *Stored = &Storage.back();
  Interned.emplace(Stored, Stored);
  return Stored;
}

const Term *TermContext::raw(TermKind Kind, std::vector<const Term *> Operands) {
  if (isCommutative(Kind) && Operands.size() == 2 && operandBefore(Operands[1], Operands[0]))
    std::swap(Operands[0], Operands[1]);
  Term T;
  T.Kind = Kind;
  T.Operands = std::move(Operands);
  return intern(std::move(T));
}

const Term *TermContext::constant(int64_t Value) {
  Term T;
  T.Kind = TermKind::Constant;
  T.Value = Value;
  return intern(std::move(T));
}

const Term *TermContext::symbol(const std::string &Name, SymbolKind Kind, unsigned Dim) {
  Term T;
  T.Kind = TermKind::Symbol;
  T.Name = Name;
  T.SymKind = Kind;
  T.Dim = Dim;
  return intern(std::move(T));
}

bool isLaunchOrParameter(SymbolKind Kind) {
  switch (Kind) {
  case SymbolKind::ThreadIdx:
  case SymbolKind::BlockIdx:
  case SymbolKind::BlockDim:
  case SymbolKind::GridDim:
  case SymbolKind::Param:
    return true;
  default:
    return false;
  }
}

const Term *TermContext::builtin(SymbolKind Kind, unsigned Dim) {
  const char *Base = "sym";
  switch (Kind) {
  case SymbolKind::ThreadIdx:
    Base = "threadIdx";
    break;
  case SymbolKind::BlockIdx:
    Base = "blockIdx";
    break;
  case SymbolKind::BlockDim:
    Base = "blockDim";
    break;
  case SymbolKind::GridDim:
    Base = "gridDim";
    break;
  default:
    break;
  }
  return symbol(std::string(Base) + "." + DimNames[Dim % 3], Kind, Dim);
}

const Term *TermContext::freshCopy(const Term *Original) {
  if (!Original->isSymbol())
    return freshSymbol("v", SymbolKind::Fresh);
  return makeFresh(Original->name(), Original->symbolKind(), Original->dim(), Original);
}

const Term *TermContext::freshSymbol(const std::string &Base, SymbolKind Kind) {
  return makeFresh(Base, Kind, 0, nullptr);
}

const Term *TermContext::approximation(const std::string &Base, SymbolKind Kind) {
  const Term *S = freshSymbol(Base, Kind);
  const_cast<Term *>(S)->Approximate = true; // S was made here, in Storage
  return S;
}

const Term *TermContext::widenedApproximation(const std::string &Base, SymbolKind Kind) {
  const Term *S = approximation(Base, Kind);
  const_cast<Term *>(S)->Widened = true; // S was made here, in Storage
  return S;
}

const Term *TermContext::makeFresh(const std::string &Base, SymbolKind Kind, unsigned Dim,
                                   const Term *Original) {
  for (;;) {
    unsigned N = ++FreshCounters[Base];
    std::string Name = Base + "'" + std::to_string(N);
    size_t Before = Storage.size();
    const Term *S = symbol(Name, Kind, Dim);
    if (Storage.size() == Before)
      continue; // an existing symbol has this name: not fresh
    Term &Made = Storage.back();
    Made.Fresh = true;
    Made.CopiedFrom = Original;
    Made.Approximate = Original && Original->isApproximation();
    Made.Widened = Original && Original->Widened;
    Made.BaseName = Original ? Original->baseName() : Base;
    return S;
  }
}

const Term *TermContext::apply(const std::string &Function, std::vector<const Term *> Args) {
  Term T;
  T.Kind = TermKind::Apply;
  T.Name = Function;
  T.Operands = std::move(Args);
  return intern(std::move(T));
}

const Term *TermContext::foldIfConstant(TermKind Kind, std::span<const Term *const> Operands) {
  std::vector<int64_t> Values;
  for (const Term *Op : Operands) {
    if (!Op->isConstant())
      return nullptr;
    Values.push_back(Op->value());
  }
  if (auto V = applyCOperator(Kind, Values))
    return constant(*V);
  return nullptr; // undefined in C: keep the term, the solver sees the UB
}

const Term *TermContext::asBoolean(const Term *A) {
  return A->isBoolean() ? A : ne(A, constant(0));
}

const Term *TermContext::add(const Term *A, const Term *B) {
  const Term *Ops[] = {A, B};
  if (const Term *F = foldIfConstant(TermKind::Add, Ops))
    return F;
  if (A->isConstant())
    std::swap(A, B);
  if (B->isConstant(0))
    return A;
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
  if (WholePart(A, B))
    return B->operand(0);
  if (WholePart(B, A))
    return A->operand(0);
  // (x + c1) + c2 -> x + (c1 + c2)
  if (B->isConstant() && A->kind() == TermKind::Add && A->operand(1)->isConstant()) {
    const Term *Inner[] = {A->operand(1), B};
    if (const Term *Sum = foldIfConstant(TermKind::Add, Inner))
      return add(A->operand(0), Sum);
  }
  return raw(TermKind::Add, {A, B});
}

const Term *TermContext::sub(const Term *A, const Term *B) {
  const Term *Ops[] = {A, B};
  if (const Term *F = foldIfConstant(TermKind::Sub, Ops))
    return F;
  if (A == B)
    return constant(0);
  if (B->isConstant(0))
    return A;
  if (A->isConstant(0))
    return neg(B);
  if (B->isConstant() && B->value() != IntMin)
    return add(A, constant(-B->value()));
  return raw(TermKind::Sub, {A, B});
}

const Term *TermContext::mul(const Term *A, const Term *B) {
  const Term *Ops[] = {A, B};
  if (const Term *F = foldIfConstant(TermKind::Mul, Ops))
    return F;
  if (A->isConstant())
    std::swap(A, B);
  if (B->isConstant(0))
    return B; // x * 0 is 0 for every int x, no overflow possible
  if (B->isConstant(1))
    return A;
  if (B->isConstant(-1))
    return neg(A);
  // (x * c1) * c2 -> x * (c1 * c2)
  if (B->isConstant() && A->kind() == TermKind::Mul && A->operand(1)->isConstant()) {
    const Term *Inner[] = {A->operand(1), B};
    if (const Term *Product = foldIfConstant(TermKind::Mul, Inner))
      return mul(A->operand(0), Product);
  }
  return raw(TermKind::Mul, {A, B});
}

const Term *TermContext::div(const Term *A, const Term *B) {
  const Term *Ops[] = {A, B};
  if (const Term *F = foldIfConstant(TermKind::Div, Ops))
    return F;
  if (B->isConstant(1))
    return A;
  if (B->isConstant(-1))
    return neg(A);
  return raw(TermKind::Div, {A, B});
}

const Term *TermContext::rem(const Term *A, const Term *B) {
  const Term *Ops[] = {A, B};
  if (const Term *F = foldIfConstant(TermKind::Rem, Ops))
    return F;
  if (B->isConstant(1))
    return constant(0);
  return raw(TermKind::Rem, {A, B});
}

const Term *TermContext::bitAnd(const Term *A, const Term *B) {
  const Term *Ops[] = {A, B};
  if (const Term *F = foldIfConstant(TermKind::BitAnd, Ops))
    return F;
  if (A->isConstant())
    std::swap(A, B);
  if (B->isConstant(0))
    return B;
  if (B->isConstant(-1) || A == B)
    return A;
  return raw(TermKind::BitAnd, {A, B});
}

const Term *TermContext::bitOr(const Term *A, const Term *B) {
  const Term *Ops[] = {A, B};
  if (const Term *F = foldIfConstant(TermKind::BitOr, Ops))
    return F;
  if (A->isConstant())
    std::swap(A, B);
  if (B->isConstant(0) || A == B)
    return A;
  if (B->isConstant(-1))
    return B;
  return raw(TermKind::BitOr, {A, B});
}

const Term *TermContext::bitXor(const Term *A, const Term *B) {
  const Term *Ops[] = {A, B};
  if (const Term *F = foldIfConstant(TermKind::BitXor, Ops))
    return F;
  if (A == B)
    return constant(0);
  // (a ^ b) ^ b is a, in either operand order.
  for (auto [X, Y] : {std::pair{A, B}, std::pair{B, A}})
    if (X->kind() == TermKind::BitXor && (X->operand(0) == Y || X->operand(1) == Y))
      return X->operand(0) == Y ? X->operand(1) : X->operand(0);
  if (A->isConstant())
    std::swap(A, B);
  if (B->isConstant(0))
    return A;
  return raw(TermKind::BitXor, {A, B});
}

const Term *TermContext::shl(const Term *A, const Term *B) {
  const Term *Ops[] = {A, B};
  if (const Term *F = foldIfConstant(TermKind::Shl, Ops))
    return F;
  if (B->isConstant(0))
    return A;
  return raw(TermKind::Shl, {A, B});
}

const Term *TermContext::shr(const Term *A, const Term *B) {
  const Term *Ops[] = {A, B};
  if (const Term *F = foldIfConstant(TermKind::Shr, Ops))
    return F;
  if (B->isConstant(0))
    return A;
  return raw(TermKind::Shr, {A, B});
}

const Term *TermContext::neg(const Term *A) {
  const Term *Ops[] = {A};
  if (const Term *F = foldIfConstant(TermKind::Neg, Ops))
    return F;
  if (A->kind() == TermKind::Neg)
    return A->operand(0);
  return raw(TermKind::Neg, {A});
}

const Term *TermContext::bitNot(const Term *A) {
  const Term *Ops[] = {A};
  if (const Term *F = foldIfConstant(TermKind::BitNot, Ops))
    return F;
  if (A->kind() == TermKind::BitNot)
    return A->operand(0);
  return raw(TermKind::BitNot, {A});
}

const Term *TermContext::lt(const Term *A, const Term *B) {
  const Term *Ops[] = {A, B};
  if (const Term *F = foldIfConstant(TermKind::Lt, Ops))
    return F;
  if (A == B)
    return constant(0);
  return raw(TermKind::Lt, {A, B});
}

const Term *TermContext::le(const Term *A, const Term *B) {
  const Term *Ops[] = {A, B};
  if (const Term *F = foldIfConstant(TermKind::Le, Ops))
    return F;
  if (A == B)
    return constant(1);
  return raw(TermKind::Le, {A, B});
}

const Term *TermContext::gt(const Term *A, const Term *B) {
  const Term *Ops[] = {A, B};
  if (const Term *F = foldIfConstant(TermKind::Gt, Ops))
    return F;
  if (A == B)
    return constant(0);
  return raw(TermKind::Gt, {A, B});
}

const Term *TermContext::ge(const Term *A, const Term *B) {
  const Term *Ops[] = {A, B};
  if (const Term *F = foldIfConstant(TermKind::Ge, Ops))
    return F;
  if (A == B)
    return constant(1);
  return raw(TermKind::Ge, {A, B});
}

const Term *TermContext::eq(const Term *A, const Term *B) {
  const Term *Ops[] = {A, B};
  if (const Term *F = foldIfConstant(TermKind::Eq, Ops))
    return F;
  if (A == B)
    return constant(1);
  return raw(TermKind::Eq, {A, B});
}

const Term *TermContext::ne(const Term *A, const Term *B) {
  const Term *Ops[] = {A, B};
  if (const Term *F = foldIfConstant(TermKind::Ne, Ops))
    return F;
  if (A == B)
    return constant(0);
  return raw(TermKind::Ne, {A, B});
}

const Term *TermContext::logicalAnd(const Term *A, const Term *B) {
  if (A->isConstant())
    return A->value() == 0 ? constant(0) : asBoolean(B);
  if (B->isConstant() && B->value() != 0)
    return asBoolean(A);
  if (A == B)
    return asBoolean(A);
  // `a && 0` is 0 but still evaluates a; a has no side effects, so fold.
  if (B->isConstant(0))
    return B;
  return raw(TermKind::LogicalAnd, {A, B});
}

const Term *TermContext::logicalOr(const Term *A, const Term *B) {
  if (A->isConstant())
    return A->value() != 0 ? constant(1) : asBoolean(B);
  if (B->isConstant() && B->value() == 0)
    return asBoolean(A);
  if (A == B)
    return asBoolean(A);
  if (B->isConstant())
    return constant(1);
  return raw(TermKind::LogicalOr, {A, B});
}

const Term *TermContext::logicalNot(const Term *A) {
  if (A->isConstant())
    return constant(A->value() == 0);
  switch (A->kind()) {
  case TermKind::LogicalNot:
    return asBoolean(A->operand(0));
  case TermKind::Lt:
    return ge(A->operand(0), A->operand(1));
  case TermKind::Le:
    return gt(A->operand(0), A->operand(1));
  case TermKind::Gt:
    return le(A->operand(0), A->operand(1));
  case TermKind::Ge:
    return lt(A->operand(0), A->operand(1));
  case TermKind::Eq:
    return ne(A->operand(0), A->operand(1));
  case TermKind::Ne:
    return eq(A->operand(0), A->operand(1));
  default:
    return raw(TermKind::LogicalNot, {A});
  }
}

const Term *TermContext::select(const Term *Cond, const Term *A, const Term *B) {
  if (Cond->isConstant())
    return Cond->value() != 0 ? A : B;
  if (A == B)
    return A;
  return raw(TermKind::Select, {Cond, A, B});
}

const Term *TermContext::overflows(const Term *A) {
  // A leaf is an int; a constant was folded only where C defines it.
  if (A->isConstant() || A->isSymbol() || A->kind() == TermKind::Apply)
    return falseTerm();
  return raw(TermKind::Overflows, {A});
}

const Term *TermContext::allOf(std::span<const Term *const> Conditions) {
  const Term *Result = trueTerm();
  for (const Term *C : Conditions)
    Result = logicalAnd(Result, C);
  return Result;
}

const Term *TermContext::make(TermKind Kind, std::span<const Term *const> Ops) {
  auto Arity = [&](size_t N) { return Ops.size() == N; };
  switch (Kind) {
  case TermKind::Add:
    return Arity(2) ? add(Ops[0], Ops[1]) : nullptr;
  case TermKind::Sub:
    return Arity(2) ? sub(Ops[0], Ops[1]) : nullptr;
  case TermKind::Mul:
    return Arity(2) ? mul(Ops[0], Ops[1]) : nullptr;
  case TermKind::Div:
    return Arity(2) ? div(Ops[0], Ops[1]) : nullptr;
  case TermKind::Rem:
    return Arity(2) ? rem(Ops[0], Ops[1]) : nullptr;
  case TermKind::BitAnd:
    return Arity(2) ? bitAnd(Ops[0], Ops[1]) : nullptr;
  case TermKind::BitOr:
    return Arity(2) ? bitOr(Ops[0], Ops[1]) : nullptr;
  case TermKind::BitXor:
    return Arity(2) ? bitXor(Ops[0], Ops[1]) : nullptr;
  case TermKind::Shl:
    return Arity(2) ? shl(Ops[0], Ops[1]) : nullptr;
  case TermKind::Shr:
    return Arity(2) ? shr(Ops[0], Ops[1]) : nullptr;
  case TermKind::Neg:
    return Arity(1) ? neg(Ops[0]) : nullptr;
  case TermKind::BitNot:
    return Arity(1) ? bitNot(Ops[0]) : nullptr;
  case TermKind::Lt:
    return Arity(2) ? lt(Ops[0], Ops[1]) : nullptr;
  case TermKind::Le:
    return Arity(2) ? le(Ops[0], Ops[1]) : nullptr;
  case TermKind::Gt:
    return Arity(2) ? gt(Ops[0], Ops[1]) : nullptr;
  case TermKind::Ge:
    return Arity(2) ? ge(Ops[0], Ops[1]) : nullptr;
  case TermKind::Eq:
    return Arity(2) ? eq(Ops[0], Ops[1]) : nullptr;
  case TermKind::Ne:
    return Arity(2) ? ne(Ops[0], Ops[1]) : nullptr;
  case TermKind::LogicalAnd:
    return Arity(2) ? logicalAnd(Ops[0], Ops[1]) : nullptr;
  case TermKind::LogicalOr:
    return Arity(2) ? logicalOr(Ops[0], Ops[1]) : nullptr;
  case TermKind::LogicalNot:
    return Arity(1) ? logicalNot(Ops[0]) : nullptr;
  case TermKind::Select:
    return Arity(3) ? select(Ops[0], Ops[1], Ops[2]) : nullptr;
  case TermKind::Overflows:
    return Arity(1) ? overflows(Ops[0]) : nullptr;
  case TermKind::Constant:
  case TermKind::Symbol:
  case TermKind::Apply:
    return nullptr;
  }
  return nullptr;
}

const Term *TermContext::rebuild(const Term *Like, std::span<const Term *const> Operands) {
  switch (Like->kind()) {
  case TermKind::Constant:
  case TermKind::Symbol:
    return Like;
  case TermKind::Apply:
    return apply(Like->name(), std::vector<const Term *>(Operands.begin(), Operands.end()));
  default:
    return make(Like->kind(), Operands);
  }
}

} // namespace ave::inv
