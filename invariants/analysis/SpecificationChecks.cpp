// Checks of the specification itself, after the walk. Assumptions that no
// launch satisfies would make every obligation hold vacuously, so they are
// an error (and every other obligation is unproven); so are assumptions
// about thread or block ids that some thread of the launch breaks. A tagged
// output that never receives a tagged value (no store the analysis saw, or
// constants only) would leave the kernel with nothing to prove about it:
// that is unproven, never a silent pass. docs/analysis.md, "Obligations and
// counterexamples".

#include "ProvenanceInterpreter.h"

#include "clang/AST/Decl.h"

namespace ave::inv {

namespace {

clang::SourceLocation specificationSite(const ann::KernelAnnotations &A) {
  if (const ann::BoundPragma *Launch = A.launch())
    return Launch->location;
  for (const ann::BoundPragma &P : A.pragmas)
    if (P.kernelLevel && P.pragma.kind == ann::PragmaKind::Assume)
      return P.location;
  return A.kernel->getLocation();
}

} // namespace

void ProvenanceInterpreter::checkSpecification() {
  const KernelSymbols &S = Ctx.symbols;
  std::vector<const Term *> Facts = Ctx.kernelFacts;
  std::string Error;
  if (Ctx.ask("assumptions satisfiable", T.allOf(Facts)).status == SolverResult::Proven) {
    Error = "the launch and assumptions contradict each other (each block dimension is 1 to 1024, "
            "each grid dimension at least 1): no launch satisfies them, so nothing can be proven";
  } else {
    Facts.push_back(T.le(T.mul(T.mul(S.bdim[0], S.bdim[1]), S.bdim[2]), T.constant(1024)));
    if (Ctx.ask("launch within limits", T.allOf(Facts)).status == SolverResult::Proven)
      Error = "no launch the assumptions allow has at most 1024 threads per block, the hardware "
              "limit";
  }
  std::string Because = "the specification admits no launch (see the specification error)";
  if (Error.empty() && !Ctx.idAssumptionError.empty()) {
    Error = Ctx.idAssumptionError;
    Because = "an assumption leaves threads of the launch out of every proof (see the "
              "specification error)";
  }
  if (Error.empty())
    return;
  for (Obligation &O : Ctx.log.obligations())
    if (O.unprovenReason.empty())
      O.unprovenReason = Because;
  Obligation O;
  O.kind = ObligationKind::Specification;
  clang::SourceLocation At = specificationSite(Ctx.annotations);
  O.range = clang::SourceRange(At, At);
  O.summary = "the assumptions and launch admit a launch";
  O.failure = Error;
  O.specificationError = Error;
  Ctx.log.addObligation(std::move(O));
}

void ProvenanceInterpreter::requireOutputStores() {
  if (!Ctx.opts.implicitInvariants)
    return;
  for (const auto &[Decl, Info] : Ctx.tensors) {
    if (!Info.output || Ctx.outputsGivenValues.count(Decl))
      continue;
    Obligation O;
    O.kind = ObligationKind::OutputStored;
    O.range = Info.tag->specRange;
    O.summary = "output " + Info.tensor + " receives the values its tag describes";
    O.unprovenReason =
        Ctx.storedOutputs.count(Decl)
            ? "every store into " + Info.tensor + " the analysis saw writes a constant"
            : "the analysis saw no store into " + Info.tensor +
                  " (a call, atomic or pointer it does not follow may write it)";
    Ctx.log.addObligation(std::move(O));
  }
}

} // namespace ave::inv
