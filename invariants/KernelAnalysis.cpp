// analyzeKernel: interpret the kernel, then answer each obligation with one
// solver query and decode violations into counterexamples.

#include "ave/invariants/KernelAnalysis.h"

#include "analysis/ProvenanceInterpreter.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

#include <chrono>

namespace ave::inv {

const char *obligationKindName(ObligationKind K) {
  switch (K) {
  case ObligationKind::Assertion:
    return "assertion";
  case ObligationKind::Contraction:
    return "contraction";
  case ObligationKind::StoreCoordinates:
    return "store-coordinates";
  case ObligationKind::ReductionFreeName:
    return "reduction-free-name";
  case ObligationKind::ReductionInjective:
    return "reduction-injective";
  case ObligationKind::ReductionComplete:
    return "reduction-complete";
  }
  return "obligation";
}

unsigned KernelReport::proven() const {
  return unsigned(std::count_if(results.begin(), results.end(), [](const ObligationResult &R) {
    return R.status == SolverResult::Proven;
  }));
}
unsigned KernelReport::violated() const {
  return unsigned(std::count_if(results.begin(), results.end(), [](const ObligationResult &R) {
    return R.status == SolverResult::Violated;
  }));
}
unsigned KernelReport::unproven() const { return unsigned(results.size()) - proven() - violated(); }

namespace {

std::string valueText(const Term *Term, const Assignment &A) {
  std::optional<int64_t> V = evaluate(Term, A);
  return V ? std::to_string(*V) : "?";
}

std::string triple(const std::vector<const Term *> &Dims, const Assignment &A) {
  std::string S = "(";
  for (size_t I = 0; I < Dims.size(); ++I)
    S += (I ? "," : "") + valueText(Dims[I], A);
  return S + ")";
}

// The symbols the counterexample line names: loop counters and scalar
// parameters, in a stable order.
std::string scalarsText(const std::vector<const Term *> &Symbols, const Assignment &A) {
  std::string S;
  for (const Term *Sym : Symbols) {
    if (Sym->symbolKind() != SymbolKind::LoopCounter && Sym->symbolKind() != SymbolKind::Param)
      continue;
    // Loop counters are fresh symbols `k0'1`; their copies (`k0'1'7`, other
    // iterations or writer threads) show through the values they feed.
    std::string Name = Sym->name();
    size_t Quote = Name.find('\'');
    if (Quote != std::string::npos) {
      if (Sym->symbolKind() != SymbolKind::LoopCounter ||
          Name.find('\'', Quote + 1) != std::string::npos)
        continue;
      Name = Name.substr(0, Quote);
    }
    S += " " + Name + "=" + valueText(Sym, A);
  }
  return S;
}

void decode(ObligationResult &Out, const SolverResult &R, const std::vector<const Term *> &Query,
            ProvenanceInterpreter &I) {
  const Assignment &A = R.assignment;
  std::vector<const Term *> Symbols;
  for (const Term *Q : Query)
    for (const Term *S : collectSymbols(Q))
      if (std::find(Symbols.begin(), Symbols.end(), S) == Symbols.end())
        Symbols.push_back(S);
  std::sort(Symbols.begin(), Symbols.end(),
            [](const Term *X, const Term *Y) { return X->id() < Y->id(); });
  std::string Line =
      "counterexample: blockIdx=" + triple({I.blockIdx(0), I.blockIdx(1), I.blockIdx(2)}, A) +
      " threadIdx=" + triple({I.threadIdx(0), I.threadIdx(1), I.threadIdx(2)}, A) +
      scalarsText(Symbols, A);
  std::string Values;
  for (const auto &[Label, Term] : Out.obligation.observe)
    Values += (Values.empty() ? "" : ", ") + Label + "=" + valueText(Term, A);
  if (!Values.empty())
    Line += " -> " + Values;
  Out.counterexample.push_back({{}, Line});
  for (const ValueOrigin &O : Out.obligation.origins) {
    if (O.writerThread.empty())
      continue;
    std::string Note = O.what + " was written here by threadIdx=" + triple(O.writerThread, A);
    if (O.element)
      Note += " (element " + valueText(O.element, A) + ")";
    Out.counterexample.push_back({O.site, Note});
  }
  for (const Term *S : Symbols)
    Out.values[S->name()] = evaluate(S, A).value_or(0);
}

} // namespace

namespace {

// `scale<64, float>` for an instantiation of a template kernel.
std::string kernelDisplayName(const clang::FunctionDecl &Kernel) {
  std::string Name;
  llvm::raw_string_ostream OS(Name);
  Kernel.getNameForDiagnostic(OS, Kernel.getASTContext().getPrintingPolicy(), false);
  return Name;
}

} // namespace

KernelAnalysis::KernelAnalysis(clang::ASTContext &Ctx, const ann::KernelAnnotations &Annotations,
                               const AnalysisOptions &Opts)
    : Terms(std::make_unique<TermContext>()),
      Solver(std::make_unique<ObligationSolver>(*Terms, Opts.z3TimeoutMs)),
      Interp(std::make_unique<ProvenanceInterpreter>(Ctx, Annotations, *Terms, *Solver, Opts)),
      KernelName(kernelDisplayName(*Annotations.kernel)) {
  auto Start = std::chrono::steady_clock::now();
  Interp->run();
  InterpretMillis =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - Start).count();
}

KernelAnalysis::~KernelAnalysis() = default;

const std::vector<const Term *> &KernelAnalysis::kernelFacts() const {
  return Interp->kernelFacts();
}
const std::vector<LdsAccess> &KernelAnalysis::ldsAccesses() const { return Interp->ldsAccesses(); }
const std::vector<BarrierSite> &KernelAnalysis::barriers() const { return Interp->barriers(); }
const std::vector<AnalysisNote> &KernelAnalysis::notes() const { return Interp->notes(); }
const Term *KernelAnalysis::threadIdx(unsigned D) const { return Interp->threadIdx(D); }
const Term *KernelAnalysis::blockIdx(unsigned D) const { return Interp->blockIdx(D); }
const Term *KernelAnalysis::blockDim(unsigned D) const { return Interp->blockDim(D); }

KernelReport KernelAnalysis::solveObligations() {
  auto Start = std::chrono::steady_clock::now();
  KernelReport Report;
  Report.kernel = KernelName;
  Report.notes = Interp->notes();
  for (Obligation &O : Interp->obligations()) {
    ObligationResult Result;
    if (!O.unprovenReason.empty() || !O.violation) {
      Result.status = SolverResult::Unknown;
      Result.reason = O.unprovenReason.empty() ? "nothing to check" : O.unprovenReason;
      Result.obligation = O;
      Report.results.push_back(std::move(Result));
      continue;
    }
    std::vector<const Term *> Query = O.context;
    Query.push_back(O.violation);
    std::vector<const Term *> Observe;
    for (const auto &[Label, Term] : O.observe)
      Observe.push_back(Term);
    SolverResult R = Solver->check(Terms->allOf(Query), Observe);
    Result.millis = R.millis;
    Report.solveMillis += R.millis;
    Result.status = R.status;
    Result.reason = R.reason;
    // A model that does not really violate the obligation under C semantics
    // is not a counterexample: report unproven instead.
    if (R.status == SolverResult::Violated && !Solver->confirms(Terms->allOf(Query), R)) {
      Result.status = SolverResult::Unknown;
      Result.reason = "the solver's counterexample does not survive re-evaluation";
    }
    Result.obligation = O;
    if (Result.status == SolverResult::Violated)
      decode(Result, R, Query, *Interp);
    Report.results.push_back(std::move(Result));
  }
  Report.analysisMillis =
      InterpretMillis +
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - Start).count();
  return Report;
}

KernelReport analyzeKernel(clang::ASTContext &Ctx, const ann::KernelAnnotations &Annotations,
                           const AnalysisOptions &Opts) {
  KernelAnalysis Analysis(Ctx, Annotations, Opts);
  return Analysis.solveObligations();
}

} // namespace ave::inv
