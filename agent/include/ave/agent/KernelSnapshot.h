// What the analysis says about each kernel of one parsed file, copied out as
// plain data while the AST is alive: the obligations with their status, the
// LDS accesses with their bank-conflict degree, and the shared-memory races.
// The pipeline takes one snapshot of the original and one of the patched
// text and compares them.
#pragma once

#include "ave/frontend/Diagnostics.h"
#include "ave/frontend/HipFrontend.h"
#include "ave/invariants/Solver.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class FunctionDecl;
}
namespace ave::inv {
class KernelAnalysis;
}

namespace ave::agent {

struct ObligationOutcome {
  std::string kind; // obligationKindName
  std::string summary;
  inv::SolverResult::Status status = inv::SolverResult::Unknown;
  std::string message; // violated: the failure; unproven: the reason
  ave::SourcePosition location;
  std::vector<frontend::DiagnosticNote> counterexample;
};

struct LdsAccessRating {
  std::string array;
  std::string text; // the access as written, e.g. tile[tx][ty]
  ave::SourcePosition location;
  bool isWrite = false;
  std::optional<unsigned> conflictDegree; // nullopt: the bank model could not rate it
  std::string note;
  // The element each thread of block 0 touches in the first iteration of
  // every enclosing loop (NotExecuted where its guard is false); empty when
  // the address depends on something other than thread/block ids and loop
  // counters. Compared before/after a layout rewrite: which accesses meet
  // at one element must not change.
  std::vector<int64_t> sampledElements;
  static constexpr int64_t NotExecuted = INT64_MIN;
};

struct RaceOutcome {
  std::string array;
  std::string message;
  ave::SourcePosition location;
};

struct KernelSnapshot {
  std::string kernel;
  bool annotated = false;
  bool dependent = false; // a template pattern: not analysed
  std::vector<std::string> annotationErrors;
  std::vector<ObligationOutcome> obligations;
  std::vector<LdsAccessRating> accesses; // program order
  std::vector<RaceOutcome> races;
  std::vector<RaceOutcome> divergentBarriers; // array: empty
  bool racesChecked = false;
  double analysisMillis = 0;
  unsigned blockDim[3] = {1, 1, 1}; // the block the samples cover
  unsigned count(inv::SolverResult::Status S) const;
};

struct SnapshotOptions {
  frontend::Target target = frontend::Target::Gfx942;
  unsigned z3TimeoutMs = 10000;
  std::string kernel; // empty: every kernel of the file
};

// Called for each selected kernel while its analysis is alive (the rewriters
// run here, with the bank model over this analysis as their advisor). The
// analysis is null for a template pattern: its types are dependent, so only
// its instantiations can be analysed, but the pattern is the text to edit.
using WithAnalysis = std::function<void(const clang::FunctionDecl &, inv::KernelAnalysis *)>;

// Analyses every selected kernel of the unit.
std::vector<KernelSnapshot> snapshotKernels(frontend::ParsedUnit &Unit, const SnapshotOptions &Opts,
                                            const WithAnalysis &Also = nullptr);

} // namespace ave::agent
