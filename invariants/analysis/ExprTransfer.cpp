// Expressions: integer index arithmetic becomes terms, floating-point data
// becomes provenance, and every combination of two tagged values is checked
// (ObligationBuilder.cpp). Calls are in CallTransfer.cpp, memory in
// MemoryTransfer.cpp.

#include "ControlFlow.h"
#include "ProvenanceInterpreter.h"
#include "ave/invariants/RangeSimplifier.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>

namespace ave::inv {

namespace {

bool isDataType(clang::QualType QT) {
  QT = QT.getCanonicalType();
  if (QT->isRealFloatingType() || QT->isVectorType())
    return true;
  return QT->getAs<clang::RecordType>() != nullptr; // float4, __half, __hip_bfloat16 and friends
}

// The term operator of a C binary operator, plain or compound (`+=` is
// `+`); nullopt for the ones terms do not have.
std::optional<TermKind> termKindOf(clang::BinaryOperatorKind Op) {
  if (clang::BinaryOperator::isCompoundAssignmentOp(Op))
    Op = clang::BinaryOperator::getOpForCompoundAssignment(Op);
  switch (Op) {
  case clang::BO_Add:
    return TermKind::Add;
  case clang::BO_Sub:
    return TermKind::Sub;
  case clang::BO_Mul:
    return TermKind::Mul;
  case clang::BO_Div:
    return TermKind::Div;
  case clang::BO_Rem:
    return TermKind::Rem;
  case clang::BO_Shl:
    return TermKind::Shl;
  case clang::BO_Shr:
    return TermKind::Shr;
  case clang::BO_And:
    return TermKind::BitAnd;
  case clang::BO_Or:
    return TermKind::BitOr;
  case clang::BO_Xor:
    return TermKind::BitXor;
  case clang::BO_LT:
    return TermKind::Lt;
  case clang::BO_LE:
    return TermKind::Le;
  case clang::BO_GT:
    return TermKind::Gt;
  case clang::BO_GE:
    return TermKind::Ge;
  case clang::BO_EQ:
    return TermKind::Eq;
  case clang::BO_NE:
    return TermKind::Ne;
  case clang::BO_LAnd:
    return TermKind::LogicalAnd;
  case clang::BO_LOr:
    return TermKind::LogicalOr;
  default:
    return std::nullopt;
  }
}

// The data operator of `+ - * /` (and their compound forms) as combineData
// spells it.
char dataOperator(clang::BinaryOperatorKind Op) {
  if (clang::BinaryOperator::isCompoundAssignmentOp(Op))
    Op = clang::BinaryOperator::getOpForCompoundAssignment(Op);
  return Op == clang::BO_Add ? '+' : Op == clang::BO_Sub ? '-' : Op == clang::BO_Mul ? '*' : '/';
}

} // namespace

const Term *ProvenanceInterpreter::evalInt(const clang::Expr *E, FlowState &State) {
  AbstractValue V = eval(E, State);
  return V.kind == AbstractValue::Kind::Int ? V.term : nullptr;
}

const Term *ProvenanceInterpreter::builtinCoordinate(const clang::Expr *E) const {
  // threadIdx.x is `MemberExpr .x` on the variable `threadIdx` in HIP's
  // headers, converted through `operator unsigned int`.
  const auto *ME = llvm::dyn_cast<clang::MemberExpr>(E->IgnoreParenImpCasts());
  if (!ME)
    return nullptr;
  const auto *DRE = llvm::dyn_cast<clang::DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts());
  if (!DRE)
    return nullptr;
  return Ctx.builtinSymbol(DRE->getDecl()->getName(),
                           componentIndex(ME->getMemberDecl()->getName()));
}

bool ProvenanceInterpreter::comparedAfterConversion(const clang::Expr *Cast) const {
  // `k - 1 < (unsigned)K`: the converted value is an operand of a
  // comparison, where a wrap decides the outcome.
  const clang::Stmt *Parent = Flow && Flow->parents ? Flow->parents->getParent(Cast) : nullptr;
  while (Parent && llvm::isa<clang::ParenExpr>(Parent))
    Parent = Flow->parents->getParent(Parent);
  const auto *BO = llvm::dyn_cast_or_null<clang::BinaryOperator>(Parent);
  return BO && BO->isComparisonOp();
}

namespace {

// Built only from values that are never negative: thread and block ids and
// sizes, non-negative constants, and + * / % and shifts of them.
bool nonNegativeByConstruction(const Term *V) {
  if (V->isConstant())
    return V->value() >= 0;
  if (V->isSymbol()) {
    SymbolKind K = V->symbolKind();
    return !V->isFresh() && (K == SymbolKind::ThreadIdx || K == SymbolKind::BlockIdx ||
                             K == SymbolKind::BlockDim || K == SymbolKind::GridDim);
  }
  switch (V->kind()) {
  case TermKind::Add:
  case TermKind::Mul:
  case TermKind::Div:
  case TermKind::Rem:
  case TermKind::Shr:
    return std::all_of(V->operands().begin(), V->operands().end(), nonNegativeByConstruction);
  default:
    return false;
  }
}

} // namespace

const Term *ProvenanceInterpreter::nonNegativeOrApproximated(const Term *V, const FlowState &State,
                                                             const char *Question) {
  if (nonNegativeByConstruction(V))
    return V;
  const Term *NonNegative = T.ge(V, T.constant(0));
  if (NonNegative->isConstant() && NonNegative->value() != 0)
    return V;
  // Ranges next (thread ids, sizes the assumptions bound), then the solver.
  if (!NonNegative->isConstant()) {
    RangeSimplifier Ranges(T);
    Ranges.addFacts(T.allOf(Ctx.kernelFacts));
    Ranges.addFacts(T.allOf(State.path));
    if (std::optional<Interval> I = Ranges.interval(V); I && I->lo >= 0)
      return V;
    std::vector<const Term *> Negative = Ctx.kernelFacts;
    Negative.insert(Negative.end(), State.path.begin(), State.path.end());
    Negative.push_back(T.logicalNot(NonNegative));
    if (Ctx.ask(Question, T.allOf(Negative)).status == SolverResult::Proven)
      return V;
  }
  const Term *Wrapped = T.approximation(TermContext::ConversionApproximation, SymbolKind::Fresh);
  return NonNegative->isConstant() ? Wrapped : T.select(NonNegative, V, Wrapped);
}

const Term *ProvenanceInterpreter::unsignedResult(const clang::Expr *E, const Term *V,
                                                  const FlowState &State) {
  // C computes an unsigned int modulo 2^32: a result below zero
  // (`threadIdx.x - 1` at thread 0, `~x`, `-x`) is 2^32 more, no C int and
  // so no term: it is a value the analysis does not follow there. Operands
  // narrower than int are promoted to int and do not wrap. A result at or
  // above 2^32 is taken as it is (known gap; sizes that large are asked
  // only of signed int indices).
  clang::QualType QT = E->getType();
  if (const auto *CAO = llvm::dyn_cast<clang::CompoundAssignOperator>(E))
    QT = CAO->getComputationResultType();
  if (!V || !QT->isUnsignedIntegerOrEnumerationType() || QT->isBooleanType() ||
      Ctx.ast.getIntWidth(QT) < 32)
    return V;
  const Term *Kept = nonNegativeOrApproximated(V, State, "an unsigned result is never below zero");
  if (Kept != V && Kept->kind() == TermKind::Select)
    Ctx.unsignedWraps.insert(Kept);
  return Kept;
}

const Term *ProvenanceInterpreter::convertedValue(const Term *V, clang::QualType From,
                                                  clang::QualType To, const FlowState &State,
                                                  bool Compared) {
  // Terms are C ints. A target of 32 bits or more is taken to hold V: an
  // unsigned source converted to a signed type of its width (`int m =
  // blockIdx.x * 64 + threadIdx.x`) is exact as far as the unsigned
  // arithmetic before it is (overflow is not asked yet). A signed value
  // converted to an unsigned type of 32 bits or more to be compared
  // (`threadIdx.x < n`, `k - 1 < (unsigned)K`) is V where V >= 0 and a value
  // the analysis does not follow where it is negative (the wrapped value is
  // no C int): a finding that needs n's value keeps it where n >= 0, and one
  // that needs the wrap is unproven, never decided on the int. In
  // arithmetic (`n + blockIdx.x`) the conversion keeps the int, and the
  // unsigned operator's result is what is asked (unsignedResult).
  clang::ASTContext &AST = Ctx.ast;
  if (To->isBooleanType() || !From->isIntegralOrEnumerationType())
    return V;
  unsigned FromBits = AST.getIntWidth(From), ToBits = AST.getIntWidth(To);
  bool FromSigned = From->isSignedIntegerOrEnumerationType();
  bool ToSigned = To->isSignedIntegerOrEnumerationType();
  if (FromSigned && !ToSigned && ToBits >= 32 && Compared)
    return nonNegativeOrApproximated(V, State, "a converted value is never negative");
  // `int j = threadIdx.x - 1u`: the wrapped difference converted back to
  // int is the difference again.
  if (!FromSigned && ToSigned && FromBits == ToBits && Ctx.unsignedWraps.count(V))
    return V->operands()[1];
  if (ToBits >= 32 || (ToBits > FromBits && ToSigned) ||
      (ToBits >= FromBits && ToSigned == FromSigned))
    return V;
  // A narrower target (under 32 bits, so its modulus is an int): V where it
  // lies in the target's range, and elsewhere V modulo 2^bits, taken into
  // the target's range, as C++20 defines it and as every GPU compiler does
  // (`signed char tid = threadIdx.x` is -128 at thread 128).
  int64_t Modulus = int64_t(1) << ToBits;
  int64_t Max = ToSigned ? Modulus / 2 - 1 : Modulus - 1;
  int64_t Min = ToSigned ? -Modulus / 2 : 0;
  const Term *Inside = T.logicalAnd(T.ge(V, T.constant(Min)), T.le(V, T.constant(Max)));
  if (Inside->isConstant() && Inside->value() != 0)
    return V;
  const Term *Wrapped = wrappedValue(V, Modulus, ToSigned);
  return Inside->isConstant() ? Wrapped : T.select(Inside, V, Wrapped);
}

const Term *ProvenanceInterpreter::wrappedValue(const Term *V, int64_t Modulus, bool ToSigned) {
  // C's remainder takes the dividend's sign: ((V % m) + m) % m is the
  // residue in [0, m); a signed target takes the upper half below zero.
  const Term *M = T.constant(Modulus);
  const Term *Residue = T.rem(T.add(T.rem(V, M), M), M);
  if (!ToSigned)
    return Residue;
  return T.select(T.ge(Residue, T.constant(Modulus / 2)), T.sub(Residue, M), Residue);
}

AbstractValue ProvenanceInterpreter::evalCast(const clang::CastExpr *CE, FlowState &State) {
  AbstractValue Sub = eval(CE->getSubExpr(), State);
  clang::QualType To = CE->getType();
  if (To->isIntegralOrEnumerationType()) {
    // A conversion to a narrower type (`unsigned short kk = k`) is followed
    // only where it keeps the value: what depends on the rest is unproven,
    // never evaluated as the int it was.
    if (Sub.kind == AbstractValue::Kind::Int)
      return AbstractValue::ofInt(convertedValue(Sub.term, CE->getSubExpr()->getType(), To, State,
                                                 comparedAfterConversion(CE)));
    return AbstractValue::ofInt(T.approximation("cast", SymbolKind::Fresh));
  }
  if (isDataType(To) && Sub.kind == AbstractValue::Kind::Int)
    return AbstractValue::ofData(DataValue::neutral()); // a number computed from indices
  if (To->isPointerType() && Sub.kind == AbstractValue::Kind::Pointer && Sub.pointer.base &&
      Sub.pointer.lanes == 1)
    Sub.pointer.lanes = vectorLanes(Sub.pointer.base, To->getPointeeType());
  return Sub;
}

AbstractValue ProvenanceInterpreter::evalMember(const clang::MemberExpr *ME, FlowState &State) {
  // `t.a` of a __shared__ struct: the member array, an LDS array of its own.
  if (const clang::FieldDecl *Member = Ctx.sharedMemberArray(ME))
    return AbstractValue::ofPointer(Member, T.constant(0));
  if (const auto *Base = llvm::dyn_cast<clang::DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts());
      Base && Ctx.isSharedArray(Base->getDecl()) && Base->getDecl()->getType()->isRecordType()) {
    // Any other member of a __shared__ struct (a scalar, a union's member,
    // a struct two variables have): its memory is not followed.
    std::string Why = "member '" + ME->getMemberDecl()->getNameAsString() + "' of __shared__ '" +
                      Base->getDecl()->getNameAsString() +
                      "': only the member arrays of a __shared__ struct (not a union) that no "
                      "other __shared__ variable of the kernel shares the type of are modelled";
    if (ME->getType()->isIntegralOrEnumerationType())
      return AbstractValue::ofInt(T.approximation("member", SymbolKind::Fresh));
    return AbstractValue::ofData(DataValue::unknown(Why));
  }
  // `v.x` of a float4-style vector: its element.
  const clang::Expr *Root = nullptr;
  int Field = vectorFieldIndex(ME, Root);
  if (Field >= 0) {
    AbstractValue V = eval(Root, State);
    if (V.kind == AbstractValue::Kind::Array)
      return readElement(T, *V.array, T.constant(Field), Ctx.privateDecider(State));
    return V;
  }
  return eval(ME->getBase(), State);
}

namespace {
// clang's own default -fbracket-depth. Kernels nest far less; a generated
// expression nested deeper gets an unknown value (its obligations are
// unproven with this reason) instead of a stack overflow.
constexpr unsigned MaxExprDepth = 256;
} // namespace

AbstractValue ProvenanceInterpreter::eval(const clang::Expr *E, FlowState &State) {
  if (!E)
    return AbstractValue::none();
  if (ExprDepth >= MaxExprDepth) {
    if (E->getType()->isIntegralOrEnumerationType())
      return AbstractValue::ofInt(T.approximation("deep", SymbolKind::Fresh));
    clang::PresumedLoc At = Ctx.ast.getSourceManager().getPresumedLoc(E->getBeginLoc());
    std::string Where = At.isValid() ? " at line " + std::to_string(At.getLine()) + ":" +
                                           std::to_string(At.getColumn())
                                     : std::string();
    return AbstractValue::ofData(DataValue::unknown(
        "the expression" + Where + " is nested more than " + std::to_string(MaxExprDepth) +
        " levels deep; the analysis does not evaluate it"));
  }
  ++ExprDepth;
  AbstractValue V = evalExpr(E, State);
  --ExprDepth;
  noteConstant(E, V);
  return V;
}

namespace {

// A folded float constant as the double DataValue::constants holds.
double asDouble(llvm::APFloat Value) {
  bool LosesInfo = false;
  Value.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven, &LosesInfo);
  return Value.convertToDouble();
}

} // namespace

void ProvenanceInterpreter::noteConstant(const clang::Expr *E, AbstractValue &V) const {
  // A number the compiler can fold (`0.0f`, `-INFINITY`, `-FLT_MAX`): an
  // accumulator's initial value is checked against its reduction with it.
  if (V.kind != AbstractValue::Kind::Data || V.data.kind != DataValue::Kind::Neutral ||
      V.data.accumulates() || !E->getType()->isRealFloatingType() || E->isValueDependent())
    return;
  llvm::APFloat Value(0.0);
  if (!E->EvaluateAsFloat(Value, Ctx.ast))
    return;
  V.data.constants = {asDouble(Value)};
}

AbstractValue ProvenanceInterpreter::evalExpr(const clang::Expr *E, FlowState &State) {
  E = E->IgnoreParens();
  if (const Term *B = builtinCoordinate(E))
    return AbstractValue::ofInt(B);
  if (const auto *IL = llvm::dyn_cast<clang::IntegerLiteral>(E))
    return AbstractValue::ofInt(T.constant(IL->getValue().getSExtValue()));
  if (const auto *BL = llvm::dyn_cast<clang::CXXBoolLiteralExpr>(E))
    return AbstractValue::ofInt(T.constant(BL->getValue() ? 1 : 0));
  if (llvm::isa<clang::FloatingLiteral>(E))
    return AbstractValue::ofData(DataValue::neutral());
  // `T x = {}` and `T x = {v}` of a scalar: zero, or v (a scalar `{}` was
  // an expression the analysis did not model).
  if (const auto *IL = llvm::dyn_cast<clang::InitListExpr>(E);
      IL && IL->getType()->isScalarType() && IL->getNumInits() <= 1) {
    if (IL->getNumInits() == 1)
      return eval(IL->getInit(0), State);
    if (IL->getType()->isIntegralOrEnumerationType())
      return AbstractValue::ofInt(T.constant(0));
    return AbstractValue::ofData(DataValue::neutral());
  }
  if (const auto *CE = llvm::dyn_cast<clang::CastExpr>(E))
    return evalCast(CE, State);
  if (const auto *CCE = llvm::dyn_cast<clang::CXXConstructExpr>(E)) {
    // Copies of vector values (`float4 v = p[i]`).
    if (CCE->getNumArgs() == 1)
      return eval(CCE->getArg(0), State);
    return AbstractValue::ofData(DataValue::neutral());
  }
  if (const auto *OCE = llvm::dyn_cast<clang::CXXOperatorCallExpr>(E)) {
    // `v = w` on vector classes (float4) is a call to operator=.
    if (OCE->getOperator() == clang::OO_Equal && OCE->getNumArgs() == 2) {
      AbstractValue V = eval(OCE->getArg(1), State);
      assign(OCE->getArg(0), V, OCE, State);
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
    return eval(EWC->getSubExpr(), State);
  if (const auto *MTE = llvm::dyn_cast<clang::MaterializeTemporaryExpr>(E))
    return eval(MTE->getSubExpr(), State);
  if (const auto *DRE = llvm::dyn_cast<clang::DeclRefExpr>(E))
    return evalDeclRef(DRE, State);
  if (llvm::isa<clang::ArraySubscriptExpr>(E))
    return evalSubscriptLoad(E, State);
  if (const auto *BO = llvm::dyn_cast<clang::BinaryOperator>(E))
    return evalBinary(BO, State);
  if (const auto *UO = llvm::dyn_cast<clang::UnaryOperator>(E))
    return evalUnary(UO, State);
  if (const auto *Call = llvm::dyn_cast<clang::CallExpr>(E))
    return evalCall(Call, State);
  if (const auto *CO = llvm::dyn_cast<clang::ConditionalOperator>(E)) {
    // Both arms, each under its side of the condition: the join of an if.
    // An arm's accesses happen only on its side (`k < K ? A[i] : 0.0f` reads
    // A only where k < K: its bound was reported violated at k = K).
    const Term *C = evalInt(CO->getCond(), State);
    if (!C)
      C = T.approximation("cond", SymbolKind::Fresh);
    const Term *Taken = T.ne(C, T.constant(0));
    std::vector<FlowState> Arms = splitOn(Taken, State);
    AbstractValue A = eval(CO->getTrueExpr(), Arms[0]);
    AbstractValue B = eval(CO->getFalseExpr(), Arms[1]);
    State.env = joinStates(T, Arms).env;
    return joinValues(T, Taken, A, std::move(B));
  }
  if (const auto *ME = llvm::dyn_cast<clang::MemberExpr>(E))
    return evalMember(ME, State);
  if (const auto *EVE = llvm::dyn_cast<clang::ExtVectorElementExpr>(E))
    return eval(EVE->getBase(), State);
  if (E->getType()->isIntegralOrEnumerationType()) {
    clang::Expr::EvalResult R;
    if (!E->isValueDependent() && E->EvaluateAsInt(R, Ctx.ast))
      return AbstractValue::ofInt(T.constant(R.Val.getInt().getSExtValue()));
    return AbstractValue::ofInt(T.approximation("value", SymbolKind::Fresh));
  }
  return AbstractValue::ofData(DataValue::unknown("expression the analysis does not model"));
}

AbstractValue ProvenanceInterpreter::evalDeclRef(const clang::DeclRefExpr *DRE, FlowState &State) {
  const clang::ValueDecl *D = DRE->getDecl();
  if (const auto *EC = llvm::dyn_cast<clang::EnumConstantDecl>(D))
    return AbstractValue::ofInt(T.constant(EC->getInitVal().getSExtValue()));
  // A read the walk does not follow: an integer is an approximation, data
  // unknown with Why.
  auto NotFollowed = [&](const clang::VarDecl *VD, const std::string &Why) {
    if (VD->getType()->isIntegralOrEnumerationType())
      return AbstractValue::ofInt(T.approximation(VD->getName().str(), SymbolKind::Fresh));
    return AbstractValue::ofData(DataValue::unknown("'" + VD->getName().str() + "' " + Why));
  };
  // It may have changed through another name since it was last assigned.
  if (const auto *VD = llvm::dyn_cast<clang::VarDecl>(D); VD && Ctx.escaped.count(VD))
    return NotFollowed(VD, "can change through a pointer, a reference or a lambda, which the "
                           "analysis does not follow");
  if (Ctx.isSharedScalar(D))
    return loadScalar({D, T.constant(0), 1}, DRE, State);
  if (const auto *VD = llvm::dyn_cast<clang::VarDecl>(D)) {
    if (auto Ref = References.find(VD); Ref != References.end())
      return loadScalar(Ref->second, DRE, State);
    if (UnfollowedReferences.count(VD))
      return NotFollowed(VD, "is a reference to memory the analysis does not follow");
  }
  auto It = State.env.find(D);
  if (It != State.env.end())
    return It->second;
  clang::QualType QT = D->getType();
  if (Ctx.isSharedArray(D) || QT->isArrayType() || QT->isPointerType())
    return AbstractValue::ofPointer(D, T.constant(0));
  if (const auto *VD = llvm::dyn_cast<clang::VarDecl>(D)) {
    if (VD->hasGlobalStorage()) // never a parameter
      return staticStorageValue(VD);
    if (llvm::isa<clang::ParmVarDecl>(VD) && QT->isIntegralOrEnumerationType()) {
      AbstractValue V = AbstractValue::ofInt(T.symbol(VD->getName().str(), SymbolKind::Param));
      State.env[D] = V;
      return V;
    }
    if (QT->isIntegralOrEnumerationType()) {
      if (const clang::Expr *Init = VD->getAnyInitializer()) {
        clang::Expr::EvalResult R;
        if (!Init->isValueDependent() && Init->EvaluateAsInt(R, Ctx.ast))
          return AbstractValue::ofInt(T.constant(R.Val.getInt().getSExtValue()));
      }
      return AbstractValue::ofInt(T.symbol(VD->getName().str(), SymbolKind::Other));
    }
  }
  DataValue Scalar = DataValue::neutral(); // untagged scalar (alpha, beta)
  if (llvm::isa<clang::ParmVarDecl>(D)) {
    Scalar.parameters.insert(D->getName().str());
    Scalar.parameterPower[D->getName().str()] = 1;
  }
  return AbstractValue::ofData(std::move(Scalar));
}

AbstractValue ProvenanceInterpreter::staticStorageValue(const clang::VarDecl *VD) {
  // `__device__`, `__constant__`, a `static` local: the host
  // (hipMemcpyToSymbol) or any thread may have set it, and the specification
  // says nothing of its value. Only a const one with an initializer the
  // compiler folds is known. (A kernel's own assignments are in the
  // environment and never reach here.)
  clang::QualType QT = VD->getType();
  const clang::Expr *Init = VD->getAnyInitializer();
  bool Known = QT.isConstQualified() && Init && !Init->isValueDependent();
  std::string Name = VD->getName().str();
  if (QT->isIntegralOrEnumerationType()) {
    clang::Expr::EvalResult R;
    if (Known && Init->EvaluateAsInt(R, Ctx.ast))
      return AbstractValue::ofInt(T.constant(R.Val.getInt().getSExtValue()));
    return AbstractValue::ofInt(T.approximation(Name, SymbolKind::Other));
  }
  llvm::APFloat Value(0.0);
  if (QT->isRealFloatingType() && Known && Init->EvaluateAsFloat(Value, Ctx.ast)) {
    DataValue Constant = DataValue::neutral();
    Constant.constants = {asDouble(Value)};
    return AbstractValue::ofData(std::move(Constant));
  }
  return AbstractValue::ofData(DataValue::unknown(
      "reads '" + Name +
      "', a variable with static storage: the host or another thread may have set it, and "
      "the specification does not describe its value"));
}

AbstractValue ProvenanceInterpreter::evalCompoundAssign(const clang::BinaryOperator *BO,
                                                        FlowState &State) {
  AbstractValue L = eval(BO->getLHS(), State);
  AbstractValue R = eval(BO->getRHS(), State);
  AbstractValue V;
  if (L.kind == AbstractValue::Kind::Int && R.kind == AbstractValue::Kind::Int) {
    std::optional<TermKind> K = termKindOf(BO->getOpcode());
    const Term *Operands[] = {L.term, R.term};
    V = AbstractValue::ofInt(K ? T.make(*K, Operands)
                               : T.approximation("value", SymbolKind::Fresh));
    noteSignedArithmetic(BO, V.term);
    V.term = unsignedResult(BO, V.term, State);
  } else if (L.kind == AbstractValue::Kind::Pointer && R.kind == AbstractValue::Kind::Int) {
    V = L;
    V.pointer.offset = BO->getOpcode() == clang::BO_SubAssign ? T.sub(L.pointer.offset, R.term)
                                                              : T.add(L.pointer.offset, R.term);
  } else if (BO->getOpcode() == clang::BO_SubAssign && L.kind == AbstractValue::Kind::Data &&
             L.data.accumulates() && R.kind == AbstractValue::Kind::Data && R.data.isTagged()) {
    // The tags' einsum sums its contributions; `acc -= a * b` does not.
    V = AbstractValue::ofData(DataValue::unknown(
        "a tagged value is subtracted from a loop-carried value (`-=`); the tags' einsum sums "
        "its contributions"));
  } else {
    V = combineData(L, R, dataOperator(BO->getOpcode()), BO, State);
  }
  assign(BO->getLHS(), V, BO, State);
  return V;
}

std::vector<FlowState> ProvenanceInterpreter::splitOn(const Term *Cond, const FlowState &State) {
  std::vector<FlowState> Sides{State, State};
  Sides[0].path.push_back(Cond);
  Sides[1].path.push_back(T.logicalNot(Cond));
  return Sides;
}

AbstractValue ProvenanceInterpreter::evalRightOfLogical(const clang::BinaryOperator *BO,
                                                        const AbstractValue &Left,
                                                        FlowState &State) {
  // `k + 1 < K && A[k + 1] > x` reads A only where k + 1 < K (its bound was
  // violated at k = K - 1): the right side runs where the left does not
  // decide, as the arms of `?:` do.
  if (Left.kind != AbstractValue::Kind::Int || !Left.term)
    return eval(BO->getRHS(), State);
  const Term *LeftTrue = T.ne(Left.term, T.constant(0));
  const Term *Runs = BO->getOpcode() == clang::BO_LAnd ? LeftTrue : T.logicalNot(LeftTrue);
  std::vector<FlowState> Ways = splitOn(Runs, State);
  AbstractValue Right = eval(BO->getRHS(), Ways[0]);
  State.env = joinStates(T, Ways).env;
  return Right;
}

AbstractValue ProvenanceInterpreter::evalBinary(const clang::BinaryOperator *BO, FlowState &State) {
  clang::BinaryOperatorKind Op = BO->getOpcode();
  if (Op == clang::BO_Assign) {
    AbstractValue V = eval(BO->getRHS(), State);
    assign(BO->getLHS(), V, BO, State);
    return V;
  }
  if (BO->isCompoundAssignmentOp())
    return evalCompoundAssign(BO, State);
  if (Op == clang::BO_Comma) {
    eval(BO->getLHS(), State);
    return eval(BO->getRHS(), State);
  }
  AbstractValue L = eval(BO->getLHS(), State);
  AbstractValue R =
      BO->isLogicalOp() ? evalRightOfLogical(BO, L, State) : eval(BO->getRHS(), State);
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
    std::optional<TermKind> K = termKindOf(Op);
    const Term *Operands[] = {L.term, R.term};
    const Term *Result = K ? T.make(*K, Operands) : T.approximation("value", SymbolKind::Fresh);
    noteSignedArithmetic(BO, Result);
    if (!BO->isComparisonOp() && !BO->isLogicalOp())
      Result = unsignedResult(BO, Result, State);
    return AbstractValue::ofInt(Result);
  }
  if (BO->isComparisonOp() || BO->isLogicalOp())
    return AbstractValue::ofInt(T.approximation("cmp", SymbolKind::Fresh));
  return combineData(L, R, dataOperator(Op), BO, State);
}

AbstractValue ProvenanceInterpreter::evalUnary(const clang::UnaryOperator *UO, FlowState &State) {
  if (UO->isIncrementDecrementOp()) {
    AbstractValue V = eval(UO->getSubExpr(), State);
    AbstractValue New = V;
    if (V.kind == AbstractValue::Kind::Int) {
      New = AbstractValue::ofInt(UO->isIncrementOp() ? T.add(V.term, T.constant(1))
                                                     : T.sub(V.term, T.constant(1)));
      noteSignedArithmetic(UO, New.term);
      New.term = unsignedResult(UO, New.term, State);
    } else if (V.kind == AbstractValue::Kind::Pointer)
      New.pointer.offset = T.add(V.pointer.offset, T.constant(UO->isIncrementOp() ? 1 : -1));
    else
      return V;
    assign(UO->getSubExpr(), New, UO, State);
    return UO->isPrefix() ? New : V;
  }
  if (UO->getOpcode() == clang::UO_Deref)
    return evalSubscriptLoad(UO, State);
  if (UO->getOpcode() == clang::UO_AddrOf) {
    // `&Y[i]` of a tagged tensor or a shared array (an atomic's operand, a
    // cp.async's destination): a pointer to the element, not a load of it,
    // so that a call given it writes the element (an unknown value where
    // the call is not modelled). Other addresses keep the element's value.
    Address A = addressOf(UO->getSubExpr(), State);
    if (A.valid() && (Ctx.isSharedArray(A.base) || Ctx.tensors.count(A.base))) {
      AbstractValue P = AbstractValue::ofPointer(A.base, A.offset);
      P.pointer.lanes = A.lanes;
      return P;
    }
  }
  AbstractValue V = eval(UO->getSubExpr(), State);
  if (V.kind == AbstractValue::Kind::Data && V.data.isTagged() &&
      UO->getOpcode() == clang::UO_Minus)
    return AbstractValue::ofData(DataValue::unknown(
        "a tagged value is negated, which the tags' einsum (sums of products) does not describe"));
  if (V.kind == AbstractValue::Kind::Data && V.data.accumulates() && !V.data.maxShift &&
      UO->getOpcode() == clang::UO_Minus) // `s = -s + x`
    return AbstractValue::ofData(DataValue::unknown(
        "a running value is negated in its loop (`s = -s + x`), which the tags' einsum does not "
        "have"));
  if (V.kind != AbstractValue::Kind::Int)
    return UO->getOpcode() == clang::UO_LNot ? AbstractValue::ofInt(T.approximation("cmp"))
                                             : V; // -x of a number is a number
  switch (UO->getOpcode()) {
  case clang::UO_Minus: {
    const Term *Negated = T.neg(V.term);
    noteSignedArithmetic(UO, Negated);
    return AbstractValue::ofInt(unsignedResult(UO, Negated, State));
  }
  case clang::UO_Plus:
    return V;
  case clang::UO_Not:
    return AbstractValue::ofInt(unsignedResult(UO, T.bitNot(V.term), State));
  case clang::UO_LNot:
    return AbstractValue::ofInt(T.logicalNot(V.term));
  default:
    return AbstractValue::ofInt(T.approximation("value", SymbolKind::Fresh));
  }
}

} // namespace ave::inv
