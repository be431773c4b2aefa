// ave-invariant: the check command's obligations (explicit asserts and the
// implicit einsum invariants) as clang-tidy diagnostics, worded and placed
// by inv::findingOf exactly as `check` prints them. Unannotated kernels have
// no obligations, so they never get an invariant report.

#include "Checks.h"
#include "ave/invariants/ObligationFinding.h"

namespace ave::lint {

void InvariantCheck::checkKernel(clang::ASTContext &, UnitState &Unit, KernelState &K) {
  if (!K.analysis || !K.annotated)
    return;
  const inv::KernelReport &Report = Unit.report(K);
  for (const inv::ObligationResult &O : Report.results) {
    std::optional<inv::ObligationFinding> F = inv::findingOf(O, *K.kernel, Report.kernel);
    if (!F)
      continue;
    diag(F->range.getBegin(), "%0") << F->message << F->range;
    for (const inv::FindingNote &N : F->notes)
      noteAt(N.location, N.text);
  }
}

} // namespace ave::lint
