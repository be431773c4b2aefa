// Entry point of the invariant checker: analyse one annotated kernel and
// answer every obligation it produces.
#pragma once

#include "ave/invariants/Counterexample.h"
#include "ave/invariants/LdsAccess.h"
#include "ave/invariants/Obligation.h"
#include "ave/invariants/Solver.h"

#include "clang/Basic/SourceLocation.h"

#include <memory>
#include <set>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
}
namespace ave::ann {
struct KernelAnnotations;
}

namespace ave::inv {

struct AnalysisOptions {
  unsigned z3TimeoutMs = 10000;
  // Interpretation and solving of one kernel together; past it, the
  // solver is not asked again and the remaining obligations are unproven.
  unsigned kernelTimeLimitMs = 10000;
  unsigned waveSize = 64;
  bool implicitInvariants = true;
};

struct AnalysisNote {
  clang::SourceLocation location;
  std::string message;
};

struct ObligationResult {
  Obligation obligation;
  SolverResult::Status status = SolverResult::Unknown;
  std::string reason;                             // unproven: why
  std::vector<CounterexampleLine> counterexample; // violated: the decoded model
  std::map<std::string, int64_t> values;          // violated: raw model values by name
  double millis = 0;
  uint64_t work = 0; // Z3 resource units (ObligationSolver::WorkPerMs)
};

struct KernelReport {
  std::string kernel;
  std::vector<ObligationResult> results;
  std::vector<AnalysisNote> notes;
  double analysisMillis = 0; // interpretation + solving, front end excluded
  double solveMillis = 0;
  unsigned proven() const;
  unsigned violated() const;
  unsigned unproven() const;
};

class ProvenanceInterpreter;

// One kernel's analysis, kept alive so other checks (races, barriers, bank
// conflicts) can ask their own questions over the same terms, facts and
// solver after the interpretation ran. Works on unannotated kernels too:
// they simply produce no obligations.
class KernelAnalysis {
public:
  KernelAnalysis(clang::ASTContext &Ctx, const ann::KernelAnnotations &Annotations,
                 const AnalysisOptions &Opts);
  ~KernelAnalysis();
  KernelAnalysis(const KernelAnalysis &) = delete;
  KernelAnalysis &operator=(const KernelAnalysis &) = delete;

  // Answers every obligation of the explicit and implicit invariants.
  KernelReport solveObligations();

  TermContext &terms() { return *Terms; }
  ObligationSolver &solver() { return *Solver; } // kernel facts already asserted
  const std::vector<const Term *> &kernelFacts() const;
  const std::vector<LdsAccess> &ldsAccesses() const;
  // Loads and stores of the kernel's global buffers (pointer parameters,
  // `__device__` variables), in the same form.
  const std::vector<LdsAccess> &globalAccesses() const;
  const std::vector<BarrierSite> &barriers() const;
  const std::vector<AsyncWaitSite> &asyncWaits() const;
  // Why synchronisation was not followed somewhere (a helper that calls
  // __syncthreads() among other statements); empty when it was everywhere.
  const std::set<std::string> &unfollowedSyncs() const;
  const std::vector<AnalysisNote> &notes() const;
  const Term *threadIdx(unsigned Dim) const;
  const Term *blockIdx(unsigned Dim) const;
  const Term *blockDim(unsigned Dim) const;
  const Term *gridDim(unsigned Dim) const;
  double interpretMillis() const { return InterpretMillis; }

private:
  /// Solves one obligation within MaxMs into Result (status, reason,
  /// counterexample); returns the solver's own answer.
  SolverResult solveOne(const Obligation &O, unsigned MaxMs, ObligationResult &Result);
  std::string timeLimitReason() const;

  std::unique_ptr<TermContext> Terms;
  std::unique_ptr<ObligationSolver> Solver;
  std::unique_ptr<ProvenanceInterpreter> Interp;
  std::string KernelName;
  unsigned TimeLimitMs;
  unsigned RaisedLimitMs = 0; // the limit for a kernel of many obligations (0: not raised)
  double InterpretMillis = 0;
};

// Interprets the kernel and answers every obligation.
KernelReport analyzeKernel(clang::ASTContext &Ctx, const ann::KernelAnnotations &Annotations,
                           const AnalysisOptions &Opts);

} // namespace ave::inv
