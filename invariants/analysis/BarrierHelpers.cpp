// `__device__ void sync() { __syncthreads(); }`: a helper whose body is
// barriers alone is a barrier where it is called (a kernel that waited
// through it had false races, violated). A helper that calls a barrier
// among other statements is not followed into: the block's barrier
// intervals are then not known, and the kernel's race and barrier
// obligations are unproven (LdsRaces.cpp: no access pair is decided).

#include "AnalysisContext.h"

#include "clang/AST/Decl.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/Stmt.h"

namespace ave::inv {

namespace {

constexpr unsigned MaxHelperDepth = 4;

// Whether S calls a barrier anywhere, through helpers too.
class CallsBarrier : public clang::RecursiveASTVisitor<CallsBarrier> {
public:
  explicit CallsBarrier(unsigned Depth) : Depth(Depth) {}
  bool VisitCallExpr(clang::CallExpr *Call) {
    const clang::FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || !Callee->getIdentifier())
      return true;
    if (isBarrierCallee(Callee->getName()) || helperSync(Callee, Depth + 1) != HelperSync::None)
      found = true;
    return !found;
  }
  bool found = false;

private:
  unsigned Depth;
};

} // namespace

HelperSync helperSync(const clang::FunctionDecl *Helper, unsigned Depth) {
  if (!Helper || Depth > MaxHelperDepth || !Helper->hasBody() ||
      (Helper->getIdentifier() && isBarrierCallee(Helper->getName())))
    return HelperSync::None;
  const auto *Body = llvm::dyn_cast<clang::CompoundStmt>(Helper->getBody());
  if (!Body)
    return HelperSync::None;
  bool OnlyBarriers = !Body->body_empty();
  for (const clang::Stmt *S : Body->body()) {
    if (llvm::isa<clang::NullStmt>(S))
      continue;
    if (const auto *Return = llvm::dyn_cast<clang::ReturnStmt>(S); Return && !Return->getRetValue())
      continue;
    const auto *Call = llvm::dyn_cast<clang::CallExpr>(S);
    const clang::FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
    bool Barrier = Callee && Callee->getIdentifier() &&
                   (isBarrierCallee(Callee->getName()) ||
                    helperSync(Callee, Depth + 1) == HelperSync::OnlyBarriers);
    OnlyBarriers = OnlyBarriers && Barrier;
  }
  if (OnlyBarriers)
    return HelperSync::OnlyBarriers;
  CallsBarrier Finder(Depth);
  Finder.TraverseStmt(const_cast<clang::CompoundStmt *>(Body));
  return Finder.found ? HelperSync::SomeBarrier : HelperSync::None;
}

} // namespace ave::inv
