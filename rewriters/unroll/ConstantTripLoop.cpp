#include "ConstantTripLoop.h"

#include "../StagedLoop.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/Stmt.h"

#include <optional>

namespace ave::rw {

bool BodyUses::VisitDeclRefExpr(clang::DeclRefExpr *Ref) {
  if (Ref->getDecl() == Counter)
    counterUses.push_back(Ref);
  if (const auto *V = llvm::dyn_cast<clang::VarDecl>(Ref->getDecl());
      V && V->hasAttr<clang::CUDASharedAttr>())
    sharedArrays.insert(V->getName().str());
  return true;
}

bool bareSumFits(clang::ASTContext &Ctx, const clang::DeclRefExpr &Ref) {
  clang::DynTypedNodeList Parents = Ctx.getParents(Ref);
  const clang::Stmt *Child = &Ref;
  while (Parents.size() == 1 && Parents[0].get<clang::ImplicitCastExpr>()) {
    Child = Parents[0].get<clang::ImplicitCastExpr>();
    Parents = Ctx.getParents(*Parents[0].get<clang::ImplicitCastExpr>());
  }
  if (Parents.size() != 1)
    return false;
  if (const auto *Sub = Parents[0].get<clang::ArraySubscriptExpr>())
    return Sub->getIdx() == Child;
  if (const auto *B = Parents[0].get<clang::BinaryOperator>())
    return B->getOpcode() == clang::BO_Add;
  return Parents[0].get<clang::CallExpr>() || Parents[0].get<clang::ParenExpr>() ||
         Parents[0].get<clang::VarDecl>();
}

std::optional<int64_t> constantOf(const clang::Expr *E, const clang::ASTContext &Ctx) {
  clang::Expr::EvalResult R;
  if (!E || E->isValueDependent() || !E->EvaluateAsInt(R, Ctx) ||
      R.Val.getInt().getSignificantBits() > 40)
    return std::nullopt;
  return R.Val.getInt().getSExtValue();
}

namespace {

// What in a body ties one iteration to the loop: a break or continue of
// this loop, a label or goto (a copy would repeat the label), a change of
// the counter (the copies assume it moves by the step only).
class BodyCheck : public clang::RecursiveASTVisitor<BodyCheck> {
  using Base = clang::RecursiveASTVisitor<BodyCheck>;

public:
  explicit BodyCheck(const clang::VarDecl *Counter) : Counter(Counter) {}

  bool TraverseForStmt(clang::ForStmt *S) {
    return nested(Loops, [&] { return Base::TraverseForStmt(S); });
  }
  bool TraverseWhileStmt(clang::WhileStmt *S) {
    return nested(Loops, [&] { return Base::TraverseWhileStmt(S); });
  }
  bool TraverseDoStmt(clang::DoStmt *S) {
    return nested(Loops, [&] { return Base::TraverseDoStmt(S); });
  }
  bool TraverseSwitchStmt(clang::SwitchStmt *S) {
    return nested(Switches, [&] { return Base::TraverseSwitchStmt(S); });
  }

  bool VisitBreakStmt(clang::BreakStmt *S) {
    return Loops || Switches || fail(S->getBreakLoc(), "a break leaves it early");
  }
  bool VisitContinueStmt(clang::ContinueStmt *S) {
    return Loops || fail(S->getContinueLoc(), "a continue skips the rest of an iteration");
  }
  bool VisitLabelStmt(clang::LabelStmt *S) {
    return fail(S->getIdentLoc(), "its body has a label, which a copy would repeat");
  }
  bool VisitGotoStmt(clang::GotoStmt *S) { return fail(S->getGotoLoc(), "its body has a goto"); }
  bool VisitUnaryOperator(clang::UnaryOperator *U) {
    bool Changes = U->isIncrementDecrementOp() || U->getOpcode() == clang::UO_AddrOf;
    return !Changes || varOf(U->getSubExpr()) != Counter || changed(U->getExprLoc());
  }
  bool VisitBinaryOperator(clang::BinaryOperator *B) {
    return !B->isAssignmentOp() || varOf(B->getLHS()) != Counter || changed(B->getExprLoc());
  }
  bool VisitVarDecl(clang::VarDecl *V) {
    return !V->getType()->isReferenceType() || varOf(V->getInit()) != Counter ||
           changed(V->getLocation());
  }

  std::string why;
  clang::SourceLocation where;

private:
  template <typename Fn> bool nested(unsigned &Depth, Fn &&Traverse) {
    ++Depth;
    bool Going = Traverse();
    --Depth;
    return Going;
  }
  bool fail(clang::SourceLocation At, std::string Why) {
    why = std::move(Why);
    where = At;
    return false;
  }
  bool changed(clang::SourceLocation At) {
    return fail(At, "its body changes the counter '" + Counter->getName().str() + "'");
  }

  const clang::VarDecl *Counter;
  unsigned Loops = 0, Switches = 0;
};

// Where the kernel lets the counter be changed or read other than by its
// name: its address taken, a reference bound to it (a declaration, a
// non-const reference parameter of a call), a lambda capturing it by
// reference, an asm output. Any of these, before the loop or in it, can
// move the counter inside the body where no assignment names it, or read
// it where the copies' `k + s` does not reach.
class CounterEscape : public clang::RecursiveASTVisitor<CounterEscape> {
public:
  explicit CounterEscape(const clang::VarDecl *Counter) : Counter(Counter) {}

  bool VisitUnaryOperator(clang::UnaryOperator *U) {
    return U->getOpcode() != clang::UO_AddrOf || !names(U->getSubExpr()) ||
           found(U->getExprLoc(), "its address is taken");
  }
  bool VisitVarDecl(clang::VarDecl *V) {
    // Even a const one: the copies read it unshifted.
    return !V->getType()->isReferenceType() || !names(V->getInit()) ||
           found(V->getLocation(), "the reference '" + V->getName().str() + "' binds it");
  }
  bool VisitCallExpr(clang::CallExpr *C) {
    const clang::FunctionDecl *F = C->getDirectCallee();
    for (unsigned I = 0; F && I < C->getNumArgs() && I < F->getNumParams(); ++I)
      if (mutableReference(F->getParamDecl(I)->getType()) && names(C->getArg(I)))
        return found(C->getArg(I)->getExprLoc(),
                     "it is passed by reference to '" + F->getNameAsString() + "'");
    return true;
  }
  bool VisitLambdaExpr(clang::LambdaExpr *L) {
    for (const clang::LambdaCapture &Cap : L->captures())
      if (Cap.capturesVariable() && Cap.getCapturedVar() == Counter &&
          Cap.getCaptureKind() == clang::LCK_ByRef)
        return found(Cap.getLocation(), "a lambda captures it by reference");
    return true;
  }
  bool VisitGCCAsmStmt(clang::GCCAsmStmt *A) {
    for (unsigned I = 0; I < A->getNumOutputs(); ++I)
      if (names(A->getOutputExpr(I)))
        return found(A->getOutputExpr(I)->getExprLoc(), "an asm statement writes it");
    return true;
  }

  std::string why;
  clang::SourceLocation where;

private:
  static bool mutableReference(clang::QualType T) {
    return T->isReferenceType() && !T.getNonReferenceType().isConstQualified();
  }
  bool names(const clang::Expr *E) const { return E && varOf(E->IgnoreParens()) == Counter; }
  bool found(clang::SourceLocation At, std::string Why) {
    where = At;
    why = std::move(Why);
    return false;
  }
  const clang::VarDecl *Counter;
};

// Whether S has a loop inside it.
bool containsLoop(const clang::Stmt *S) {
  if (!S)
    return false;
  if (llvm::isa<clang::ForStmt, clang::WhileStmt, clang::DoStmt, clang::CXXForRangeStmt>(S))
    return true;
  for (const clang::Stmt *Child : S->children())
    if (containsLoop(Child))
      return true;
  return false;
}

bool hasUnrollPragma(clang::ASTContext &Ctx, const clang::ForStmt &For) {
  for (const clang::DynTypedNode &P : Ctx.getParents(For))
    if (const auto *A = P.get<clang::AttributedStmt>())
      for (const clang::Attr *At : A->getAttrs())
        if (llvm::isa<clang::LoopHintAttr>(At))
          return true;
  return false;
}

// The counter and start of `int v = a` or `v = a`.
const clang::VarDecl *initOf(const clang::Stmt *Init, const clang::ASTContext &Ctx, int64_t &Start,
                             bool &Declares, std::string &Why) {
  const clang::VarDecl *Var = nullptr;
  const clang::Expr *Value = nullptr;
  if (const auto *D = llvm::dyn_cast_or_null<clang::DeclStmt>(Init); D && D->isSingleDecl()) {
    Var = llvm::dyn_cast<clang::VarDecl>(D->getSingleDecl());
    Value = Var ? Var->getInit() : nullptr;
    Declares = true;
  } else if (const auto *B = llvm::dyn_cast_or_null<clang::BinaryOperator>(Init);
             B && B->getOpcode() == clang::BO_Assign) {
    Var = varOf(B->getLHS());
    Value = B->getRHS();
    Declares = false;
  }
  if (!Var || !Var->getType()->isIntegerType()) {
    Why = "it does not start by setting one integer counter";
    return nullptr;
  }
  std::optional<int64_t> A = constantOf(Value, Ctx);
  if (!A) {
    Why = "the start of '" + Var->getName().str() + "' is not a constant";
    return nullptr;
  }
  Start = *A;
  return Var;
}

// The step of `++v`, `v++`, `v += s` or `v = v + s` (s a positive constant).
std::optional<int64_t> stepOf(const clang::Expr *Inc, const clang::VarDecl *Var,
                              const clang::ASTContext &Ctx) {
  Inc = Inc ? Inc->IgnoreParenImpCasts() : nullptr;
  if (const auto *U = llvm::dyn_cast_or_null<clang::UnaryOperator>(Inc))
    return U->isIncrementOp() && varOf(U->getSubExpr()) == Var ? std::optional<int64_t>(1)
                                                               : std::nullopt;
  const auto *B = llvm::dyn_cast_or_null<clang::BinaryOperator>(Inc);
  if (!B || varOf(B->getLHS()) != Var)
    return std::nullopt;
  const clang::Expr *Amount = nullptr;
  if (B->getOpcode() == clang::BO_AddAssign)
    Amount = B->getRHS();
  else if (const auto *Sum =
               llvm::dyn_cast<clang::BinaryOperator>(B->getRHS()->IgnoreParenImpCasts());
           B->getOpcode() == clang::BO_Assign && Sum && Sum->getOpcode() == clang::BO_Add &&
           varOf(Sum->getLHS()) == Var)
    Amount = Sum->getRHS();
  std::optional<int64_t> S = constantOf(Amount, Ctx);
  return S && *S > 0 ? S : std::nullopt;
}

// The loop's shape, or why it has none the rewriter can unroll.
std::optional<ConstantTripLoop> shapeOf(clang::ASTContext &Ctx, const clang::FunctionDecl &Kernel,
                                        const clang::ForStmt &For, std::string &Why) {
  ConstantTripLoop L;
  L.loop = &For;
  L.counter = initOf(For.getInit(), Ctx, L.start, L.declaresCounter, Why);
  if (!L.counter)
    return std::nullopt;
  const std::string Name = L.counter->getName().str();
  const auto *Cond = llvm::dyn_cast_or_null<clang::BinaryOperator>(
      For.getCond() ? For.getCond()->IgnoreParenImpCasts() : nullptr);
  if (!Cond || (Cond->getOpcode() != clang::BO_LT && Cond->getOpcode() != clang::BO_LE) ||
      varOf(Cond->getLHS()) != L.counter) {
    Why = "its condition is not '" + Name + " < bound' or '" + Name + " <= bound'";
    return std::nullopt;
  }
  std::optional<int64_t> Bound = constantOf(Cond->getRHS(), Ctx);
  if (!Bound) {
    Why = "its bound is not a constant, so its trip count is not known";
    return std::nullopt;
  }
  int64_t End = *Bound + (Cond->getOpcode() == clang::BO_LE ? 1 : 0);
  std::optional<int64_t> Step = stepOf(For.getInc(), L.counter, Ctx);
  if (!Step) {
    Why = "'" + Name + "' does not grow by a positive constant step";
    return std::nullopt;
  }
  L.step = *Step;
  L.trips = End > L.start ? uint64_t((End - L.start + L.step - 1) / L.step) : 0;
  BodyCheck Check(L.counter);
  Check.TraverseStmt(const_cast<clang::Stmt *>(For.getBody()));
  if (!Check.why.empty()) {
    Why = Check.why;
    return std::nullopt;
  }
  CounterEscape Escape(L.counter);
  Escape.TraverseStmt(Kernel.getBody());
  if (!Escape.why.empty()) {
    unsigned Line = Ctx.getSourceManager().getExpansionLineNumber(Escape.where);
    Why = "the counter '" + Name + "' is reached other than by its name: " + Escape.why +
          " (line " + std::to_string(Line) + ")";
    return std::nullopt;
  }
  L.hasUnrollPragma = hasUnrollPragma(Ctx, For);
  return L;
}

class ForLoops : public clang::RecursiveASTVisitor<ForLoops> {
public:
  bool VisitForStmt(clang::ForStmt *S) {
    found.push_back(S);
    return true;
  }
  std::vector<const clang::ForStmt *> found;
};

// The name of the variable a for loop's condition compares, if any.
std::string conditionVariable(const clang::ForStmt &For) {
  const auto *Cond = llvm::dyn_cast_or_null<clang::BinaryOperator>(
      For.getCond() ? For.getCond()->IgnoreParenImpCasts() : nullptr);
  const clang::VarDecl *V = Cond ? varOf(Cond->getLHS()) : nullptr;
  return V ? V->getName().str() : "";
}

} // namespace

ConstantTripSearch findConstantTripLoops(clang::ASTContext &Ctx, const clang::FunctionDecl &Kernel,
                                         const std::string &Only) {
  ConstantTripSearch Out;
  ForLoops All;
  All.TraverseStmt(Kernel.getBody());
  for (const clang::ForStmt *For : All.found) {
    const std::string Name = conditionVariable(*For);
    if (Only.empty() ? containsLoop(For->getBody()) : Name != Only)
      continue;
    std::string Why;
    if (std::optional<ConstantTripLoop> L = shapeOf(Ctx, Kernel, *For, Why))
      Out.loops.push_back(*L);
    else
      Out.refusals.push_back({For->getForLoc(), "the loop" +
                                                    (Name.empty() ? "" : " over '" + Name + "'") +
                                                    " cannot be unrolled: " + Why});
  }
  return Out;
}

} // namespace ave::rw
