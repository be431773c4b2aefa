// ave-invariant: the check command's obligations (explicit asserts and the
// implicit einsum invariants) as clang-tidy diagnostics. Unannotated kernels
// have no obligations, so they never get an invariant report.

#include "Checks.h"

namespace ave::lint {

void InvariantCheck::checkKernel(clang::ASTContext &, UnitState &Unit, KernelState &K) {
  if (!K.analysis || !K.annotated)
    return;
  for (const inv::ObligationResult &O : Unit.report(K).results) {
    clang::SourceLocation Loc = O.obligation.range.getBegin();
    if (O.status == inv::SolverResult::Violated) {
      diag(Loc, "%0") << O.obligation.failure << O.obligation.range;
      for (const inv::CounterexampleLine &L : O.counterexample)
        noteAt(L.location.isValid() ? L.location : Loc, L.text);
    } else if (O.status == inv::SolverResult::Unknown) {
      diag(Loc, "unproven: %0: %1") << O.obligation.summary << O.reason << O.obligation.range;
    } else {
      continue;
    }
    // A template kernel is checked per instantiation: say which one.
    if (K.kernel->isTemplateInstantiation())
      noteAt(K.kernel->getPointOfInstantiation(),
             "in instantiation '" + Unit.report(K).kernel + "'");
  }
}

} // namespace ave::lint
