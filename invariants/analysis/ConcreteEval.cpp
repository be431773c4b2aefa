#include "ConcreteEval.h"

#include "AnalysisContext.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace ave::inv {

namespace {

// Variables written after their declaration: assigned, incremented, or
// whose address is taken.
class ModifiedVariables : public clang::RecursiveASTVisitor<ModifiedVariables> {
public:
  explicit ModifiedVariables(std::set<const clang::VarDecl *> &Out) : Out(Out) {}

  bool VisitBinaryOperator(clang::BinaryOperator *B) {
    if (B->isAssignmentOp())
      note(B->getLHS());
    return true;
  }
  bool VisitUnaryOperator(clang::UnaryOperator *U) {
    if (U->isIncrementDecrementOp() || U->getOpcode() == clang::UO_AddrOf)
      note(U->getSubExpr());
    return true;
  }
  bool VisitCXXOperatorCallExpr(clang::CXXOperatorCallExpr *C) {
    if (C->isAssignmentOp() && C->getNumArgs() > 0)
      note(C->getArg(0));
    return true;
  }

private:
  void note(const clang::Expr *E) {
    if (const auto *DRE = llvm::dyn_cast<clang::DeclRefExpr>(E->IgnoreParenImpCasts()))
      if (const auto *V = llvm::dyn_cast<clang::VarDecl>(DRE->getDecl()))
        Out.insert(V);
  }
  std::set<const clang::VarDecl *> &Out;
};

std::optional<int64_t> inType(__int128 V, clang::QualType QT, clang::ASTContext &Ast, bool Wraps) {
  QT = QT.getCanonicalType();
  if (QT->isBooleanType())
    return V != 0;
  if (!QT->isIntegerType())
    return std::nullopt;
  return fitInteger(V, static_cast<unsigned>(Ast.getTypeSize(QT)),
                    QT->isSignedIntegerOrEnumerationType(), Wraps);
}

} // namespace

std::optional<int64_t> fitInteger(__int128 V, unsigned Width, bool Signed, bool Wraps) {
  if (Width == 0 || Width > 64)
    return std::nullopt;
  __int128 Modulus = static_cast<__int128>(1) << Width;
  __int128 Min = Signed ? -(Modulus / 2) : 0;
  __int128 Max = Signed ? Modulus / 2 - 1 : Modulus - 1;
  if (V >= Min && V <= Max)
    return static_cast<int64_t>(V);
  if (!Wraps)
    return std::nullopt;
  __int128 R = V % Modulus;
  if (R < 0)
    R += Modulus;
  if (Signed && R > Max)
    R -= Modulus;
  return static_cast<int64_t>(R);
}

ConcreteEval::ConcreteEval(clang::ASTContext &Ast, const clang::Stmt *Body) : Ast(Ast) {
  if (Body)
    ModifiedVariables(Modified).TraverseStmt(const_cast<clang::Stmt *>(Body));
}

void ConcreteEval::setThread(const int64_t NewTid[3], const int64_t NewBlock[3]) {
  for (int D = 0; D < 3; ++D) {
    Tid[D] = NewTid[D];
    Block[D] = NewBlock[D];
  }
}

std::optional<int64_t> ConcreteEval::eval(const clang::Expr *E) {
  if (!E || Depth > 64)
    return std::nullopt;
  E = E->IgnoreParens();
  if (const auto *Cast = llvm::dyn_cast<clang::CastExpr>(E)) {
    if (Cast->getCastKind() == clang::CK_UserDefinedConversion ||
        Cast->getCastKind() == clang::CK_ConstructorConversion)
      return builtin(Cast->getSubExpr());
    if (Cast->getType()->isPointerType())
      return std::nullopt;
    std::optional<int64_t> V = eval(Cast->getSubExpr());
    if (!V)
      return std::nullopt;
    return inType(*V, Cast->getType(), Ast, /*Wraps=*/true);
  }
  ++Depth;
  std::optional<int64_t> V = evalUncast(E);
  --Depth;
  return V;
}

std::optional<int64_t> ConcreteEval::builtin(const clang::Expr *E) const {
  // `threadIdx.x` reaches an integer through `operator unsigned int` of
  // the member `.x` (HIP's headers).
  E = E->IgnoreParenImpCasts();
  if (const auto *Call = llvm::dyn_cast<clang::CXXMemberCallExpr>(E))
    E = Call->getImplicitObjectArgument()->IgnoreParenImpCasts();
  const auto *ME = llvm::dyn_cast<clang::MemberExpr>(E);
  if (!ME)
    return std::nullopt;
  const auto *DRE = llvm::dyn_cast<clang::DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts());
  int D = componentIndex(ME->getMemberDecl()->getName());
  if (!DRE || D < 0 || D > 2)
    return std::nullopt;
  llvm::StringRef Name = DRE->getDecl()->getName();
  if (Name == "threadIdx")
    return Tid[D];
  if (Name == "blockDim" && Block[D] > 0) // 0: not fixed
    return Block[D];
  return std::nullopt;
}

std::optional<int64_t> ConcreteEval::evalUncast(const clang::Expr *E) {
  if (const auto *Lit = llvm::dyn_cast<clang::IntegerLiteral>(E))
    return inType(static_cast<__int128>(Lit->getValue().getZExtValue()), E->getType(), Ast, false);
  if (const auto *B = llvm::dyn_cast<clang::CXXBoolLiteralExpr>(E))
    return B->getValue() ? 1 : 0;
  if (std::optional<int64_t> V = builtin(E))
    return V;
  if (const auto *DRE = llvm::dyn_cast<clang::DeclRefExpr>(E)) {
    if (const auto *V = llvm::dyn_cast<clang::VarDecl>(DRE->getDecl()))
      if (std::optional<int64_t> Value = evalVariable(V))
        return Value;
  }
  if (llvm::isa<clang::BinaryOperator>(E))
    return evalBinary(E);
  if (const auto *U = llvm::dyn_cast<clang::UnaryOperator>(E)) {
    std::optional<int64_t> V = eval(U->getSubExpr());
    if (!V)
      return std::nullopt;
    switch (U->getOpcode()) {
    case clang::UO_Minus:
      return inType(-static_cast<__int128>(*V), E->getType(), Ast, false);
    case clang::UO_Plus:
      return V;
    case clang::UO_Not:
      return inType(~static_cast<__int128>(*V), E->getType(), Ast, true);
    case clang::UO_LNot:
      return *V == 0 ? 1 : 0;
    default:
      return std::nullopt;
    }
  }
  if (const auto *C = llvm::dyn_cast<clang::ConditionalOperator>(E)) {
    std::optional<int64_t> Cond = eval(C->getCond());
    return Cond ? eval(*Cond ? C->getTrueExpr() : C->getFalseExpr()) : std::nullopt;
  }
  // A constant the compiler folds (a template parameter, a constexpr).
  clang::Expr::EvalResult R;
  if (!E->isValueDependent() && E->EvaluateAsInt(R, Ast))
    return R.Val.getInt().getExtValue();
  return std::nullopt;
}

std::optional<int64_t> ConcreteEval::evalVariable(const clang::VarDecl *V) {
  if (auto It = Bound.find(V); It != Bound.end())
    return It->second;
  if (Modified.count(V) || !V->getInit() || !V->getType()->isIntegerType())
    return std::nullopt;
  std::optional<int64_t> Init = eval(V->getInit());
  return Init ? inType(*Init, V->getType(), Ast, true) : std::nullopt;
}

std::optional<int64_t> ConcreteEval::evalBinary(const clang::Expr *E) {
  const auto *B = llvm::cast<clang::BinaryOperator>(E);
  std::optional<int64_t> L = eval(B->getLHS());
  if (!L)
    return std::nullopt;
  if (B->getOpcode() == clang::BO_LAnd && *L == 0)
    return 0;
  if (B->getOpcode() == clang::BO_LOr && *L != 0)
    return 1;
  std::optional<int64_t> R = eval(B->getRHS());
  if (!R)
    return std::nullopt;
  __int128 X = *L, Y = *R;
  auto Result = [&](__int128 V, bool Wraps) { return inType(V, E->getType(), Ast, Wraps); };
  bool Unsigned = E->getType()->isUnsignedIntegerType();
  switch (B->getOpcode()) {
  case clang::BO_Add:
    return Result(X + Y, Unsigned);
  case clang::BO_Sub:
    return Result(X - Y, Unsigned);
  case clang::BO_Mul:
    return Result(X * Y, Unsigned);
  case clang::BO_Div:
  case clang::BO_Rem:
    if (Y == 0)
      return std::nullopt;
    return Result(B->getOpcode() == clang::BO_Div ? X / Y : X % Y, Unsigned);
  case clang::BO_Shl:
    if (Y < 0 || Y >= 64)
      return std::nullopt;
    return Result(X << static_cast<int>(Y), Unsigned);
  case clang::BO_Shr:
    if (Y < 0 || Y >= 64)
      return std::nullopt;
    return Result(X >> static_cast<int>(Y), true);
  case clang::BO_And:
    return Result(X & Y, true);
  case clang::BO_Or:
    return Result(X | Y, true);
  case clang::BO_Xor:
    return Result(X ^ Y, true);
  case clang::BO_LT:
    return X < Y;
  case clang::BO_GT:
    return X > Y;
  case clang::BO_LE:
    return X <= Y;
  case clang::BO_GE:
    return X >= Y;
  case clang::BO_EQ:
    return X == Y;
  case clang::BO_NE:
    return X != Y;
  case clang::BO_LAnd:
  case clang::BO_LOr:
    return Y != 0;
  default:
    return std::nullopt;
  }
}

std::optional<int64_t> ConcreteEval::afterIncrement(const clang::Expr *Inc,
                                                    const clang::VarDecl *Counter) {
  Inc = Inc->IgnoreParens();
  unsigned Width = static_cast<unsigned>(Ast.getTypeSize(Counter->getType()));
  bool Signed = Counter->getType()->isSignedIntegerType();
  auto Fit = [&](__int128 V) { return fitInteger(V, Width, Signed, !Signed); };
  if (const auto *U = llvm::dyn_cast<clang::UnaryOperator>(Inc)) {
    std::optional<int64_t> V = eval(U->getSubExpr());
    if (!V || !U->isIncrementDecrementOp())
      return std::nullopt;
    return Fit(static_cast<__int128>(*V) + (U->isIncrementOp() ? 1 : -1));
  }
  const auto *B = llvm::dyn_cast<clang::BinaryOperator>(Inc);
  const auto *LHS =
      B ? llvm::dyn_cast<clang::DeclRefExpr>(B->getLHS()->IgnoreParenImpCasts()) : nullptr;
  if (!LHS || LHS->getDecl() != Counter)
    return std::nullopt;
  std::optional<int64_t> V = eval(B->getLHS()), R = eval(B->getRHS());
  if (!V || !R)
    return std::nullopt;
  __int128 X = *V, Y = *R;
  switch (B->getOpcode()) {
  case clang::BO_Assign:
    return Fit(Y);
  case clang::BO_DivAssign:
    return Y == 0 ? std::nullopt : Fit(X / Y);
  case clang::BO_MulAssign:
    return Fit(X * Y);
  case clang::BO_AddAssign:
    return Fit(X + Y);
  case clang::BO_SubAssign:
    return Fit(X - Y);
  case clang::BO_ShrAssign:
    return Y < 0 || Y >= 64 ? std::nullopt : Fit(X >> static_cast<int>(Y));
  case clang::BO_ShlAssign:
    return Y < 0 || Y >= 64 ? std::nullopt : Fit(X << static_cast<int>(Y));
  default:
    return std::nullopt;
  }
}

} // namespace ave::inv
