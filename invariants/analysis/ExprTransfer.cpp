// Expressions: integer index arithmetic becomes terms, floating-point data
// becomes provenance, and every combination of two tagged values is checked.

#include "ProvenanceInterpreter.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/StringSwitch.h"

namespace ave::inv {

namespace {

bool isDataType(clang::QualType QT) {
  QT = QT.getCanonicalType();
  if (QT->isRealFloatingType() || QT->isVectorType())
    return true;
  if (QT->getAs<clang::RecordType>())
    return true; // float4, __half, __hip_bfloat16 and friends
  return false;
}

llvm::StringRef calleeName(const clang::CallExpr *Call) {
  if (const clang::FunctionDecl *FD = Call->getDirectCallee())
    if (const clang::IdentifierInfo *II = FD->getIdentifier())
      return II->getName();
  return {};
}

} // namespace

const Term *ProvenanceInterpreter::evalInt(const clang::Expr *E) {
  AbstractValue V = eval(E);
  return V.kind == AbstractValue::Kind::Int ? V.term : nullptr;
}

const Term *ProvenanceInterpreter::builtinCoordinate(const clang::Expr *E) {
  // threadIdx.x is `MemberExpr .x` on the variable `threadIdx` in HIP's
  // headers, converted through `operator unsigned int`.
  const auto *ME = llvm::dyn_cast<clang::MemberExpr>(E->IgnoreParenImpCasts());
  if (!ME)
    return nullptr;
  const auto *DRE = llvm::dyn_cast<clang::DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts());
  if (!DRE)
    return nullptr;
  return builtinSymbol(DRE->getDecl()->getName(), componentIndex(ME->getMemberDecl()->getName()));
}

int componentIndex(llvm::StringRef Name) {
  return llvm::StringSwitch<int>(Name).Case("x", 0).Case("y", 1).Case("z", 2).Case("w", 3).Default(
      -1);
}

const Term *ProvenanceInterpreter::builtinSymbol(llvm::StringRef Builtin, int D) const {
  if (D < 0 || D > 2)
    return nullptr;
  if (Builtin == "threadIdx")
    return Tid[D];
  if (Builtin == "blockIdx")
    return Bid[D];
  if (Builtin == "blockDim")
    return BDim[D];
  if (Builtin == "gridDim")
    return GDim[D];
  return nullptr;
}

AbstractValue ProvenanceInterpreter::eval(const clang::Expr *E) {
  if (!E)
    return AbstractValue::none();
  E = E->IgnoreParens();
  if (const Term *B = builtinCoordinate(E))
    return AbstractValue::ofInt(B);
  if (const auto *IL = llvm::dyn_cast<clang::IntegerLiteral>(E))
    return AbstractValue::ofInt(T.constant(IL->getValue().getSExtValue()));
  if (const auto *BL = llvm::dyn_cast<clang::CXXBoolLiteralExpr>(E))
    return AbstractValue::ofInt(T.constant(BL->getValue() ? 1 : 0));
  if (llvm::isa<clang::FloatingLiteral>(E))
    return AbstractValue::ofData(DataValue::neutral());
  if (const auto *CE = llvm::dyn_cast<clang::CastExpr>(E)) {
    AbstractValue Sub = eval(CE->getSubExpr());
    clang::QualType To = CE->getType();
    if (To->isIntegralOrEnumerationType()) {
      if (Sub.kind == AbstractValue::Kind::Int)
        return Sub;
      return AbstractValue::ofInt(T.freshSymbol("cast", SymbolKind::Fresh));
    }
    if (isDataType(To) && Sub.kind == AbstractValue::Kind::Int)
      return AbstractValue::ofData(DataValue::neutral()); // a number computed from indices
    if (To->isPointerType() && Sub.kind == AbstractValue::Kind::Pointer && Sub.pointer.base &&
        Sub.pointer.lanes == 1)
      Sub.pointer.lanes = vectorLanes(Sub.pointer.base, To->getPointeeType());
    return Sub;
  }
  if (const auto *CCE = llvm::dyn_cast<clang::CXXConstructExpr>(E)) {
    // Copies of vector values (`float4 v = p[i]`).
    if (CCE->getNumArgs() == 1)
      return eval(CCE->getArg(0));
    return AbstractValue::ofData(DataValue::neutral());
  }
  if (const auto *OCE = llvm::dyn_cast<clang::CXXOperatorCallExpr>(E)) {
    // `v = w` on vector classes (float4) is a call to operator=.
    if (OCE->getOperator() == clang::OO_Equal && OCE->getNumArgs() == 2) {
      AbstractValue V = eval(OCE->getArg(1));
      assign(OCE->getArg(0), V, OCE);
      return V;
    }
    return AbstractValue::ofData(
        DataValue::unknown("overloaded operator the analysis does not model"));
  }
  if (const auto *MCE = llvm::dyn_cast<clang::CXXMemberCallExpr>(E)) {
    // Conversion operators of the HIP coordinate structs.
    if (const Term *B = builtinCoordinate(MCE->getImplicitObjectArgument()))
      return AbstractValue::ofInt(B);
    return AbstractValue::ofData(DataValue::unknown("call to a member function"));
  }
  if (const auto *EWC = llvm::dyn_cast<clang::ExprWithCleanups>(E))
    return eval(EWC->getSubExpr());
  if (const auto *MTE = llvm::dyn_cast<clang::MaterializeTemporaryExpr>(E))
    return eval(MTE->getSubExpr());
  if (const auto *DRE = llvm::dyn_cast<clang::DeclRefExpr>(E))
    return evalDeclRef(DRE);
  if (llvm::isa<clang::ArraySubscriptExpr>(E))
    return evalSubscriptLoad(E);
  if (const auto *BO = llvm::dyn_cast<clang::BinaryOperator>(E))
    return evalBinary(BO);
  if (const auto *UO = llvm::dyn_cast<clang::UnaryOperator>(E))
    return evalUnary(UO);
  if (const auto *Call = llvm::dyn_cast<clang::CallExpr>(E))
    return evalCall(Call);
  if (const auto *CO = llvm::dyn_cast<clang::ConditionalOperator>(E)) {
    // Both arms, each under its side of the condition: the join of an if.
    const Term *C = evalInt(CO->getCond());
    if (!C)
      C = T.freshSymbol("cond", SymbolKind::Fresh);
    AbstractValue A = eval(CO->getTrueExpr()), B = eval(CO->getFalseExpr());
    return joinValues(T.ne(C, T.constant(0)), A, std::move(B));
  }
  if (const auto *ME = llvm::dyn_cast<clang::MemberExpr>(E)) {
    // `v.x` of a float4-style vector: its element.
    const clang::Expr *Root = nullptr;
    int Field = vectorFieldIndex(ME, Root);
    if (Field >= 0) {
      AbstractValue V = eval(Root);
      if (V.kind == AbstractValue::Kind::Array)
        return readPrivateElement(*V.array, T.constant(Field));
      return V;
    }
    return eval(ME->getBase());
  }
  if (const auto *EVE = llvm::dyn_cast<clang::ExtVectorElementExpr>(E))
    return eval(EVE->getBase());
  if (E->getType()->isIntegralOrEnumerationType()) {
    clang::Expr::EvalResult R;
    if (!E->isValueDependent() && E->EvaluateAsInt(R, Ctx))
      return AbstractValue::ofInt(T.constant(R.Val.getInt().getSExtValue()));
    return AbstractValue::ofInt(T.freshSymbol("value", SymbolKind::Fresh));
  }
  return AbstractValue::ofData(DataValue::unknown("expression the analysis does not model"));
}

AbstractValue ProvenanceInterpreter::evalDeclRef(const clang::DeclRefExpr *DRE) {
  const clang::ValueDecl *D = DRE->getDecl();
  if (const auto *EC = llvm::dyn_cast<clang::EnumConstantDecl>(D))
    return AbstractValue::ofInt(T.constant(EC->getInitVal().getSExtValue()));
  auto It = Env.find(D);
  if (It != Env.end())
    return It->second;
  clang::QualType QT = D->getType();
  if (isSharedArray(D) || QT->isArrayType() || QT->isPointerType())
    return AbstractValue::ofPointer(D, T.constant(0));
  if (const auto *VD = llvm::dyn_cast<clang::VarDecl>(D)) {
    if (llvm::isa<clang::ParmVarDecl>(VD) && QT->isIntegralOrEnumerationType()) {
      AbstractValue V = AbstractValue::ofInt(T.symbol(VD->getName().str(), SymbolKind::Param));
      Env[D] = V;
      return V;
    }
    if (QT->isIntegralOrEnumerationType()) {
      if (const clang::Expr *Init = VD->getAnyInitializer()) {
        clang::Expr::EvalResult R;
        if (!Init->isValueDependent() && Init->EvaluateAsInt(R, Ctx))
          return AbstractValue::ofInt(T.constant(R.Val.getInt().getSExtValue()));
      }
      return AbstractValue::ofInt(T.symbol(VD->getName().str(), SymbolKind::Other));
    }
  }
  return AbstractValue::ofData(DataValue::neutral()); // untagged scalar (alpha, beta)
}

AbstractValue ProvenanceInterpreter::evalBinary(const clang::BinaryOperator *BO) {
  using clang::BinaryOperatorKind;
  BinaryOperatorKind Op = BO->getOpcode();
  if (Op == clang::BO_Assign) {
    AbstractValue V = eval(BO->getRHS());
    assign(BO->getLHS(), V, BO);
    return V;
  }
  if (BO->isCompoundAssignmentOp()) {
    AbstractValue L = eval(BO->getLHS());
    AbstractValue R = eval(BO->getRHS());
    AbstractValue V;
    if (L.kind == AbstractValue::Kind::Int && R.kind == AbstractValue::Kind::Int) {
      switch (Op) {
      case clang::BO_AddAssign:
        V = AbstractValue::ofInt(T.add(L.term, R.term));
        break;
      case clang::BO_SubAssign:
        V = AbstractValue::ofInt(T.sub(L.term, R.term));
        break;
      case clang::BO_MulAssign:
        V = AbstractValue::ofInt(T.mul(L.term, R.term));
        break;
      case clang::BO_DivAssign:
        V = AbstractValue::ofInt(T.div(L.term, R.term));
        break;
      case clang::BO_RemAssign:
        V = AbstractValue::ofInt(T.rem(L.term, R.term));
        break;
      case clang::BO_ShlAssign:
        V = AbstractValue::ofInt(T.shl(L.term, R.term));
        break;
      case clang::BO_ShrAssign:
        V = AbstractValue::ofInt(T.shr(L.term, R.term));
        break;
      case clang::BO_AndAssign:
        V = AbstractValue::ofInt(T.bitAnd(L.term, R.term));
        break;
      case clang::BO_OrAssign:
        V = AbstractValue::ofInt(T.bitOr(L.term, R.term));
        break;
      case clang::BO_XorAssign:
        V = AbstractValue::ofInt(T.bitXor(L.term, R.term));
        break;
      default:
        V = AbstractValue::ofInt(T.freshSymbol("value", SymbolKind::Fresh));
      }
    } else if (L.kind == AbstractValue::Kind::Pointer && R.kind == AbstractValue::Kind::Int) {
      V = L;
      V.pointer.offset = Op == clang::BO_SubAssign ? T.sub(L.pointer.offset, R.term)
                                                   : T.add(L.pointer.offset, R.term);
    } else {
      char C = Op == clang::BO_AddAssign   ? '+'
               : Op == clang::BO_SubAssign ? '-'
               : Op == clang::BO_MulAssign ? '*'
                                           : '/';
      V = combineData(L, R, C, BO);
    }
    assign(BO->getLHS(), V, BO);
    return V;
  }
  if (Op == clang::BO_Comma) {
    eval(BO->getLHS());
    return eval(BO->getRHS());
  }
  AbstractValue L = eval(BO->getLHS());
  AbstractValue R = eval(BO->getRHS());
  if (L.kind == AbstractValue::Kind::Pointer && R.kind == AbstractValue::Kind::Int &&
      (Op == clang::BO_Add || Op == clang::BO_Sub)) {
    AbstractValue V = L;
    const Term *Step = T.mul(R.term, T.constant(L.pointer.lanes));
    V.pointer.offset =
        Op == clang::BO_Add ? T.add(L.pointer.offset, Step) : T.sub(L.pointer.offset, Step);
    return V;
  }
  if (R.kind == AbstractValue::Kind::Pointer && L.kind == AbstractValue::Kind::Int &&
      Op == clang::BO_Add) {
    AbstractValue V = R;
    V.pointer.offset = T.add(R.pointer.offset, L.term);
    return V;
  }
  if (L.kind == AbstractValue::Kind::Int && R.kind == AbstractValue::Kind::Int) {
    const Term *A = L.term, *B = R.term;
    switch (Op) {
    case clang::BO_Add:
      return AbstractValue::ofInt(T.add(A, B));
    case clang::BO_Sub:
      return AbstractValue::ofInt(T.sub(A, B));
    case clang::BO_Mul:
      return AbstractValue::ofInt(T.mul(A, B));
    case clang::BO_Div:
      return AbstractValue::ofInt(T.div(A, B));
    case clang::BO_Rem:
      return AbstractValue::ofInt(T.rem(A, B));
    case clang::BO_Shl:
      return AbstractValue::ofInt(T.shl(A, B));
    case clang::BO_Shr:
      return AbstractValue::ofInt(T.shr(A, B));
    case clang::BO_And:
      return AbstractValue::ofInt(T.bitAnd(A, B));
    case clang::BO_Or:
      return AbstractValue::ofInt(T.bitOr(A, B));
    case clang::BO_Xor:
      return AbstractValue::ofInt(T.bitXor(A, B));
    case clang::BO_LT:
      return AbstractValue::ofInt(T.lt(A, B));
    case clang::BO_LE:
      return AbstractValue::ofInt(T.le(A, B));
    case clang::BO_GT:
      return AbstractValue::ofInt(T.gt(A, B));
    case clang::BO_GE:
      return AbstractValue::ofInt(T.ge(A, B));
    case clang::BO_EQ:
      return AbstractValue::ofInt(T.eq(A, B));
    case clang::BO_NE:
      return AbstractValue::ofInt(T.ne(A, B));
    case clang::BO_LAnd:
      return AbstractValue::ofInt(T.logicalAnd(A, B));
    case clang::BO_LOr:
      return AbstractValue::ofInt(T.logicalOr(A, B));
    default:
      break;
    }
    return AbstractValue::ofInt(T.freshSymbol("value", SymbolKind::Fresh));
  }
  if (BO->isComparisonOp() || BO->isLogicalOp())
    return AbstractValue::ofInt(T.freshSymbol("cmp", SymbolKind::Fresh));
  char C = Op == clang::BO_Add ? '+' : Op == clang::BO_Sub ? '-' : Op == clang::BO_Mul ? '*' : '/';
  return combineData(L, R, C, BO);
}

AbstractValue ProvenanceInterpreter::evalUnary(const clang::UnaryOperator *UO) {
  if (UO->isIncrementDecrementOp()) {
    AbstractValue V = eval(UO->getSubExpr());
    if (V.kind == AbstractValue::Kind::Int) {
      AbstractValue New = AbstractValue::ofInt(UO->isIncrementOp() ? T.add(V.term, T.constant(1))
                                                                   : T.sub(V.term, T.constant(1)));
      assign(UO->getSubExpr(), New, UO);
      return UO->isPrefix() ? New : V;
    }
    if (V.kind == AbstractValue::Kind::Pointer) {
      AbstractValue New = V;
      New.pointer.offset = T.add(V.pointer.offset, T.constant(UO->isIncrementOp() ? 1 : -1));
      assign(UO->getSubExpr(), New, UO);
      return UO->isPrefix() ? New : V;
    }
    return V;
  }
  if (UO->getOpcode() == clang::UO_Deref)
    return evalSubscriptLoad(UO);
  AbstractValue V = eval(UO->getSubExpr());
  if (V.kind != AbstractValue::Kind::Int)
    return UO->getOpcode() == clang::UO_LNot ? AbstractValue::ofInt(T.freshSymbol("cmp"))
                                             : V; // -x keeps x's provenance
  switch (UO->getOpcode()) {
  case clang::UO_Minus:
    return AbstractValue::ofInt(T.neg(V.term));
  case clang::UO_Plus:
    return V;
  case clang::UO_Not:
    return AbstractValue::ofInt(T.bitNot(V.term));
  case clang::UO_LNot:
    return AbstractValue::ofInt(T.logicalNot(V.term));
  default:
    return AbstractValue::ofInt(T.freshSymbol("value", SymbolKind::Fresh));
  }
}

AbstractValue ProvenanceInterpreter::evalCall(const clang::CallExpr *Call) {
  llvm::StringRef Name = calleeName(Call);
  if (Name == "__syncthreads" || Name == "__barrier" || Name == "__builtin_amdgcn_s_barrier" ||
      Name.starts_with("__syncthreads_")) {
    ++Seq;
    ++Epoch;
    Barriers.push_back({Epoch, Call, Path, loopContexts()});
    return AbstractValue::none();
  }
  std::vector<AbstractValue> Args;
  for (const clang::Expr *A : Call->arguments())
    Args.push_back(eval(A));
  if (const MatrixLaneModel *M = findMatrixLaneModel(Name); M && Args.size() >= 3) {
    if (M->family == MatrixCoreFamily::AmdMfmaSingleBlock)
      return matrixCore(*M, Args[0], Args[1], Args[2], Call); // acc = mfma(a, b, acc)
    // The project helper accumulates in place: helper(acc, a, b).
    AbstractValue Result = matrixCore(*M, Args[1], Args[2], Args[0], Call);
    assign(Call->getArg(0), Result, Call);
    return AbstractValue::none();
  }
  if (Name == "min" || Name == "max" || Name == "__builtin_min" || Name == "__builtin_max") {
    if (Args.size() == 2 && Args[0].kind == AbstractValue::Kind::Int &&
        Args[1].kind == AbstractValue::Kind::Int) {
      const Term *A = Args[0].term, *B = Args[1].term;
      return AbstractValue::ofInt(Name.contains("min") ? T.select(T.lt(A, B), A, B)
                                                       : T.select(T.gt(A, B), A, B));
    }
  }
  if (!Call->getType()->isVoidType() && !isDataType(Call->getType()))
    return AbstractValue::ofInt(T.freshSymbol("call", SymbolKind::Fresh));
  // fma(a, b, c) = a * b + c; an accumulator as c makes it an accumulation.
  if ((Name == "fmaf" || Name == "fma" || Name == "__fmaf_rn" || Name == "__builtin_fmaf") &&
      Args.size() == 3)
    return combineData(combineData(Args[0], Args[1], '*', Call), Args[2], '+', Call);
  if ((Name == "fmaxf" || Name == "fminf" || Name == "fmax" || Name == "fmin" || Name == "max" ||
       Name == "min") &&
      Args.size() == 2)
    return combineData(Args[0], Args[1], 'm', Call);
  // Unary math and conversions keep the provenance of their one data input.
  const AbstractValue *Only = nullptr;
  unsigned DataArgs = 0;
  for (const AbstractValue &A : Args)
    if (A.kind == AbstractValue::Kind::Data && A.data.kind != DataValue::Kind::Neutral) {
      Only = &A;
      ++DataArgs;
    }
  if (DataArgs == 0)
    return AbstractValue::ofData(DataValue::neutral());
  if (DataArgs == 1)
    return *Only;
  return AbstractValue::ofData(
      DataValue::unknown("call to '" + Name.str() + "' combines several tagged values"));
}

int ProvenanceInterpreter::vectorFieldIndex(const clang::MemberExpr *ME,
                                            const clang::Expr *&Root) const {
  // `v.x` on a HIP vector type is `.x` of an anonymous struct in an
  // anonymous union of the base class: strip those to reach `v`.
  int Index = componentIndex(ME->getMemberDecl()->getName());
  if (Index < 0)
    return -1;
  const clang::Expr *Base = ME->getBase()->IgnoreParenImpCasts();
  while (const auto *Inner = llvm::dyn_cast<clang::MemberExpr>(Base)) {
    const auto *FD = llvm::dyn_cast<clang::FieldDecl>(Inner->getMemberDecl());
    if (!FD || !FD->isAnonymousStructOrUnion())
      return -1;
    Base = Inner->getBase()->IgnoreParenImpCasts();
  }
  Root = Base;
  return Index;
}

void ProvenanceInterpreter::storeScalar(const Address &A, const AbstractValue &V,
                                        const clang::Expr *Site) {
  if (isSharedArray(A.base)) {
    storeShared(A.base, A.offset,
                V.kind == AbstractValue::Kind::Data ? V.data : DataValue::unknown("non-data value"),
                Site);
    return;
  }
  auto TI = Tensors.find(A.base);
  if (TI != Tensors.end()) {
    if (V.kind == AbstractValue::Kind::Data)
      storeOutput(TI->second, A.offset, V.data, Site);
    return;
  }
  auto Local = Env.find(A.base);
  if (Local != Env.end() && Local->second.kind == AbstractValue::Kind::Array) {
    // Copy on write: saved environments (branches, loop passes) share it.
    Local->second.array = std::make_shared<PrivateArray>(*Local->second.array);
    PrivateArray &Arr = *Local->second.array;
    if (A.offset->isConstant()) {
      Arr.constantSlots[A.offset->value()] = V;
    } else if (A.offset->isSymbol() && !Loops.empty() && A.offset == Loops.back().span.counter) {
      Arr.slotCounter = A.offset;
      Arr.slotValue = V;
    } else {
      Arr.slotCounter = nullptr;
      Arr.constantSlots.clear();
      Arr.slotValue = AbstractValue::ofData(
          DataValue::unknown("private array written at an index the analysis does not model"));
    }
  }
}

void ProvenanceInterpreter::assign(const clang::Expr *LHS, AbstractValue V,
                                   const clang::Expr *Site) {
  LHS = LHS->IgnoreParenImpCasts();
  if (const auto *DRE = llvm::dyn_cast<clang::DeclRefExpr>(LHS)) {
    Env[DRE->getDecl()] = std::move(V);
    return;
  }
  if (const auto *ME = llvm::dyn_cast<clang::MemberExpr>(LHS)) {
    const clang::Expr *Root = nullptr;
    int Field = vectorFieldIndex(ME, Root);
    const auto *DRE = Root ? llvm::dyn_cast<clang::DeclRefExpr>(Root) : nullptr;
    if (Field >= 0 && DRE) {
      auto It = Env.find(DRE->getDecl());
      if (It == Env.end() || It->second.kind != AbstractValue::Kind::Array) {
        AbstractValue Arr;
        Arr.kind = AbstractValue::Kind::Array;
        Arr.array = std::make_shared<PrivateArray>();
        It = Env.insert_or_assign(DRE->getDecl(), Arr).first;
      }
      storeScalar({DRE->getDecl(), T.constant(Field), 1}, V, Site);
    }
    return;
  }
  Address A = addressOf(LHS);
  if (!A.valid())
    return;
  if (A.lanes > 1) {
    for (unsigned L = 0; L < A.lanes; ++L) {
      AbstractValue Elem =
          V.kind == AbstractValue::Kind::Array
              ? readPrivateElement(*V.array, T.constant(L))
              : AbstractValue::ofData(DataValue::unknown("vector store of a non-vector"));
      storeScalar({A.base, T.add(A.offset, T.constant(L)), 1}, Elem, Site);
    }
    return;
  }
  storeScalar(A, V, Site);
}

} // namespace ave::inv
