#include "ave/invariants/ObligationFinding.h"

#include "clang/AST/Decl.h"

namespace ave::inv {

std::optional<ObligationFinding> findingOf(const ObligationResult &Result,
                                           const clang::FunctionDecl &Kernel,
                                           const std::string &KernelName) {
  if (Result.status == SolverResult::Proven)
    return std::nullopt;
  ObligationFinding F;
  F.range = Result.obligation.range;
  clang::SourceLocation At = F.range.getBegin();
  if (Result.status == SolverResult::Violated) {
    F.violated = true;
    F.message = Result.obligation.failure;
    for (const CounterexampleLine &L : Result.counterexample)
      F.notes.push_back({L.location.isValid() ? L.location : At, L.text});
  } else {
    F.message = "unproven: " + Result.obligation.summary + ": " + Result.reason;
  }
  // A template kernel is checked per instantiation: say which one.
  if (Kernel.isTemplateInstantiation())
    F.notes.push_back({Kernel.getPointOfInstantiation(), "in instantiation '" + KernelName + "'"});
  return F;
}

} // namespace ave::inv
