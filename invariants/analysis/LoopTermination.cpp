// A loop whose condition nothing in the loop can change never ends once it
// is entered: `for (int j = 0; k0 < 4; ++j)` (the condition names the wrong
// variable) or `for (d = 0; d < D; ++i)` (the step does). Such a kernel
// hangs on a GPU or runs its counter past every array; the analysis only
// widened the loop and left each access unproven, with no counterexample.
// The loop gets a `loop-ends` obligation: violated where the condition
// holds on entry.
//
// Asked only where "nothing can change it" is syntactic and certain: the
// condition reads local integer variables, parameters and constants only
// (no memory, no call: another thread or the body could change those); no
// variable it reads is assigned in the body or the step, or has its address
// taken or bound to a reference anywhere in the function; and the body has
// no way out (`break`, `return`, `goto`, a trap, inline asm).

#include "LoopBodyScan.h"
#include "ProvenanceInterpreter.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"

namespace ave::inv {

namespace {

// The local variables and parameters Cond reads, or false if it reads
// anything else (memory, a call, a member, an assignment).
bool pureReads(const clang::Expr *E, std::set<const clang::VarDecl *> &Vars) {
  E = E->IgnoreParens();
  if (llvm::isa<clang::IntegerLiteral, clang::CXXBoolLiteralExpr, clang::CharacterLiteral>(E))
    return true;
  if (const auto *DRE = llvm::dyn_cast<clang::DeclRefExpr>(E)) {
    if (llvm::isa<clang::EnumConstantDecl>(DRE->getDecl()))
      return true;
    const auto *VD = llvm::dyn_cast<clang::VarDecl>(DRE->getDecl());
    // A constant (`constexpr int TILE = 64;`) never changes.
    if (VD && VD->getType().isConstQualified() && VD->getType()->isIntegerType() &&
        VD->getAnyInitializer() &&
        VD->getAnyInitializer()->isIntegerConstantExpr(VD->getASTContext()))
      return true;
    if (!VD || !VD->getType()->isIntegerType() || VD->getType().isVolatileQualified() ||
        VD->getType()->isReferenceType() ||
        !(VD->isLocalVarDecl() || llvm::isa<clang::ParmVarDecl>(VD)) || VD->isStaticLocal())
      return false;
    Vars.insert(VD);
    return true;
  }
  if (const auto *Cast = llvm::dyn_cast<clang::ImplicitCastExpr>(E)) {
    clang::CastKind K = Cast->getCastKind();
    if (K != clang::CK_LValueToRValue && K != clang::CK_IntegralCast &&
        K != clang::CK_IntegralToBoolean && K != clang::CK_NoOp)
      return false;
    return pureReads(Cast->getSubExpr(), Vars);
  }
  if (const auto *U = llvm::dyn_cast<clang::UnaryOperator>(E)) {
    clang::UnaryOperatorKind K = U->getOpcode();
    if (K != clang::UO_Minus && K != clang::UO_Not && K != clang::UO_LNot && K != clang::UO_Plus)
      return false;
    return pureReads(U->getSubExpr(), Vars);
  }
  if (const auto *B = llvm::dyn_cast<clang::BinaryOperator>(E)) {
    if (B->isAssignmentOp() || B->isCompoundAssignmentOp() || B->getOpcode() == clang::BO_Comma)
      return false;
    return pureReads(B->getLHS(), Vars) && pureReads(B->getRHS(), Vars);
  }
  return false;
}

// Whether S can leave the loop other than through its condition.
bool hasWayOut(const clang::Stmt *S) {
  if (!S)
    return false;
  if (llvm::isa<clang::BreakStmt, clang::ReturnStmt, clang::GotoStmt, clang::IndirectGotoStmt,
                clang::AsmStmt, clang::CXXThrowExpr, clang::CXXTryStmt>(S))
    return true;
  if (const auto *Call = llvm::dyn_cast<clang::CallExpr>(S))
    if (const clang::FunctionDecl *FD = Call->getDirectCallee()) {
      std::string Name = FD->getNameAsString();
      if (FD->isNoReturn() || Name.find("trap") != std::string::npos ||
          Name.find("abort") != std::string::npos || Name.find("exit") != std::string::npos ||
          Name.find("assert") != std::string::npos)
        return true;
    }
  for (const clang::Stmt *Child : S->children())
    if (hasWayOut(Child))
      return true;
  return false;
}

// Whether S takes the address of one of Vars, binds one to a reference, or
// has a lambda (which may capture one by reference).
bool mayAlias(const clang::Stmt *S, const std::set<const clang::VarDecl *> &Vars) {
  if (!S)
    return false;
  auto Names = [&](const clang::Expr *E) {
    const auto *DRE = llvm::dyn_cast<clang::DeclRefExpr>(E->IgnoreParenImpCasts());
    return DRE && Vars.count(llvm::dyn_cast<clang::VarDecl>(DRE->getDecl()));
  };
  if (const auto *U = llvm::dyn_cast<clang::UnaryOperator>(S);
      U && U->getOpcode() == clang::UO_AddrOf && Names(U->getSubExpr()))
    return true;
  if (llvm::isa<clang::LambdaExpr>(S))
    return true;
  if (const auto *DS = llvm::dyn_cast<clang::DeclStmt>(S))
    for (const clang::Decl *D : DS->decls())
      if (const auto *VD = llvm::dyn_cast<clang::VarDecl>(D);
          VD && VD->getType()->isReferenceType() && VD->getInit() && Names(VD->getInit()))
        return true;
  if (const auto *Call = llvm::dyn_cast<clang::CallExpr>(S)) {
    const clang::FunctionDecl *FD = Call->getDirectCallee();
    for (unsigned I = 0; I < Call->getNumArgs(); ++I)
      if (Names(Call->getArg(I)) &&
          (!FD || I >= FD->getNumParams() || FD->getParamDecl(I)->getType()->isReferenceType()))
        return true;
  }
  for (const clang::Stmt *Child : S->children())
    if (mayAlias(Child, Vars))
      return true;
  return false;
}

} // namespace

void ProvenanceInterpreter::requireLoopEnds(const clang::Stmt *Loop, const clang::Expr *Cond,
                                            const clang::Stmt *Body,
                                            const std::set<const clang::VarDecl *> &Assigned,
                                            FlowState &State) {
  if (!Cond || !Ctx.opts.implicitInvariants || hasWayOut(Body))
    return;
  std::set<const clang::VarDecl *> Reads;
  if (!pureReads(Cond, Reads))
    return;
  for (const clang::VarDecl *VD : Reads)
    if (Assigned.count(VD))
      return;
  // Every variable read is a local or parameter of the one function the
  // loop is in: its body is scanned once for aliases of any of them.
  if (!Reads.empty()) {
    const auto *Function =
        llvm::dyn_cast_or_null<clang::FunctionDecl>((*Reads.begin())->getParentFunctionOrMethod());
    if (!Function || mayAlias(Function->getBody(), Reads))
      return;
  }
  const Term *Holds = evalInt(Cond, State);
  if (!Holds)
    return;
  Obligation O = Ctx.makeObligation(ObligationKind::LoopEnds, Cond, State);
  O.range = Loop->getSourceRange();
  std::string Text = Ctx.text(Cond);
  O.summary = "the loop ends: its condition '" + Text + "' can change in the loop";
  O.failure = "loop never ends: nothing in it changes its condition '" + Text +
              "', which holds when it is entered";
  O.violation = T.ne(Holds, T.constant(0));
  if (const Term *S = approximatedSymbol(Holds))
    O.unconfirmedViolation = "the condition is built from a value the analysis approximates (" +
                             S->baseName() + "), so the entry found is not known to be real";
  Ctx.log.addObligation(std::move(O));
}

} // namespace ave::inv
