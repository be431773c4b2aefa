// Annotation predicates as terms, and the implication question (see
// PredicateTerms.h).

#include "ave/review/PredicateTerms.h"

#include "ave/invariants/Solver.h"

namespace ave::review {

void PredicateTranslator::addCoordinates(
    const std::map<std::string, std::vector<std::string>> &More) {
  for (const auto &[Tensor, Names] : More) {
    Coordinates.try_emplace(Tensor, Names);
    AllCoordinateNames.insert(Names.begin(), Names.end());
  }
}

int64_t PredicateTranslator::tensorId(const std::string &Tensor) {
  auto It = TensorIds.find(Tensor);
  if (It != TensorIds.end())
    return It->second;
  int64_t Id = int64_t(TensorIds.size()) + 1;
  TensorIds[Tensor] = Id;
  return Id;
}

bool PredicateTranslator::isTagValued(const ann::Expr &E) const {
  return E.kind == ann::ExprKind::Call && (E.resolution.kind == ann::NameKind::TagOf ||
                                           E.resolution.kind == ann::NameKind::TagLiteral);
}

namespace {

std::optional<unsigned> dimension(const std::string &Field) {
  if (Field == "x")
    return 0;
  if (Field == "y")
    return 1;
  if (Field == "z")
    return 2;
  return std::nullopt;
}

std::optional<inv::SymbolKind> builtinKind(const std::string &Name) {
  if (Name == "threadIdx")
    return inv::SymbolKind::ThreadIdx;
  if (Name == "blockIdx")
    return inv::SymbolKind::BlockIdx;
  if (Name == "blockDim")
    return inv::SymbolKind::BlockDim;
  if (Name == "gridDim")
    return inv::SymbolKind::GridDim;
  return std::nullopt;
}

} // namespace

// What `tag(Inside)` depends on: the array and the indices of an element,
// or the text of any other expression.
bool PredicateTranslator::tagKey(const ann::Expr &Inside, TagKey &Key, std::string &Why) {
  std::vector<const ann::Expr *> Indices;
  const ann::Expr *Base = &Inside;
  while (Base->kind == ann::ExprKind::Subscript) {
    Indices.insert(Indices.begin(), &Base->operands[1]);
    Base = &Base->operands[0];
  }
  if (Base->kind == ann::ExprKind::Identifier && !Indices.empty()) {
    Key.name = "tag(" + Base->name + ")";
    for (const ann::Expr *I : Indices) {
      const inv::Term *T = integer(*I, Why);
      if (!T)
        return false;
      Key.args.push_back(T);
    }
    return true;
  }
  Key.name = "tag(" + ann::printExpr(Inside) + ")";
  return true;
}

const inv::Term *PredicateTranslator::tagField(const TagKey &Key, const std::string &Field) {
  std::string Name = Key.name + "." + Field;
  if (Key.args.empty())
    return Ctx.symbol(Name);
  return Ctx.apply(Name, Key.args);
}

const inv::Term *PredicateTranslator::tagComparison(const ann::Expr &L, const ann::Expr &R,
                                                    std::string &Why) {
  // Each side as: tensor term, and a term per coordinate name it defines.
  struct Side {
    const inv::Term *tensor = nullptr;
    std::map<std::string, const inv::Term *> fields;
    bool literal = false;
  };
  auto Describe = [&](const ann::Expr &E, Side &S) -> bool {
    if (E.resolution.kind == ann::NameKind::TagLiteral) {
      auto It = Coordinates.find(E.name);
      if (It == Coordinates.end() || It->second.size() != E.operands.size()) {
        Why = "tag literal '" + E.name + "' does not match its tag's coordinates";
        return false;
      }
      S.literal = true;
      S.tensor = Ctx.constant(tensorId(E.name));
      for (size_t I = 0; I < E.operands.size(); ++I) {
        const inv::Term *T = integer(E.operands[I], Why);
        if (!T)
          return false;
        S.fields[It->second[I]] = T;
      }
      return true;
    }
    TagKey Key;
    if (!tagKey(E.operands[0], Key, Why))
      return false;
    S.tensor = tagField(Key, "@tensor");
    for (const std::string &C : AllCoordinateNames)
      S.fields[C] = tagField(Key, C);
    return true;
  };
  Side A, B;
  if (!Describe(L, A) || !Describe(R, B))
    return nullptr;
  std::vector<const inv::Term *> Parts{Ctx.eq(A.tensor, B.tensor)};
  // A literal fixes only its own coordinates; two tag(e) compare them all.
  const Side &Fixed = A.literal ? A : B;
  const Side &Other = A.literal ? B : A;
  for (const auto &[Name, T] : Fixed.fields) {
    auto It = Other.fields.find(Name);
    if (It == Other.fields.end())
      return Ctx.falseTerm(); // two literals with different coordinates
    Parts.push_back(Ctx.eq(T, It->second));
  }
  return Ctx.allOf(Parts);
}

const inv::Term *PredicateTranslator::binary(const ann::Expr &E, std::string &Why) {
  using ann::BinaryOp;
  if ((E.binaryOp == BinaryOp::Eq || E.binaryOp == BinaryOp::Ne) &&
      (isTagValued(E.operands[0]) || isTagValued(E.operands[1]))) {
    if (!isTagValued(E.operands[0]) || !isTagValued(E.operands[1])) {
      Why = "a tag compared with an integer";
      return nullptr;
    }
    const inv::Term *Same = tagComparison(E.operands[0], E.operands[1], Why);
    if (!Same)
      return nullptr;
    return E.binaryOp == BinaryOp::Eq ? Same : Ctx.logicalNot(Same);
  }
  const inv::Term *A = integer(E.operands[0], Why);
  const inv::Term *B = A ? integer(E.operands[1], Why) : nullptr;
  if (!B)
    return nullptr;
  switch (E.binaryOp) {
  case BinaryOp::Mul:
    return Ctx.mul(A, B);
  case BinaryOp::Div:
    return Ctx.div(A, B);
  case BinaryOp::Rem:
    return Ctx.rem(A, B);
  case BinaryOp::Add:
    return Ctx.add(A, B);
  case BinaryOp::Sub:
    return Ctx.sub(A, B);
  case BinaryOp::Shl:
    return Ctx.shl(A, B);
  case BinaryOp::Shr:
    return Ctx.shr(A, B);
  case BinaryOp::Lt:
    return Ctx.lt(A, B);
  case BinaryOp::Le:
    return Ctx.le(A, B);
  case BinaryOp::Gt:
    return Ctx.gt(A, B);
  case BinaryOp::Ge:
    return Ctx.ge(A, B);
  case BinaryOp::Eq:
    return Ctx.eq(A, B);
  case BinaryOp::Ne:
    return Ctx.ne(A, B);
  case BinaryOp::BitAnd:
    return Ctx.bitAnd(A, B);
  case BinaryOp::BitXor:
    return Ctx.bitXor(A, B);
  case BinaryOp::BitOr:
    return Ctx.bitOr(A, B);
  case BinaryOp::LogicalAnd:
    return Ctx.logicalAnd(A, B);
  case BinaryOp::LogicalOr:
    return Ctx.logicalOr(A, B);
  }
  Why = "unknown operator";
  return nullptr;
}

const inv::Term *PredicateTranslator::integer(const ann::Expr &E, std::string &Why) {
  switch (E.kind) {
  case ann::ExprKind::IntLiteral:
    return Ctx.constant(E.value);
  case ann::ExprKind::Identifier:
    if (E.resolution.constant)
      return Ctx.constant(*E.resolution.constant);
    if (Definitions && (E.resolution.kind == ann::NameKind::LocalVariable ||
                        E.resolution.kind == ann::NameKind::Unresolved)) {
      auto It = Definitions->find(E.name);
      if (It != Definitions->end() && Expanding.insert(E.name).second) {
        const inv::Term *T = integer(It->second, Why);
        Expanding.erase(E.name);
        return T;
      }
    }
    return Ctx.symbol(E.name, E.resolution.kind == ann::NameKind::Parameter
                                  ? inv::SymbolKind::Param
                                  : inv::SymbolKind::Other);
  case ann::ExprKind::Member: {
    const ann::Expr &Base = E.operands[0];
    if (Base.kind == ann::ExprKind::Identifier && builtinKind(Base.name) && dimension(E.name))
      return Ctx.builtin(*builtinKind(Base.name), *dimension(E.name));
    if (Base.kind == ann::ExprKind::Call && Base.resolution.kind == ann::NameKind::TagOf) {
      TagKey Key;
      if (!tagKey(Base.operands[0], Key, Why))
        return nullptr;
      return tagField(Key, E.name);
    }
    return Ctx.symbol(ann::printExpr(E));
  }
  case ann::ExprKind::Subscript: {
    std::vector<const inv::Term *> Args;
    const ann::Expr *Base = &E;
    while (Base->kind == ann::ExprKind::Subscript) {
      const inv::Term *I = integer(Base->operands[1], Why);
      if (!I)
        return nullptr;
      Args.insert(Args.begin(), I);
      Base = &Base->operands[0];
    }
    return Ctx.apply(ann::printExpr(*Base), Args);
  }
  case ann::ExprKind::Call: {
    if (isTagValued(E)) {
      Why = "a tag used as an integer";
      return nullptr;
    }
    std::vector<const inv::Term *> Args;
    for (const ann::Expr &A : E.operands) {
      const inv::Term *T = integer(A, Why);
      if (!T)
        return nullptr;
      Args.push_back(T);
    }
    return Ctx.apply(E.name, Args);
  }
  case ann::ExprKind::Unary: {
    const inv::Term *A = E.unaryOp == ann::UnaryOp::LogicalNot ? predicate(E.operands[0], Why)
                                                               : integer(E.operands[0], Why);
    if (!A)
      return nullptr;
    switch (E.unaryOp) {
    case ann::UnaryOp::Negate:
      return Ctx.neg(A);
    case ann::UnaryOp::LogicalNot:
      return Ctx.logicalNot(A);
    case ann::UnaryOp::BitNot:
      return Ctx.bitNot(A);
    }
    return nullptr;
  }
  case ann::ExprKind::Binary:
    return binary(E, Why);
  case ann::ExprKind::Conditional: {
    const inv::Term *C = predicate(E.operands[0], Why);
    const inv::Term *A = C ? integer(E.operands[1], Why) : nullptr;
    const inv::Term *B = A ? integer(E.operands[2], Why) : nullptr;
    return B ? Ctx.select(C, A, B) : nullptr;
  }
  }
  Why = "unknown expression";
  return nullptr;
}

const inv::Term *PredicateTranslator::predicate(const ann::Expr &E, std::string &Why) {
  const inv::Term *T = integer(E, Why);
  if (!T)
    return nullptr;
  // C truth: any non-zero integer holds.
  return T->isBoolean() ? T : Ctx.ne(T, Ctx.constant(0));
}

const inv::Term *PredicateTranslator::launch(const ann::LaunchShape &L, std::string &Why) {
  std::vector<const inv::Term *> Parts;
  auto Dims = [&](const std::vector<ann::Expr> &Exprs, inv::SymbolKind Kind) {
    for (unsigned D = 0; D < 3; ++D) {
      const inv::Term *V = D < Exprs.size() ? integer(Exprs[D], Why) : Ctx.constant(1);
      if (!V)
        return false;
      Parts.push_back(Ctx.eq(Ctx.builtin(Kind, D), V));
    }
    return true;
  };
  if (!Dims(L.block, inv::SymbolKind::BlockDim))
    return nullptr;
  if (!L.grid.empty() && !Dims(L.grid, inv::SymbolKind::GridDim))
    return nullptr;
  return Ctx.allOf(Parts);
}

std::vector<const inv::Term *> PredicateTranslator::builtinFacts() {
  std::vector<const inv::Term *> Facts;
  for (unsigned D = 0; D < 3; ++D) {
    const inv::Term *Tid = Ctx.builtin(inv::SymbolKind::ThreadIdx, D);
    const inv::Term *Bid = Ctx.builtin(inv::SymbolKind::BlockIdx, D);
    const inv::Term *BDim = Ctx.builtin(inv::SymbolKind::BlockDim, D);
    const inv::Term *GDim = Ctx.builtin(inv::SymbolKind::GridDim, D);
    Facts.push_back(Ctx.ge(Tid, Ctx.constant(0)));
    Facts.push_back(Ctx.lt(Tid, BDim));
    Facts.push_back(Ctx.ge(Bid, Ctx.constant(0)));
    Facts.push_back(Ctx.lt(Bid, GDim));
    Facts.push_back(Ctx.ge(BDim, Ctx.constant(1)));
    Facts.push_back(Ctx.le(BDim, Ctx.constant(1024)));
    Facts.push_back(Ctx.ge(GDim, Ctx.constant(1)));
  }
  return Facts;
}

Implication implies(inv::TermContext &Ctx, const std::vector<const inv::Term *> &Facts,
                    const inv::Term *Premise, const inv::Term *Conclusion, unsigned TimeoutMs) {
  Implication Out;
  if (Premise == Conclusion || Conclusion == Ctx.trueTerm()) {
    Out.status = Implication::Holds;
    return Out;
  }
  inv::ObligationSolver Solver(Ctx, TimeoutMs);
  for (const inv::Term *F : Facts)
    Solver.addFact(F);
  const inv::Term *Violation = Ctx.logicalAnd(Premise, Ctx.logicalNot(Conclusion));
  inv::SolverResult R = Solver.check(Violation);
  if (R.status == inv::SolverResult::Proven) {
    Out.status = Implication::Holds;
  } else if (R.status == inv::SolverResult::Violated) {
    Out.status = Implication::Fails;
    for (const inv::Term *S : inv::collectSymbols(Violation))
      if (auto It = R.assignment.find(S); It != R.assignment.end())
        Out.witness +=
            (Out.witness.empty() ? "" : " ") + inv::print(S) + "=" + std::to_string(It->second);
    for (const inv::Term *A : inv::collectApplications(Violation))
      if (auto It = R.assignment.find(A); It != R.assignment.end())
        Out.witness +=
            (Out.witness.empty() ? "" : " ") + inv::print(A) + "=" + std::to_string(It->second);
  } else {
    Out.reason = R.reason.empty() ? "the solver could not decide" : R.reason;
  }
  return Out;
}

} // namespace ave::review
