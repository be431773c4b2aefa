// What the analysis says about each kernel of one parsed file, copied out as
// plain data while the AST is alive: the obligations with their status, the
// LDS accesses with their bank-conflict degree and their address terms, the
// shared-memory races, and the kernel's LDS footprint. The pipeline takes one
// snapshot of the original and one of the patched text and compares them.
// Address terms are copied into one TermContext that both snapshots share
// (SnapshotOptions::pairingTerms), so the lds-pairing stage can ask one
// solver about the old and the new layout at once.
#pragma once

#include "ave/frontend/Diagnostics.h"
#include "ave/frontend/HipFrontend.h"
#include "ave/invariants/Solver.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace clang {
class FunctionDecl;
}
namespace ave::inv {
class KernelAnalysis;
class TermContext;
class Term;
} // namespace ave::inv

namespace ave::agent {

struct ObligationOutcome {
  std::string kind; // obligationKindName
  std::string summary;
  std::string array; // lds-read-written: the shared array read
  inv::SolverResult::Status status = inv::SolverResult::Unknown;
  std::string message; // violated: the failure; unproven: the reason
  ave::SourcePosition location;
  std::vector<frontend::DiagnosticNote> counterexample;
};

// One enclosing loop of an access, in the shared TermContext: its counter is
// the symbol `loop<id>` and its facts bound it.
struct PairingLoop {
  unsigned id = 0;
  const inv::Term *counter = nullptr;
  std::vector<const inv::Term *> facts;
};

// An access's element index as a term over thread/block ids, parameters and
// loop counters, in the shared TermContext. `address` is null when the
// analysis could not follow it (`unfollowed` says why); guard conjuncts the
// copy cannot express are left out (the proof then covers more executions).
struct PairingAccess {
  const inv::Term *address = nullptr;
  std::string unfollowed;
  std::vector<const inv::Term *> guard;
  std::vector<PairingLoop> loops; // outermost first
};

struct LdsAccessRating {
  std::string array;
  std::string text; // the access as written, e.g. tile[tx][ty]
  ave::SourcePosition location;
  bool isWrite = false;
  unsigned elementBytes = 4;
  std::optional<unsigned> conflictDegree; // nullopt: the bank model could not rate it
  std::string note;
  PairingAccess pairing; // empty unless SnapshotOptions::pairingTerms
};

// Races and divergent barriers carry a key that names the accesses (by
// their position among their array's accesses, which a layout rewrite keeps)
// or the barrier (its position), so findings compare by identity.
struct RaceOutcome {
  std::string array;
  std::string message;
  ave::SourcePosition location;
  std::string key;
};

// An element access in the AST that the analysis did not log (a conditional
// lvalue, code it did not reach): nothing it says covers that access.
struct UnloggedAccess {
  std::string text;
  ave::SourcePosition location;
};

// A `__shared__` array the kernel declares.
struct SharedArrayFootprint {
  std::string name;
  uint64_t elements = 0; // 0 for a dynamic (extern) or dependent array
  uint64_t bytes = 0;
  bool dynamic = false;
  std::vector<UnloggedAccess> unlogged;
  // Uses through a cast to a wider type (`reinterpret_cast<float2 &>(t[r][c])`):
  // their alignment depends on the layout.
  std::vector<UnloggedAccess> vectorAccesses;
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
  std::set<std::string> raceSkipped;          // access keys the race check could not follow
  bool racesChecked = false;
  double analysisMillis = 0;
  std::vector<SharedArrayFootprint> sharedArrays;
  uint64_t staticLdsBytes = 0;
  // Dynamic shared memory: the largest constant size the file's launches of
  // this kernel pass (nullopt: none is a constant, or the kernel has none).
  bool dynamicLds = false;
  std::optional<uint64_t> dynamicLdsBytes;
  // The kernel's facts (thread bounds, assumptions, the launch shape) in the
  // shared TermContext, for the pairing proof.
  std::vector<const inv::Term *> pairingFacts;
  unsigned count(inv::SolverResult::Status S) const;
  const SharedArrayFootprint *array(const std::string &Name) const;
};

struct SnapshotOptions {
  frontend::Target target = frontend::Target::Gfx942;
  unsigned z3TimeoutMs = 10000;
  unsigned timeLimitMs = 10000; // per kernel, ms of solver work (check's --time-limit-ms)
  std::string kernel;           // empty: every kernel of the file
  // Where the LDS address terms are copied to (null: not copied).
  std::shared_ptr<inv::TermContext> pairingTerms;
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
