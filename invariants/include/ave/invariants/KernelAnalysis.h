// Entry point of the invariant checker: analyse one annotated kernel and
// answer every obligation it produces.
#pragma once

#include "ave/invariants/Obligation.h"
#include "ave/invariants/Solver.h"

#include "clang/Basic/SourceLocation.h"

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
  unsigned waveSize = 64;
  bool implicitInvariants = true;
};

struct AnalysisNote {
  clang::SourceLocation location;
  std::string message;
};

// One line of a counterexample note, with where it points.
struct CounterexampleLine {
  clang::SourceLocation location; // invalid: no location of its own
  std::string text;
};

struct ObligationResult {
  Obligation obligation;
  SolverResult::Status status = SolverResult::Unknown;
  std::string reason;                             // unproven: why
  std::vector<CounterexampleLine> counterexample; // violated: the decoded model
  std::map<std::string, int64_t> values;          // violated: raw model values by name
  double millis = 0;
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

KernelReport analyzeKernel(clang::ASTContext &Ctx, const ann::KernelAnnotations &Annotations,
                           const AnalysisOptions &Opts);

} // namespace ave::inv
