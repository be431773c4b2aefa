// Reading a `for` header as `for (int i = a; i < b; i += s)`. Each part is
// recognised on its own so a loop that is almost canonical (a shift step, a
// missing init) still tells the analysis what it can.

#include "ModelParts.h"
#include "SourceFacts.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

namespace ave::model::detail {

using namespace clang;

namespace {

const VarDecl *referencedVar(const Expr *E) {
  if (!E)
    return nullptr;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    return dyn_cast<VarDecl>(Ref->getDecl());
  return nullptr;
}

// `int i = a` or `i = a`.
void describeInit(const ASTContext &Ctx, const Stmt *Init, Loop &L) {
  if (!Init)
    return;
  if (const auto *Decls = dyn_cast<DeclStmt>(Init)) {
    if (!Decls->isSingleDecl())
      return;
    const auto *Var = dyn_cast<VarDecl>(Decls->getSingleDecl());
    if (!Var || !Var->getInit())
      return;
    L.inductionDecl = Var;
    L.initText = exprText(Ctx, Var->getInit());
    return;
  }
  if (const auto *Assign = dyn_cast<BinaryOperator>(Init);
      Assign && Assign->getOpcode() == BO_Assign) {
    if (const VarDecl *Var = referencedVar(Assign->getLHS())) {
      L.inductionDecl = Var;
      L.initText = exprText(Ctx, Assign->getRHS());
    }
  }
}

bool isComparison(BinaryOperatorKind Op) {
  return Op == BO_LT || Op == BO_LE || Op == BO_GT || Op == BO_GE || Op == BO_NE;
}

// `i < b`, or `b > i` read as `i < b`.
void describeCondition(const ASTContext &Ctx, const Expr *Cond, Loop &L) {
  const auto *Compare = Cond ? dyn_cast<BinaryOperator>(Cond->IgnoreParenImpCasts()) : nullptr;
  if (!Compare || !isComparison(Compare->getOpcode()))
    return;
  const VarDecl *Left = referencedVar(Compare->getLHS());
  const VarDecl *Right = referencedVar(Compare->getRHS());
  // With no init, the variable compared is still the best guess.
  const VarDecl *Var = L.inductionDecl ? L.inductionDecl : (Left ? Left : Right);
  if (!Var)
    return;
  if (Left == Var) {
    L.compareOp = Compare->getOpcodeStr().str();
    L.boundText = exprText(Ctx, Compare->getRHS());
  } else if (Right == Var) {
    L.compareOp =
        BinaryOperator::getOpcodeStr(BinaryOperator::reverseComparisonOp(Compare->getOpcode()))
            .str();
    L.boundText = exprText(Ctx, Compare->getLHS());
  } else {
    return;
  }
  L.inductionDecl = Var;
}

std::optional<std::int64_t> constantStep(const ASTContext &Ctx, const Expr *E, bool Negate) {
  ConstantOrText Step = constantOrText(Ctx, E);
  if (!Step.value)
    return std::nullopt;
  return Negate ? -*Step.value : *Step.value;
}

// `++i`, `i--`, `i += s`, `i >>= 1`, `i = i + s`, `i = s + i`, `i = i - s`.
void describeIncrement(const ASTContext &Ctx, const Expr *Inc, Loop &L) {
  if (!Inc || !L.inductionDecl)
    return;
  Inc = Inc->IgnoreParenImpCasts();
  if (const auto *Unary = dyn_cast<UnaryOperator>(Inc)) {
    if (!Unary->isIncrementDecrementOp() || referencedVar(Unary->getSubExpr()) != L.inductionDecl)
      return;
    // Built as temporaries and moved in: GCC 12 misreports -Wrestrict on
    // assigning a literal here.
    L.stepOp = std::string(Unary->isIncrementOp() ? "++" : "--");
    L.stepText = std::string("1");
    L.step = Unary->isIncrementOp() ? 1 : -1;
    return;
  }
  const auto *Binary = dyn_cast<BinaryOperator>(Inc);
  if (!Binary || referencedVar(Binary->getLHS()) != L.inductionDecl)
    return;
  if (Binary->isCompoundAssignmentOp()) {
    L.stepOp = Binary->getOpcodeStr().str();
    L.stepText = exprText(Ctx, Binary->getRHS());
    if (Binary->getOpcode() == BO_AddAssign || Binary->getOpcode() == BO_SubAssign)
      L.step = constantStep(Ctx, Binary->getRHS(), Binary->getOpcode() == BO_SubAssign);
    return;
  }
  if (Binary->getOpcode() != BO_Assign)
    return;
  const auto *Sum = dyn_cast<BinaryOperator>(Binary->getRHS()->IgnoreParenImpCasts());
  if (!Sum || (Sum->getOpcode() != BO_Add && Sum->getOpcode() != BO_Sub))
    return;
  const Expr *Stride = nullptr;
  if (referencedVar(Sum->getLHS()) == L.inductionDecl)
    Stride = Sum->getRHS();
  else if (Sum->getOpcode() == BO_Add && referencedVar(Sum->getRHS()) == L.inductionDecl)
    Stride = Sum->getLHS();
  if (!Stride)
    return;
  L.stepOp = std::string(Sum->getOpcode() == BO_Add ? "+=" : "-=");
  L.stepText = exprText(Ctx, Stride);
  L.step = constantStep(Ctx, Stride, Sum->getOpcode() == BO_Sub);
}

bool isAdditiveStep(const std::string &Op) {
  return Op == "++" || Op == "--" || Op == "+=" || Op == "-=";
}

} // namespace

void describeForHeader(const ASTContext &Ctx, const ForStmt &For, Loop &L) {
  describeInit(Ctx, For.getInit(), L);
  describeCondition(Ctx, For.getCond(), L);
  describeIncrement(Ctx, For.getInc(), L);
  if (L.inductionDecl)
    L.inductionVar = L.inductionDecl->getNameAsString();
  bool IntegerVar = L.inductionDecl && (L.inductionDecl->getType()->isIntegerType() ||
                                        L.inductionDecl->getType()->isDependentType());
  L.canonical =
      IntegerVar && !L.initText.empty() && !L.compareOp.empty() && isAdditiveStep(L.stepOp);
}

} // namespace ave::model::detail
