// The DropBarrier test hook (TestHooks.h): a rewrite that also loses a
// barrier, the bug a pipelining or layout rewrite is most likely to have and
// the one the CPU executor's one-thread-at-a-time schedule hides unless its
// race check is on.

#include "ave/rewriters/EditRange.h"
#include "ave/rewriters/Rewriter.h"
#include "ave/rewriters/TestHooks.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace ave::rw::testing {

namespace {

// The first call of __syncthreads() in source order.
class FirstBarrier : public clang::RecursiveASTVisitor<FirstBarrier> {
public:
  bool VisitCallExpr(clang::CallExpr *Call) {
    const clang::FunctionDecl *Callee = Call->getDirectCallee();
    if (found || !Callee || !Callee->getIdentifier() || Callee->getName() != "__syncthreads")
      return true;
    found = Call;
    return false;
  }
  const clang::CallExpr *found = nullptr;
};

} // namespace

void applyInjectedEdits(const RewriteRequest &Request, RewriteResult &Result) {
  if (injectedBug() != InjectedBug::DropBarrier || Result.candidates.empty() ||
      !Request.kernel.getBody())
    return;
  FirstBarrier Finder;
  Finder.TraverseStmt(Request.kernel.getBody());
  if (!Finder.found)
    return;
  EditRange Range = fileRangeForEdit(Request.context, Finder.found->getSourceRange());
  if (!Range.ok())
    return;
  llvm::consumeError(Result.candidates.front().replacements.add(
      replaceRange(Request.context, Range.range, "(void)0")));
}

} // namespace ave::rw::testing
