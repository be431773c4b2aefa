// Symbols, tensors and kernel-wide facts: what holds before the first
// statement of the kernel runs.

#include "ControlFlow.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

namespace ave::inv {

ProvenanceInterpreter::ProvenanceInterpreter(clang::ASTContext &Ctx,
                                             const ann::KernelAnnotations &Annotations,
                                             TermContext &Terms, ObligationSolver &Solver,
                                             const AnalysisOptions &Opts)
    : Ctx(Ctx), Ann(Annotations), T(Terms), Solver(Solver), Opts(Opts), Matcher(Terms) {}

void ProvenanceInterpreter::setUpSymbols() {
  for (unsigned D = 0; D < 3; ++D) {
    Tid[D] = T.builtin(SymbolKind::ThreadIdx, D);
    Bid[D] = T.builtin(SymbolKind::BlockIdx, D);
    BDim[D] = T.builtin(SymbolKind::BlockDim, D);
    GDim[D] = T.builtin(SymbolKind::GridDim, D);
  }
}

void ProvenanceInterpreter::setUpTensors() {
  for (const ann::BoundTag &Tag : Ann.tags) {
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
      Info.layout.coordinates[I].bound = termForAnnotationInt(Tag.spec.coordinates[I].bound, &Info);
    if (Tag.spec.layout)
      Info.layout.address = termForAnnotationInt(*Tag.spec.layout, &Info);
    bool Unresolvable = !Info.layout.coordinates.empty() &&
                        std::any_of(Info.layout.coordinates.begin(), Info.layout.coordinates.end(),
                                    [](const LayoutCoordinate &C) { return !C.bound; });
    if (Unresolvable || (Tag.spec.layout && !Info.layout.address)) {
      Notes.push_back({Tag.specRange.getBegin(),
                       "tag '" + Info.tensor + "' uses names the analysis cannot evaluate"});
      continue;
    }
    if (Tag.declKind == ann::TaggedDeclKind::PointerParameter) {
      clang::QualType Pointee = Tag.decl->getType()->getPointeeType();
      Info.output = !Pointee.isNull() && !Pointee.isConstQualified();
    }
    for (const std::string &Name : Info.coordNames)
      (Info.output ? OutputNames : InputNames).insert(Name);
    Tensors[Tag.decl] = std::move(Info);
  }
  // A tensor read and written (in-place) is both; its names are free.
  for (const std::string &Name : InputNames)
    if (!OutputNames.count(Name))
      Contracted.insert(Name);
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
  switch (Op) {
  case ann::BinaryOp::Mul:
    return T.mul(A, B);
  case ann::BinaryOp::Div:
    return T.div(A, B);
  case ann::BinaryOp::Rem:
    return T.rem(A, B);
  case ann::BinaryOp::Add:
    return T.add(A, B);
  case ann::BinaryOp::Sub:
    return T.sub(A, B);
  case ann::BinaryOp::Shl:
    return T.shl(A, B);
  case ann::BinaryOp::Shr:
    return T.shr(A, B);
  case ann::BinaryOp::Lt:
    return T.lt(A, B);
  case ann::BinaryOp::Le:
    return T.le(A, B);
  case ann::BinaryOp::Gt:
    return T.gt(A, B);
  case ann::BinaryOp::Ge:
    return T.ge(A, B);
  case ann::BinaryOp::Eq:
    return T.eq(A, B);
  case ann::BinaryOp::Ne:
    return T.ne(A, B);
  case ann::BinaryOp::BitAnd:
    return T.bitAnd(A, B);
  case ann::BinaryOp::BitXor:
    return T.bitXor(A, B);
  case ann::BinaryOp::BitOr:
    return T.bitOr(A, B);
  case ann::BinaryOp::LogicalAnd:
    return T.logicalAnd(A, B);
  case ann::BinaryOp::LogicalOr:
    return T.logicalOr(A, B);
  }
  return nullptr;
}

const Term *ProvenanceInterpreter::termForAnnotationInt(const ann::Expr &E,
                                                        const TensorInfo *Coords) {
  using ann::ExprKind;
  switch (E.kind) {
  case ExprKind::IntLiteral:
    return T.constant(E.value);
  case ExprKind::Identifier: {
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
      auto It = Env.find(R.decl);
      if (It != Env.end() && It->second.kind == AbstractValue::Kind::Int)
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
  case ExprKind::Member: {
    const ann::Expr &Base = E.operands[0];
    if (Base.kind != ExprKind::Identifier || Base.resolution.kind != ann::NameKind::Builtin)
      return nullptr;
    return builtinSymbol(Base.name, componentIndex(E.name));
  }
  case ExprKind::Unary: {
    const Term *A = termForAnnotationInt(E.operands[0], Coords);
    return A ? applyUnary(T, E.unaryOp, A) : nullptr;
  }
  case ExprKind::Binary: {
    const Term *A = termForAnnotationInt(E.operands[0], Coords);
    const Term *B = termForAnnotationInt(E.operands[1], Coords);
    return A && B ? applyBinary(T, E.binaryOp, A, B) : nullptr;
  }
  case ExprKind::Conditional: {
    const Term *C = termForAnnotationInt(E.operands[0], Coords);
    const Term *A = termForAnnotationInt(E.operands[1], Coords);
    const Term *B = termForAnnotationInt(E.operands[2], Coords);
    return C && A && B ? T.select(C, A, B) : nullptr;
  }
  default:
    return nullptr;
  }
}

void ProvenanceInterpreter::applyKernelLevelPragmas() {
  // The launch shape first: assumptions may mention blockDim.
  if (const ann::BoundPragma *Launch = Ann.launch()) {
    const ann::LaunchShape &Shape = Launch->pragma.launch;
    for (size_t D = 0; D < 3; ++D) {
      if (D < Shape.block.size()) {
        if (const Term *V = termForAnnotationInt(Shape.block[D], nullptr)) {
          KernelFacts.push_back(T.eq(BDim[D], V));
          if (V->isConstant())
            LaunchBlock[D] = V->value();
        }
      } else {
        KernelFacts.push_back(T.eq(BDim[D], T.constant(1)));
        LaunchBlock[D] = 1;
      }
      if (D < Shape.grid.size()) {
        if (const Term *V = termForAnnotationInt(Shape.grid[D], nullptr))
          KernelFacts.push_back(T.eq(GDim[D], V));
      } else if (!Shape.grid.empty()) {
        KernelFacts.push_back(T.eq(GDim[D], T.constant(1))); // grid(x, y): z is 1
      }
    }
  }
  for (unsigned D = 0; D < 3; ++D) {
    KernelFacts.push_back(T.ge(BDim[D], T.constant(1)));
    KernelFacts.push_back(T.le(BDim[D], T.constant(1024)));
    KernelFacts.push_back(T.ge(GDim[D], T.constant(1)));
    KernelFacts.push_back(T.ge(Tid[D], T.constant(0)));
    KernelFacts.push_back(T.lt(Tid[D], BDim[D]));
    KernelFacts.push_back(T.ge(Bid[D], T.constant(0)));
    KernelFacts.push_back(T.lt(Bid[D], GDim[D]));
  }
  for (const ann::BoundPragma &P : Ann.pragmas) {
    if (P.kernelLevel && P.pragma.kind == ann::PragmaKind::Assume) {
      if (const Term *F = termForAnnotationInt(P.pragma.predicate, nullptr))
        KernelFacts.push_back(F);
      else
        Notes.push_back(
            {P.location, "assumption '" + P.text + "' is not an integer fact; it was not used"});
    }
  }
  for (const Term *F : KernelFacts)
    Solver.addFact(F);
}

} // namespace ave::inv
