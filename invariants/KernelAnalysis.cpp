// analyzeKernel: interpret the kernel, then answer each obligation with one
// solver query and decode violations into counterexamples.

#include "ave/invariants/KernelAnalysis.h"

#include "analysis/ProvenanceInterpreter.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

#include <algorithm>
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
  case ObligationKind::OutputStored:
    return "output-stored";
  case ObligationKind::SharedReadWritten:
    return "lds-read-written";
  case ObligationKind::Specification:
    return "specification";
  case ObligationKind::InBounds:
    return "in-bounds";
  case ObligationKind::SharedRaceFree:
    return "lds-race-free";
  case ObligationKind::BarrierUniform:
    return "barrier-uniform";
  case ObligationKind::OutputWritten:
    return "output-written";
  case ObligationKind::IndexOverflow:
    return "index-overflow";
  case ObligationKind::LoopEnds:
    return "loop-ends";
  case ObligationKind::VectorAligned:
    return "vector-aligned";
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

// `scale<64, float>` for an instantiation of a template kernel.
std::string kernelDisplayName(const clang::FunctionDecl &Kernel) {
  std::string Name;
  llvm::raw_string_ostream OS(Name);
  Kernel.getNameForDiagnostic(OS, Kernel.getASTContext().getPrintingPolicy(), false);
  return Name;
}

// A violation found through approximated values (Term::isApproximation: the
// solver may give them values no execution gives them) is real only if it
// does not depend on their values. With the model's values pinned: a
// data-dependent approximation (a load, a condition on data) takes any value
// its facts allow for some input, so no value of it may satisfy the context
// and miss the obligation. A conversion the analysis does not follow has one
// value: every value must then satisfy the context and the violation (a
// branch on `k - 1 < (unsigned)K` is taken in the model only because the
// solver chose the conversion's result). A widened loop's variable takes
// only the values the program gives it, which may be fewer than its facts
// allow, and the existential symbols tied to it (a writer thread solved
// through it) follow it: with those free too, every value the context
// allows must violate. Returns why the counterexample is not known to be
// real, or "" when it is.
std::string approximationDependence(TermContext &Terms, ObligationSolver &Solver,
                                    const Obligation &O, const SolverResult &R) {
  std::vector<const Term *> Query = O.context;
  Query.push_back(O.violation);
  const Term *Approximated = nullptr;
  bool Deterministic = false, Widened = false;
  for (const Term *S : collectSymbols(Terms.allOf(Query)))
    if (S->isApproximation()) {
      bool OneValue = TermContext::deterministicApproximation(S->baseName());
      if (!Approximated || OneValue)
        Approximated = S;
      Deterministic |= OneValue;
      Widened |= S->isWidenedApproximation();
    }
  if (!Approximated)
    return "";
  std::vector<const Term *> Pinned;
  if (Deterministic) {
    Pinned.push_back(Terms.logicalNot(Terms.logicalAnd(Terms.allOf(O.context), O.violation)));
  } else {
    Pinned = O.context;
    Pinned.push_back(Terms.logicalNot(O.violation));
  }
  for (const auto &[Key, Value] : R.assignment)
    if (!(Key->isSymbol() && (Key->isApproximation() || (Widened && Key->isFresh()))))
      Pinned.push_back(Terms.eq(Key, Terms.constant(Value)));
  if (Solver.decide(Terms.allOf(Pinned)).status == SolverResult::Proven)
    return "";
  return "the counterexample depends on a value the analysis approximates (" +
         Approximated->baseName() + "), so it is not known to be a real execution";
}

// A violation whose question reads a shared integer array (`As[ty][perm[k]]`
// with perm filled by the kernel): the read is any value there, not what
// the kernel wrote (a correct kernel was violated with perm[k] = -1).
std::string sharedIndexDependence(const Obligation &O, const std::set<std::string> &Arrays) {
  if (Arrays.empty())
    return "";
  std::vector<const Term *> Query = O.context;
  Query.push_back(O.violation);
  for (const Term *Q : Query)
    for (const Term *A : collectApplications(Q))
      if (Arrays.count(A->name()))
        return "the counterexample reads the shared integer array " + A->name() +
               ", whose elements the analysis takes as any values (it does not follow what the "
               "kernel wrote there), so it is not known to be a real execution";
  return "";
}

} // namespace

KernelAnalysis::KernelAnalysis(clang::ASTContext &Ctx, const ann::KernelAnnotations &Annotations,
                               const AnalysisOptions &Opts)
    : Terms(std::make_unique<TermContext>()),
      Solver(std::make_unique<ObligationSolver>(*Terms, Opts.z3TimeoutMs)),
      Interp(std::make_unique<ProvenanceInterpreter>(Ctx, Annotations, *Terms, *Solver, Opts)),
      KernelName(kernelDisplayName(*Annotations.kernel)), TimeLimitMs(Opts.kernelTimeLimitMs) {
  auto Start = std::chrono::steady_clock::now();
  Solver->setKernelLimit(Opts.kernelTimeLimitMs);
  Interp->run();
  InterpretMillis =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - Start).count();
}

KernelAnalysis::~KernelAnalysis() = default;

const std::vector<const Term *> &KernelAnalysis::kernelFacts() const {
  return Interp->kernelFacts();
}
const std::vector<LdsAccess> &KernelAnalysis::ldsAccesses() const {
  return Interp->log().accesses();
}
const std::vector<LdsAccess> &KernelAnalysis::globalAccesses() const {
  return Interp->log().globalAccesses();
}
const std::vector<AsyncWaitSite> &KernelAnalysis::asyncWaits() const {
  return Interp->log().asyncWaits();
}

const std::vector<BarrierSite> &KernelAnalysis::barriers() const {
  return Interp->log().barriers();
}
const std::set<std::string> &KernelAnalysis::unfollowedSyncs() const {
  return Interp->log().unfollowedSyncs();
}
const std::vector<AnalysisNote> &KernelAnalysis::notes() const { return Interp->log().notes(); }
const Term *KernelAnalysis::threadIdx(unsigned D) const { return Interp->symbols().tid[D]; }
const Term *KernelAnalysis::blockIdx(unsigned D) const { return Interp->symbols().bid[D]; }
const Term *KernelAnalysis::blockDim(unsigned D) const { return Interp->symbols().bdim[D]; }
const Term *KernelAnalysis::gridDim(unsigned D) const { return Interp->symbols().gdim[D]; }

namespace {

// The least solver work a kernel's limit leaves each obligation.
constexpr unsigned PerObligationMs = 250;

// Z3's reasons for a check it stopped because of its time budget.
bool ranOutOfTime(const SolverResult &R) {
  return R.status == SolverResult::Unknown && (R.reason == "canceled" || R.reason == "timeout" ||
                                               R.reason == "max. resource limit exceeded" ||
                                               R.reason == "the kernel's time limit ran out");
}

} // namespace

std::string KernelAnalysis::timeLimitReason() const {
  if (RaisedLimitMs)
    return "the kernel's time limit (" + std::to_string(TimeLimitMs) +
           " ms, --time-limit-ms, raised to " + std::to_string(RaisedLimitMs) +
           " ms for its obligations) ran out before this obligation was solved";
  return "the kernel's time limit (" + std::to_string(TimeLimitMs) +
         " ms, --time-limit-ms) ran out before this obligation was solved";
}

namespace {

// O's violation with its subscripts outside their rows (Obligation.h).
void addSubscriptExtents(TermContext &T, Obligation &O) {
  if (!O.violation)
    return;
  for (const SubscriptExtent &S : O.subscriptExtents)
    O.violation = T.logicalOr(O.violation, T.logicalOr(T.lt(S.index, T.constant(0)),
                                                       T.ge(S.index, T.constant(S.extent))));
}

} // namespace

KernelReport KernelAnalysis::solveObligations() {
  auto Start = std::chrono::steady_clock::now();
  KernelReport Report;
  Report.kernel = KernelName;
  Report.notes = Interp->log().notes();
  // Two passes: every obligation first gets a short try, so that the easy
  // ones are all decided before a hard one can use up the kernel's time
  // limit; those that ran out of time then share what is left.
  std::vector<std::pair<size_t, Obligation *>> Pending;
  for (Obligation &O : Interp->log().obligations()) {
    addSubscriptExtents(*Terms, O);
    ObligationResult Result;
    Result.obligation = O;
    if (!O.specificationError.empty()) {
      Result.status = SolverResult::Violated;
      Result.reason = O.specificationError;
    } else if (!O.unprovenReason.empty() || !O.violation) {
      Result.status = SolverResult::Unknown;
      Result.reason = O.unprovenReason.empty() ? "nothing to check" : O.unprovenReason;
    } else {
      Pending.push_back({Report.results.size(), &O});
    }
    Report.results.push_back(std::move(Result));
  }
  // A kernel with many obligations (a register-tiled, vectorized GEMM has
  // 80) gets at least PerObligationMs for each, up to 4x its limit.
  const uint64_t Scaled =
      std::min<uint64_t>(uint64_t(TimeLimitMs) * 4, uint64_t(PerObligationMs) * Pending.size());
  if (Scaled > TimeLimitMs) {
    RaisedLimitMs = unsigned(Scaled);
    Solver->raiseKernelLimit(RaisedLimitMs);
  }
  const unsigned QuickMs = std::max(250u, Solver->timeoutMs() / 8);
  std::vector<std::pair<size_t, Obligation *>> Slow;
  for (const auto &[Index, O] : Pending) {
    SolverResult R = solveOne(*O, QuickMs, Report.results[Index]);
    if (ranOutOfTime(R) && QuickMs < Solver->timeoutMs())
      Slow.push_back({Index, O});
  }
  for (size_t I = 0; I < Slow.size(); ++I) {
    unsigned Share = Solver->msLeft() / unsigned(Slow.size() - I);
    if (Share == 0) { // the quick try's "timeout" is really the kernel's limit
      Report.results[Slow[I].first].reason = timeLimitReason();
      continue;
    }
    solveOne(*Slow[I].second, Share, Report.results[Slow[I].first]);
  }
  for (ObligationResult &Result : Report.results)
    if (Result.status == SolverResult::Unknown &&
        Result.reason == "the kernel's time limit ran out")
      Result.reason = timeLimitReason();
  // Every question put to Z3 for this kernel: the interpretation's, the
  // output coverage asked while interpreting, and the obligations'.
  Report.solveMillis = Solver->millisSpent();
  Report.analysisMillis =
      InterpretMillis +
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - Start).count();
  return Report;
}

// The most a second query with an obligation's confirmation may take.
constexpr unsigned ConfirmationMs = 2000;

SolverResult KernelAnalysis::solveOne(const Obligation &O, unsigned MaxMs,
                                      ObligationResult &Result) {
  std::vector<const Term *> Query = O.context;
  Query.push_back(O.violation);
  std::vector<const Term *> Observe;
  for (const auto &[Label, Term] : O.observe)
    Observe.push_back(Term);
  // A model that fails the test the question left out (Obligation::confirmation).
  auto MissesConfirmation = [&O](const SolverResult &Answer) {
    return Answer.status == SolverResult::Violated && O.confirmation &&
           evaluate(O.confirmation, Answer.assignment).value_or(0) == 0;
  };
  SolverResult R = Solver->checkWithin(Terms->allOf(Query), MaxMs, Observe);
  Result.millis += R.millis;
  Result.work += R.work;
  if (MissesConfirmation(R)) {
    // The model misses the test the query left out (nonlinear): ask once
    // more with it, for a little of the time.
    Query.push_back(O.confirmation);
    R = Solver->checkWithin(Terms->allOf(Query), std::min(MaxMs, ConfirmationMs), Observe);
    Result.millis += R.millis;
    Result.work += R.work;
  }
  Result.status = R.status;
  Result.reason = R.reason;
  Result.counterexample.clear();
  Result.values.clear();
  // A model that does not really violate the obligation under C semantics
  // is not a counterexample: report unproven instead.
  if (R.status == SolverResult::Violated && !Solver->confirms(Terms->allOf(Query), R)) {
    Result.status = SolverResult::Unknown;
    Result.reason = "the solver's counterexample does not survive re-evaluation";
  }
  if (MissesConfirmation(R)) {
    Result.status = SolverResult::Unknown;
    Result.reason = "the solver's model misreads the index's coordinates (coefficient "
                    "matching); the index itself is in bounds there, and the exact division "
                    "is not solved";
  }
  if (Result.status == SolverResult::Proven && !O.provenOnlyUnderAssumption.empty()) {
    Result.status = SolverResult::Unknown;
    Result.reason = O.provenOnlyUnderAssumption;
  }
  if (Result.status == SolverResult::Violated && !O.unconfirmedViolation.empty()) {
    Result.status = SolverResult::Unknown;
    Result.reason = O.unconfirmedViolation;
  }
  if (Result.status == SolverResult::Violated) {
    std::string Why = sharedIndexDependence(O, Interp->sharedIndexArrays());
    if (Why.empty())
      Why = approximationDependence(*Terms, *Solver, O, R);
    if (!Why.empty()) {
      Result.status = SolverResult::Unknown;
      Result.reason = std::move(Why);
    }
  }
  if (Result.status == SolverResult::Violated) {
    ThreadSymbols Threads;
    for (unsigned D = 0; D < 3; ++D) {
      Threads.threadIdx[D] = Interp->symbols().tid[D];
      Threads.blockIdx[D] = Interp->symbols().bid[D];
      Threads.blockDim[D] = Interp->symbols().bdim[D];
      Threads.gridDim[D] = Interp->symbols().gdim[D];
    }
    DecodedCounterexample D = decodeCounterexample(O, Query, R.assignment, Threads);
    Result.counterexample = std::move(D.lines);
    Result.values = std::move(D.values);
  }
  return R;
}

KernelReport analyzeKernel(clang::ASTContext &Ctx, const ann::KernelAnnotations &Annotations,
                           const AnalysisOptions &Opts) {
  KernelAnalysis Analysis(Ctx, Annotations, Opts);
  return Analysis.solveObligations();
}

} // namespace ave::inv
