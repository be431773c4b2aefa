// ave-lds-race: reported at the later access, with the earlier one, both
// threads, the launch and every value of the witness as notes.

#include "Checks.h"
#include "ave/invariants/lds/ThreadPair.h"

#include "clang/AST/Decl.h"

namespace ave::lint {

namespace {
const char *verb(const inv::LdsAccess &A) { return A.isWrite ? "writes" : "reads"; }
} // namespace

void LdsRaceCheck::checkKernel(clang::ASTContext &Ctx, UnitState &Unit, KernelState &K) {
  if (!K.analysis)
    return;
  for (const inv::lds::LdsRace &R : Unit.shared(Ctx, K, ReportBenign).races) {
    std::string T1 = inv::lds::formatThread(R.firstThread);
    std::string T2 = inv::lds::formatThread(R.secondThread);
    diag(R.second->range.getBegin(),
         "data race on shared array '%0': threadIdx=%1 %2 %3 while threadIdx=%4 %5 it in the "
         "same barrier interval%6")
        << R.first->array->getName() << T2 << verb(*R.second) << R.elementText << T1
        << verb(*R.first) << (R.sameValue ? " (benign: both write the same value)" : "")
        << R.second->range;
    noteAt(R.first->range.getBegin(),
           "threadIdx=" + T1 + " " + verb(*R.first) + " " + R.elementText + " here");
    noteAt(R.second->range.getBegin(), "counterexample: " + R.context + " (" + R.interval + ")");
    noteLaunchAndValues(R.second->range.getBegin(), K, R.launch, R.values);
  }
}

} // namespace ave::lint
