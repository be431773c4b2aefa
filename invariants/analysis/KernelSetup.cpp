// Symbols, tensors and kernel-wide facts: what holds before the first
// statement of the kernel runs.

#include "ControlFlow.h"
#include "ave/invariants/Counterexample.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

#include <functional>

namespace ave::inv {

AnalysisObserver::~AnalysisObserver() = default;

ProvenanceInterpreter::ProvenanceInterpreter(clang::ASTContext &Ast,
                                             const ann::KernelAnnotations &Annotations,
                                             TermContext &Terms, ObligationSolver &Solver,
                                             const AnalysisOptions &Opts)
    : Ctx(Ast, Annotations, Terms, Solver, Opts), T(Terms), Shared(Ctx), Summaries(Ctx),
      Coverage(Ctx), Outputs(Ctx) {}

ProvenanceInterpreter::~ProvenanceInterpreter() = default;

void ProvenanceInterpreter::setUpTensors(const FlowState &State) {
  for (const ann::BoundTag &Tag : Ctx.annotations.tags) {
    TensorInfo Info;
    Info.tag = &Tag;
    Info.tensor = Tag.spec.tensor;
    for (const ann::Coordinate &C : Tag.spec.coordinates) {
      const Term *Sym = T.symbol(Info.tensor + "." + C.name, SymbolKind::Coordinate);
      Info.coordNames.push_back(C.name);
      Info.nameOfSymbol[Sym] = C.name;
      Info.layout.coordinates.push_back({Sym, nullptr});
    }
    // Bounds and layout may name coordinates, so the symbols exist first.
    for (size_t I = 0; I < Tag.spec.coordinates.size(); ++I)
      Info.layout.coordinates[I].bound =
          termForAnnotationInt(Tag.spec.coordinates[I].bound, &Info, State);
    if (Tag.spec.layout)
      Info.layout.address = termForAnnotationInt(*Tag.spec.layout, &Info, State);
    bool Unresolvable = std::any_of(Info.layout.coordinates.begin(), Info.layout.coordinates.end(),
                                    [](const LayoutCoordinate &C) { return !C.bound; });
    if (Unresolvable || (Tag.spec.layout && !Info.layout.address)) {
      Ctx.log.addNote(Tag.specRange.getBegin(),
                      "tag '" + Info.tensor + "' uses names the analysis cannot evaluate");
      continue;
    }
    if (Tag.declKind == ann::TaggedDeclKind::PointerParameter) {
      clang::QualType Pointee = Tag.decl->getType()->getPointeeType();
      Info.output = !Pointee.isNull() && !Pointee.isConstQualified();
    }
    for (const std::string &Name : Info.coordNames)
      (Info.output ? Ctx.outputNames : Ctx.inputNames).insert(Name);
    Ctx.tensors[Tag.decl] = std::move(Info);
  }
  // A tensor read and written (in-place) is both; its names are free.
  for (const std::string &Name : Ctx.inputNames)
    if (!Ctx.outputNames.count(Name))
      Ctx.contracted.insert(Name);
}

const Term *applyUnary(TermContext &T, ann::UnaryOp Op, const Term *A) {
  switch (Op) {
  case ann::UnaryOp::Negate:
    return T.neg(A);
  case ann::UnaryOp::LogicalNot:
    return T.logicalNot(A);
  case ann::UnaryOp::BitNot:
    return T.bitNot(A);
  }
  return nullptr;
}

const Term *applyBinary(TermContext &T, ann::BinaryOp Op, const Term *A, const Term *B) {
  static const std::map<ann::BinaryOp, TermKind> Kinds = {
      {ann::BinaryOp::Mul, TermKind::Mul},
      {ann::BinaryOp::Div, TermKind::Div},
      {ann::BinaryOp::Rem, TermKind::Rem},
      {ann::BinaryOp::Add, TermKind::Add},
      {ann::BinaryOp::Sub, TermKind::Sub},
      {ann::BinaryOp::Shl, TermKind::Shl},
      {ann::BinaryOp::Shr, TermKind::Shr},
      {ann::BinaryOp::Lt, TermKind::Lt},
      {ann::BinaryOp::Le, TermKind::Le},
      {ann::BinaryOp::Gt, TermKind::Gt},
      {ann::BinaryOp::Ge, TermKind::Ge},
      {ann::BinaryOp::Eq, TermKind::Eq},
      {ann::BinaryOp::Ne, TermKind::Ne},
      {ann::BinaryOp::BitAnd, TermKind::BitAnd},
      {ann::BinaryOp::BitXor, TermKind::BitXor},
      {ann::BinaryOp::BitOr, TermKind::BitOr},
      {ann::BinaryOp::LogicalAnd, TermKind::LogicalAnd},
      {ann::BinaryOp::LogicalOr, TermKind::LogicalOr}};
  auto It = Kinds.find(Op);
  if (It == Kinds.end())
    return nullptr;
  const Term *Operands[] = {A, B};
  return T.make(It->second, Operands);
}

const Term *ProvenanceInterpreter::identifierTerm(const ann::Expr &E, const TensorInfo *Coords,
                                                  const FlowState &State) {
  const ann::NameResolution &R = E.resolution;
  switch (R.kind) {
  case ann::NameKind::Coordinate:
    if (Coords && R.coordinateIndex >= 0 &&
        size_t(R.coordinateIndex) < Coords->layout.coordinates.size())
      return Coords->layout.coordinates[R.coordinateIndex].symbol;
    return nullptr;
  case ann::NameKind::IntegerConstant:
  case ann::NameKind::IntegerMacro:
    return R.constant ? T.constant(*R.constant) : nullptr;
  case ann::NameKind::Parameter:
  case ann::NameKind::LocalVariable: {
    auto It = State.env.find(R.decl);
    if (It != State.env.end() && It->second.kind == AbstractValue::Kind::Int)
      return It->second.term;
    if (R.kind == ann::NameKind::Parameter && R.decl &&
        R.decl->getType()->isIntegralOrEnumerationType())
      return T.symbol(E.name, SymbolKind::Param);
    return nullptr;
  }
  default:
    return nullptr;
  }
}

const Term *ProvenanceInterpreter::termForAnnotationInt(const ann::Expr &E,
                                                        const TensorInfo *Coords,
                                                        const FlowState &State) {
  using ann::ExprKind;
  auto Operand = [&](size_t I) { return termForAnnotationInt(E.operands[I], Coords, State); };
  switch (E.kind) {
  case ExprKind::IntLiteral:
    return T.constant(E.value);
  case ExprKind::Identifier:
    return identifierTerm(E, Coords, State);
  case ExprKind::Member: {
    const ann::Expr &Base = E.operands[0];
    if (Base.kind != ExprKind::Identifier || Base.resolution.kind != ann::NameKind::Builtin)
      return nullptr;
    return Ctx.builtinSymbol(Base.name, componentIndex(E.name));
  }
  case ExprKind::Unary: {
    const Term *A = Operand(0);
    return A ? applyUnary(T, E.unaryOp, A) : nullptr;
  }
  case ExprKind::Binary: {
    const Term *A = Operand(0);
    const Term *B = Operand(1);
    return A && B ? applyBinary(T, E.binaryOp, A, B) : nullptr;
  }
  case ExprKind::Conditional: {
    const Term *C = Operand(0);
    const Term *A = Operand(1);
    const Term *B = Operand(2);
    return C && A && B ? T.select(C, A, B) : nullptr;
  }
  case ExprKind::Subscript:
    return indexArrayTerm(E, Coords, State);
  default:
    return nullptr;
  }
}

const Term *ProvenanceInterpreter::indexArrayTerm(const ann::Expr &E, const TensorInfo *Coords,
                                                  const FlowState &State) {
  // Only the reads the interpreter itself makes uninterpreted: an integer
  // element of an untagged pointer (a kernel parameter, or a local pointer
  // into one), one subscript deep. Tensors, shared and private arrays and
  // device tables have values of their own.
  const ann::Expr &Base = E.operands[0];
  const clang::ValueDecl *D = Base.resolution.decl;
  if (Base.kind != ann::ExprKind::Identifier || !D)
    return nullptr;
  const clang::ValueDecl *Target = D;
  const Term *Offset = T.constant(0);
  auto It = State.env.find(D);
  if (It != State.env.end()) {
    if (It->second.kind != AbstractValue::Kind::Pointer || It->second.pointer.lanes != 1)
      return nullptr;
    Target = It->second.pointer.base;
    Offset = It->second.pointer.offset;
  }
  const auto *Parm = llvm::dyn_cast_or_null<clang::ParmVarDecl>(Target);
  if (!Parm || Ctx.tensors.count(Target) || !Parm->getType()->isPointerType() ||
      !Parm->getType()->getPointeeType()->isIntegralOrEnumerationType())
    return nullptr;
  const Term *Index = termForAnnotationInt(E.operands[1], Coords, State);
  return Index ? Ctx.readIndexArray(Target, T.add(Offset, Index)) : nullptr;
}

void ProvenanceInterpreter::addIndexFact(const ann::Expr &Fact, const ann::BoundPragma &P,
                                         const FlowState &State) {
  const Term *Count = termForAnnotationInt(Fact.operands[1], nullptr, State);
  const bool Permutation = Fact.name == "permutation";
  const Term *Bound = Permutation ? Count : termForAnnotationInt(Fact.operands[2], nullptr, State);
  if (!Count || !Bound) {
    Ctx.log.addNote(P.location, "'" + ann::printExpr(Fact) + "' of assumption '" + P.text +
                                    "' has a count or bound that is not an integer "
                                    "expression of the parameters; it was not used");
    return;
  }
  AnalysisContext::IndexArrayFacts &F = Ctx.indexArrays[Fact.resolution.decl];
  if (Fact.name == "blockwise") {
    addBlockwiseFact(Fact, P, Count, Bound, F);
    return;
  }
  if (F.count || (Permutation && F.group && !F.group->isConstant(1))) {
    Ctx.log.addNote(P.location, "'" + ann::printExpr(Fact) +
                                    "': an earlier assumption already states facts about '" +
                                    Fact.resolution.decl->getName().str() +
                                    "' (that contradict it, or that it repeats); it was not used");
    return;
  }
  F.count = Count;
  F.bound = Bound;
  F.permutation = Permutation;
}

void ProvenanceInterpreter::addBlockwiseFact(const ann::Expr &Fact, const ann::BoundPragma &P,
                                             const Term *Count, const Term *Group,
                                             AnalysisContext::IndexArrayFacts &F) {
  // The group must be a positive constant: a symbolic one would make every
  // read's fact nonlinear (i / G), and a group of 0 or less says nothing.
  auto Refuse = [&](const std::string &Why) {
    Ctx.log.addNote(P.location,
                    "'" + ann::printExpr(Fact) + "' of assumption '" + P.text + "' " + Why);
  };
  if (!Group->isConstant() || Group->value() < 1)
    return Refuse("needs a positive integer constant as its group; it was not used");
  if (F.group)
    return Refuse("repeats a blockwise fact already stated; it was not used");
  if (F.permutation && Group->value() > 1)
    return Refuse("contradicts permutation(...) of the same array; it was not used");
  F.groupCount = Count;
  F.group = Group;
}

void ProvenanceInterpreter::addMask(const ann::Expr &Mask, const ann::BoundPragma &P,
                                    const FlowState &State) {
  AnalysisContext::ContractionMask M;
  M.text = ann::printExpr(Mask);
  std::function<const Term *(const ann::Expr &)> Build = [&](const ann::Expr &E) -> const Term * {
    if (E.kind == ann::ExprKind::Identifier && E.resolution.kind == ann::NameKind::CoordinateName) {
      const Term *&Placeholder = M.names[E.name];
      if (!Placeholder)
        Placeholder = T.freshSymbol("mask." + E.name, SymbolKind::Fresh);
      return Placeholder;
    }
    if (E.kind == ann::ExprKind::Unary) {
      const Term *A = Build(E.operands[0]);
      return A ? applyUnary(T, E.unaryOp, A) : nullptr;
    }
    if (E.kind == ann::ExprKind::Binary) {
      const Term *A = Build(E.operands[0]);
      const Term *B = A ? Build(E.operands[1]) : nullptr;
      return B ? applyBinary(T, E.binaryOp, A, B) : nullptr;
    }
    return termForAnnotationInt(E, nullptr, State);
  };
  M.predicate = Build(Mask.operands[0]);
  if (!M.predicate) {
    Ctx.log.addNote(P.location, "'" + M.text + "' of assumption '" + P.text +
                                    "' is not an integer predicate over coordinate names and "
                                    "parameters; it was not used");
    return;
  }
  Ctx.masks.push_back(std::move(M));
}

void ProvenanceInterpreter::applyLaunchPragma() {
  const ann::BoundPragma *Launch = Ctx.annotations.launch();
  if (!Launch)
    return;
  const ann::LaunchShape &Shape = Launch->pragma.launch;
  KernelSymbols &S = Ctx.symbols;
  FlowState Empty;
  if (Shape.sharedBytes)
    Ctx.dynamicSharedBytes = termForAnnotationInt(*Shape.sharedBytes, nullptr, Empty);
  for (size_t D = 0; D < 3; ++D) {
    if (D < Shape.block.size()) {
      if (const Term *V = termForAnnotationInt(Shape.block[D], nullptr, Empty)) {
        Ctx.kernelFacts.push_back(T.eq(S.bdim[D], V));
        if (V->isConstant())
          S.launchBlock[D] = V->value();
      }
    } else {
      Ctx.kernelFacts.push_back(T.eq(S.bdim[D], T.constant(1)));
      S.launchBlock[D] = 1;
    }
    if (D < Shape.grid.size()) {
      if (const Term *V = termForAnnotationInt(Shape.grid[D], nullptr, Empty))
        Ctx.kernelFacts.push_back(T.eq(S.gdim[D], V));
    } else if (!Shape.grid.empty()) {
      Ctx.kernelFacts.push_back(T.eq(S.gdim[D], T.constant(1))); // grid(x, y): z is 1
    }
  }
}

void ProvenanceInterpreter::applyKernelLevelPragmas(const FlowState &State) {
  // The launch shape first: assumptions may mention blockDim.
  applyLaunchPragma();
  const KernelSymbols &S = Ctx.symbols;
  for (unsigned D = 0; D < 3; ++D) {
    Ctx.kernelFacts.push_back(T.ge(S.bdim[D], T.constant(1)));
    Ctx.kernelFacts.push_back(T.le(S.bdim[D], T.constant(1024)));
    Ctx.kernelFacts.push_back(T.ge(S.gdim[D], T.constant(1)));
    Ctx.kernelFacts.push_back(T.ge(S.tid[D], T.constant(0)));
    Ctx.kernelFacts.push_back(T.lt(S.tid[D], S.bdim[D]));
    Ctx.kernelFacts.push_back(T.ge(S.bid[D], T.constant(0)));
    Ctx.kernelFacts.push_back(T.lt(S.bid[D], S.gdim[D]));
  }
  std::vector<const Term *> IdFacts; // about threadIdx / blockIdx: checked below
  for (const ann::BoundPragma &P : Ctx.annotations.pragmas) {
    if (!P.kernelLevel || P.pragma.kind != ann::PragmaKind::Assume)
      continue;
    // `tag(Y) == 0` conjuncts state an output's initial value; the rest is
    // an integer fact.
    std::vector<const ann::Expr *> Facts;
    for (const ann::Expr *Conjunct : ann::conjuncts(P.pragma.predicate)) {
      // (Before the tensors are set up: the tag on a pointer to non-const.)
      const clang::ValueDecl *Tensor = ann::zeroStartOf(*Conjunct);
      const ann::BoundTag *Tag = Tensor ? Ctx.annotations.tagOn(Tensor) : nullptr;
      if (Tag && Tag->declKind == ann::TaggedDeclKind::PointerParameter &&
          !Tensor->getType()->getPointeeType().isConstQualified())
        Ctx.outputsStartAtZero.insert(Tensor);
      else if (Conjunct->kind == ann::ExprKind::Call &&
               Conjunct->resolution.kind == ann::NameKind::IndexFact)
        addIndexFact(*Conjunct, P, State);
      else if (Conjunct->kind == ann::ExprKind::Call &&
               Conjunct->resolution.kind == ann::NameKind::Mask)
        addMask(*Conjunct, P, State);
      else
        Facts.push_back(Conjunct);
    }
    bool Whole = Facts.size() == ann::conjuncts(P.pragma.predicate).size();
    for (const ann::Expr *Conjunct : Facts) {
      if (const Term *F = termForAnnotationInt(*Conjunct, nullptr, State))
        (mentionsThreadOrBlock(F) ? IdFacts : Ctx.kernelFacts).push_back(F);
      else if (Whole && Facts.size() == 1)
        Ctx.log.addNote(P.location,
                        "assumption '" + P.text + "' is not an integer fact; it was not used");
      else
        Ctx.log.addNote(P.location, "'" + ann::printExpr(*Conjunct) + "' of assumption '" + P.text +
                                        "' is not an integer fact; it was not used");
    }
  }
  checkIdAssumptions(IdFacts);
  for (const Term *F : Ctx.kernelFacts)
    Ctx.solver.addFact(F);
}

bool ProvenanceInterpreter::mentionsThreadOrBlock(const Term *F) const {
  for (unsigned D = 0; D < 3; ++D)
    if (occursIn(Ctx.symbols.tid[D], F) || occursIn(Ctx.symbols.bid[D], F))
      return true;
  return false;
}

void ProvenanceInterpreter::checkIdAssumptions(const std::vector<const Term *> &IdFacts) {
  // An assumption about thread or block ids must hold for every thread of
  // every block the launch runs: otherwise it drops threads from the
  // analysis, and a kernel wrong on them was proven (`assume threadIdx.x <
  // 32` under block(64)). Asked before any fact reaches the solver, with
  // the launch and the assumptions about parameters alone.
  const KernelSymbols &S = Ctx.symbols;
  for (const Term *F : IdFacts) {
    std::vector<const Term *> Query = Ctx.kernelFacts;
    Query.push_back(T.logicalNot(F));
    SolverResult R = Ctx.solver.check(T.allOf(Query),
                                      {S.tid[0], S.tid[1], S.tid[2], S.bid[0], S.bid[1], S.bid[2]});
    if (R.status == SolverResult::Proven)
      continue;
    if (Ctx.idAssumptionError.empty()) {
      Ctx.idAssumptionError = "the assumption '" + print(F) +
                              "' about thread or block ids does not hold for every thread of the "
                              "launch, so it would leave threads out of every proof";
      if (R.status == SolverResult::Violated)
        Ctx.idAssumptionError += " (threadIdx=" + idTriple(S.tid, R.assignment) +
                                 " blockIdx=" + idTriple(S.bid, R.assignment) + " breaks it)";
    }
  }
  Ctx.kernelFacts.insert(Ctx.kernelFacts.end(), IdFacts.begin(), IdFacts.end());
}

} // namespace ave::inv
