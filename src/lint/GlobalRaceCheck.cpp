// ave-global-race: reported at the later access, with the earlier one, both
// threads (and blocks), the launch and every value of the witness as notes.

#include "Checks.h"
#include "ave/invariants/lds/ThreadPair.h"

#include "clang/AST/Decl.h"

namespace ave::lint {

namespace {

const char *verb(const inv::LdsAccess &A) {
  return A.atomic ? "atomically updates" : A.isWrite ? "writes" : "reads";
}

std::string who(const int64_t (&Block)[3], const int64_t (&Thread)[3]) {
  return "blockIdx=" + inv::lds::formatThread(Block) +
         " threadIdx=" + inv::lds::formatThread(Thread);
}

} // namespace

void GlobalRaceCheck::checkKernel(clang::ASTContext &Ctx, UnitState &Unit, KernelState &K) {
  if (!K.analysis)
    return;
  for (const inv::lds::GlobalRace &R : Unit.globalRaces(Ctx, K, ReportBenign)) {
    std::string First = who(R.firstBlock, R.firstThread);
    std::string Second = who(R.secondBlock, R.secondThread);
    diag(R.second->range.getBegin(), "data race on global buffer '%0': %1 %2 %3 while %4 %5 it%6%7")
        << R.first->array->getName() << Second << verb(*R.second) << R.elementText << First
        << verb(*R.first) << (R.sameBlock ? " in the same barrier interval" : " in another block")
        << (R.sameValue ? " (benign: both write the same value)" : "") << R.second->range;
    noteAt(R.first->range.getBegin(), First + " " + verb(*R.first) + " " + R.elementText + " here");
    noteAt(R.second->range.getBegin(), "counterexample: " + R.interval);
    noteLaunchAndValues(R.second->range.getBegin(), K, R.launch, R.values);
  }
}

} // namespace ave::lint
