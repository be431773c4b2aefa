// A read of a __shared__ array that nothing in the kernel writes reads
// memory no thread of the block wrote: on a GPU whatever an earlier kernel
// left in the LDS. The writer solution (load()) finds no candidate and the
// value is unknown, which left the kernel unproven (a dropped staging
// store). Where the array is certainly written nowhere, the read's
// `lds-read-written` obligation is violated with the reading thread.
//
// "Written nowhere" is syntactic and conservative: every use of the array in
// the kernel is the base of a subscript chain that is read as a value. Any
// other use (an assignment, `++`, an atomic, `&As[i]`, `As` passed to a call
// or kept in a pointer, inline asm) may write it, and `extern __shared__`
// arrays alias each other: then nothing is claimed.

#include "SharedMemoryModel.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace ave::inv {

namespace {

// Whether Ref (a use of an array) is only read: the base of subscripts
// whose element is converted to a value.
bool onlyRead(clang::ASTContext &Ast, const clang::DeclRefExpr *Ref) {
  const clang::Expr *Cur = Ref;
  for (;;) {
    clang::DynTypedNodeList Parents = Ast.getParents(*Cur);
    if (Parents.size() != 1)
      return false;
    const auto *Parent = Parents[0].get<clang::Expr>();
    if (!Parent)
      return false;
    if (const auto *Cast = llvm::dyn_cast<clang::ImplicitCastExpr>(Parent)) {
      if (Cast->getCastKind() == clang::CK_LValueToRValue)
        return true;
      if (Cast->getCastKind() != clang::CK_ArrayToPointerDecay)
        return false;
    } else if (const auto *Sub = llvm::dyn_cast<clang::ArraySubscriptExpr>(Parent)) {
      if (Sub->getBase()->IgnoreImpCasts() != Cur->IgnoreImpCasts() && Sub->getBase() != Cur)
        return false; // used as an index: not this array's memory
    } else if (!llvm::isa<clang::ParenExpr>(Parent)) {
      return false;
    }
    Cur = Parent;
  }
}

} // namespace

bool SharedMemoryModel::writtenNowhere(const clang::ValueDecl *Array) {
  auto Known = WrittenNowhere.find(Array);
  if (Known != WrittenNowhere.end())
    return Known->second;
  const auto *Var = llvm::dyn_cast<clang::VarDecl>(Array);
  bool Result = Var && !Var->hasExternalStorage() && Ctx.annotations.kernel &&
                Ctx.annotations.kernel->getBody();
  if (Result) {
    struct Uses : clang::RecursiveASTVisitor<Uses> {
      const clang::ValueDecl *array = nullptr;
      std::vector<const clang::DeclRefExpr *> found;
      bool sawAsm = false;
      bool VisitDeclRefExpr(clang::DeclRefExpr *Ref) {
        if (Ref->getDecl() == array)
          found.push_back(Ref);
        return true;
      }
      bool VisitAsmStmt(clang::AsmStmt *) {
        sawAsm = true;
        return true;
      }
    } U;
    U.array = Array;
    U.TraverseStmt(Ctx.annotations.kernel->getBody());
    Result =
        !U.sawAsm && std::all_of(U.found.begin(), U.found.end(),
                                 [&](const clang::DeclRefExpr *R) { return onlyRead(Ctx.ast, R); });
  }
  WrittenNowhere.emplace(Array, Result);
  return Result;
}

void SharedMemoryModel::requireSomeWrite(const clang::ValueDecl *Array, const clang::Expr *Site,
                                         const FlowState &State) {
  if (!Ctx.opts.implicitInvariants || !Site || !writtenNowhere(Array))
    return;
  Obligation O = Ctx.makeObligation(ObligationKind::SharedReadWritten, Site, State);
  std::string Name = Array->getNameAsString();
  O.summary = "some thread wrote the element of " + Name + " read here";
  O.sharedArray = Name;
  O.failure = "read of " + Name + ", which nothing in the kernel writes";
  O.violation = Ctx.terms.trueTerm();
  Ctx.log.addObligation(std::move(O));
}

} // namespace ave::inv
