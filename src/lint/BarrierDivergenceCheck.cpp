// ave-barrier-divergence: a barrier one thread reaches and another does not.

#include "Checks.h"
#include "ave/invariants/lds/ThreadPair.h"

#include "clang/AST/Expr.h"

namespace ave::lint {

void BarrierDivergenceCheck::checkKernel(clang::ASTContext &Ctx, UnitState &Unit, KernelState &K) {
  if (!K.analysis)
    return;
  for (const inv::lds::BarrierDivergence &D : Unit.shared(Ctx, K).divergentBarriers) {
    clang::SourceLocation Loc = D.barrier->call->getBeginLoc();
    diag(Loc, "barrier under thread-dependent control flow: threadIdx=%0 reaches it, "
              "threadIdx=%1 of the same block does not")
        << inv::lds::formatThread(D.arrivingThread) << inv::lds::formatThread(D.missingThread)
        << D.barrier->call->getSourceRange();
    noteAt(Loc, "counterexample: " + D.context);
    noteLaunchAndValues(Loc, K, D.launch, D.values);
  }
}

} // namespace ave::lint
