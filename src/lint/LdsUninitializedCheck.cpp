// ave-lds-uninitialized: a shared read that no write of the block produces.

#include "Checks.h"
#include "ave/invariants/lds/ThreadPair.h"

#include "clang/AST/Decl.h"

namespace ave::lint {

void LdsUninitializedCheck::checkKernel(clang::ASTContext &Ctx, UnitState &Unit, KernelState &K) {
  if (!K.analysis)
    return;
  for (const inv::lds::UninitializedRead &U : Unit.shared(Ctx, K).uninitializedReads) {
    diag(U.read->range.getBegin(),
         "read of shared array '%0' that no write of the block can have produced")
        << U.read->array->getName() << U.read->range;
    noteAt(U.read->range.getBegin(),
           "counterexample: threadIdx=" + inv::lds::formatThread(U.thread) + " reads " +
               U.elementText + ", which no thread stores before");
  }
}

} // namespace ave::lint
