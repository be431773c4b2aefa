// Statements: the walk's entry, declarations and pragmas. Loops are in
// LoopTransfer.cpp, the walk itself in ControlFlowWalk.cpp.

#include "ControlFlow.h"
#include "LoopBodyScan.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

namespace ave::inv {

void ProvenanceInterpreter::run() {
  const clang::FunctionDecl *Kernel = Ctx.annotations.kernel;
  for (const ann::BoundPragma &P : Ctx.annotations.pragmas) {
    if (P.kernelLevel)
      continue;
    if (P.statement)
      PragmasBefore.insert({P.statement, &P});
    else if (P.block)
      PragmasAtEnd.insert({P.block, &P});
  }
  // A template pattern has dependent types and values that have no size or
  // value yet; its instantiations are what runs, and `check` analyses those.
  if (Kernel->isDependentContext()) {
    if (!Ctx.annotations.tags.empty() || !Ctx.annotations.pragmas.empty()) {
      Obligation O;
      O.range = clang::SourceRange(Kernel->getLocation(), Kernel->getLocation());
      O.summary = "invariants of template kernel '" + Kernel->getNameAsString() + "'";
      O.unprovenReason = "it is never instantiated in this file, so there are no sizes or types "
                         "to check it with";
      Ctx.log.addObligation(std::move(O));
    }
    return;
  }
  FlowState Entry;
  applyKernelLevelPragmas(Entry);
  setUpTensors(Entry);
  const clang::Stmt *Body = Kernel->getBody();
  if (!Body || !buildControlFlow(Body))
    return;
  Ctx.escaped = escapedLocals(Body);
  walkRegion(nullptr, std::move(Entry));
  requireOutputStores();
  Outputs.emit();
  checkCaseGaps();
  checkSpecification();
  for (const auto &[Target, P] : PragmasBefore)
    if (!Ctx.log.enteredPragmaTarget(Target))
      Ctx.log.addNote(P->location, "'#pragma ave " + P->text +
                                       "' is on no path through the kernel; it was not checked");
  uncheckedAssertionsAtEnd();
}

void ProvenanceInterpreter::uncheckedAssertionsAtEnd() {
  // An assertion that ends a block the walk never falls off the end of (the
  // only content of a branch, which has no statement to stop at) was never
  // asked: unproven, not silently left out of the count.
  for (const auto &[Block, P] : PragmasAtEnd) {
    if (AppliedAtEnd.count(P) || P->pragma.kind != ann::PragmaKind::Assert)
      continue;
    Obligation O;
    O.kind = ObligationKind::Assertion;
    O.range = clang::SourceRange(P->location, P->location);
    O.summary = P->text;
    O.unprovenReason = "it ends a block the analysis never stops at the end of (an empty "
                       "branch, or a block no path reaches), so it was not checked; put it "
                       "before a statement";
    Ctx.log.addObligation(std::move(O));
  }
}

void ProvenanceInterpreter::applyAssumption(const ann::BoundPragma &P, FlowState &State) {
  // Each conjunct is an integer fact or gives a value its tag
  // (`tag(x) == A(r, k)`, for what the analysis cannot see: inline asm).
  std::vector<const ann::Expr *> Conjuncts{&P.pragma.predicate};
  for (size_t I = 0; I < Conjuncts.size();) {
    const ann::Expr *C = Conjuncts[I];
    if (C->kind == ann::ExprKind::Binary && C->binaryOp == ann::BinaryOp::LogicalAnd) {
      Conjuncts.erase(Conjuncts.begin() + I);
      Conjuncts.insert(Conjuncts.begin() + I, {&C->operands[0], &C->operands[1]});
      continue;
    }
    ++I;
  }
  for (const ann::Expr *C : Conjuncts) {
    if (assumeTag(*C, P, State))
      continue;
    if (const Term *F = termForAnnotationInt(*C, nullptr, State)) {
      State.path.push_back(F);
      continue;
    }
    Ctx.log.addNote(P.location, "assumption '" + ann::printExpr(*C) +
                                    "' is neither an integer fact nor tag(x) == T(...) of a "
                                    "local value; it was not used");
  }
}

void ProvenanceInterpreter::applyPragma(const ann::BoundPragma &P, FlowState &State) {
  switch (P.pragma.kind) {
  case ann::PragmaKind::Assert:
    checkAssertion(P, State);
    return;
  case ann::PragmaKind::Assume:
    applyAssumption(P, State);
    return;
  case ann::PragmaKind::Reset:
    Shared.reset(P.pragma.array.resolution.decl);
    return;
  case ann::PragmaKind::Launch:
    return; // kernel-level, applied at setup
  }
}

namespace {

// Scalars in a private array or vector (`float a[4][4]`: 16); 0 if unknown.
unsigned elementCount(clang::ASTContext &Ast, clang::QualType Type) {
  // An element of class type (`__half`) is one value.
  uint64_t Count = 1;
  bool Array = false;
  while (const clang::ConstantArrayType *A = Ast.getAsConstantArrayType(Type)) {
    Count *= A->getSize().getZExtValue();
    Type = A->getElementType();
    Array = true;
  }
  if (const auto *V = Type->getAs<clang::VectorType>())
    Count *= V->getNumElements();
  else if (Type->isArrayType() || (Type->isRecordType() && !Array))
    return 0;
  return Count > 0 && Count < (1u << 20) ? unsigned(Count) : 0;
}

} // namespace

void ProvenanceInterpreter::initialiseSlots(const clang::InitListExpr *IL, clang::QualType Type,
                                            int64_t First, PrivateArray &Arr, FlowState &State) {
  // `float acc[2][2] = {{0.0f, 0.0f}, {0.0f, 0.0f}}` row by row, and the
  // elements a list leaves out (`= {0.0f}`, `= {}`) are zero, as in C.
  const clang::ConstantArrayType *Rows = Ctx.ast.getAsConstantArrayType(Type);
  if (!Rows) {
    for (unsigned I = 0; I < IL->getNumInits(); ++I)
      Arr.constantSlots[First + I] = eval(IL->getInit(I), State);
    return;
  }
  const clang::QualType Row = Rows->getElementType();
  const int64_t RowSize = std::max<int64_t>(1, elementCount(Ctx.ast, Row));
  for (uint64_t I = 0; I < Rows->getSize().getZExtValue(); ++I) {
    const int64_t At = First + int64_t(I) * RowSize;
    const clang::Expr *Init = I < IL->getNumInits() ? IL->getInit(unsigned(I)) : nullptr;
    if (const auto *Inner =
            llvm::dyn_cast_or_null<clang::InitListExpr>(Init ? Init->IgnoreImplicit() : nullptr)) {
      initialiseSlots(Inner, Row, At, Arr, State);
      continue;
    }
    if (Init && !llvm::isa<clang::ImplicitValueInitExpr>(Init)) {
      if (RowSize == 1)
        Arr.constantSlots[At] = eval(Init, State);
      continue; // a row from one expression: not followed (its slots stay unknown)
    }
    // Left out: zero (a row of zeros too), for an arithmetic element type.
    clang::QualType Scalar = Row;
    while (const clang::ConstantArrayType *Inner = Ctx.ast.getAsConstantArrayType(Scalar))
      Scalar = Inner->getElementType();
    AbstractValue Zero = AbstractValue::ofData(DataValue::neutral());
    Zero.data.constants = {0.0};
    if (Scalar->isIntegralOrEnumerationType())
      Zero = AbstractValue::ofInt(T.constant(0));
    else if (!Scalar->isRealFloatingType())
      continue;
    for (int64_t E = 0; E < RowSize; ++E)
      Arr.constantSlots[At + E] = Zero;
  }
}

bool ProvenanceInterpreter::declareReference(const clang::VarDecl *VD, FlowState &State) {
  clang::QualType QT = VD->getType();
  if (!QT->isReferenceType() || QT.getNonReferenceType().isConstQualified() || !VD->getInit())
    return false;
  const clang::Expr *Init = VD->getInit()->IgnoreParenImpCasts();
  // A local's other name: the local is escaped (its reads are not
  // followed), and the name is a value of its own.
  if (const auto *DRE = llvm::dyn_cast<clang::DeclRefExpr>(Init);
      DRE && llvm::isa<clang::VarDecl>(DRE->getDecl()) && !Ctx.isSharedScalar(DRE->getDecl()) &&
      !DRE->getDecl()->getType()->isReferenceType())
    return false;
  References.erase(VD);
  UnfollowedReferences.erase(VD);
  Address A = addressOf(Init, State);
  if (A.valid() && A.lanes == 1)
    References[VD] = A;
  else
    UnfollowedReferences.insert(VD);
  State.env.erase(VD);
  return true;
}

void ProvenanceInterpreter::declare(const clang::VarDecl *VD, FlowState &State) {
  if (Ctx.isSharedArray(VD))
    return;
  if (VD->getType()->isArrayType() || VD->getType()->isVectorType()) {
    auto Arr = std::make_shared<PrivateArray>();
    Arr->size = elementCount(Ctx.ast, VD->getType());
    if (const auto *IL = llvm::dyn_cast_or_null<clang::InitListExpr>(
            VD->getInit() ? VD->getInit()->IgnoreImplicit() : nullptr))
      initialiseSlots(IL, VD->getType(), 0, *Arr, State);
    State.env[VD] = AbstractValue::ofArray(std::move(Arr));
    return;
  }
  if (declareReference(VD, State))
    return;
  if (const clang::Expr *Init = VD->getInit())
    State.env[VD] = eval(Init, State);
  else if (VD->getType()->isIntegralOrEnumerationType())
    State.env[VD] = AbstractValue::ofInt(T.approximation(VD->getName().str(), SymbolKind::Other));
  else // read before it is assigned: an indeterminate value, not a zero
    State.env[VD] = AbstractValue::ofData(
        DataValue::unknown("'" + VD->getName().str() + "' is read before it is given a value"));
}

} // namespace ave::inv
