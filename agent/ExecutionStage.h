// The execution stage (private to agent/): the original and the patched
// kernel run on the CPU executor (runtime/include/ave/hip_on_cpu) at two
// small shapes, one of them an odd multiple, with the same seeded inputs,
// and every tensor they leave is compared bit for bit (or, for rewrites that
// reassociate sums, within the harness's tolerance). It builds on the bench
// bundle of `ave-rewrite harness` (harness/BundleGenerator.h): the bundle's
// problem.h and launchers, plus a driver of its own that launches both
// kernels instead of checking one against the einsum. One prepared bundle
// directory per original kernel is kept in a cache, so after the first run
// only the patched kernel's launcher is compiled again.
#pragma once

#include "VerificationStages.h"
#include "ave/harness/BenchSpec.h"
#include "ave/harness/ShapeBinding.h"
#include "ave/model/KernelModel.h"

#include <optional>
#include <string>
#include <vector>

namespace ave::agent::stages {

// A loop of the kernel whose trip count the sizes decide, `for (v = init;
// v < bound; v += step)` with init and bound over the size parameters: the
// shapes are chosen so that it runs several times (a pipelined loop whose
// tile exists once never runs its prefetch).
struct SizedLoop {
  ann::Expr init, bound;
  bool inclusive = false; // `<=`
  int64_t step = 1;
  unsigned line = 0;
};

// What the stage needs of one kernel of the original, read while its AST
// was alive: the bench spec from its tags and launch pragma, or why there is
// none (then the kernel cannot be executed), and its sized loops.
struct ExecutionSubject {
  std::string kernel;
  std::optional<harness::BenchSpec> spec;
  std::string error;
  std::vector<SizedLoop> loops;
};

// The loops of a kernel model that are SizedLoops over Spec's sizes.
std::vector<SizedLoop> sizedLoops(const model::KernelModel &Model, const harness::BenchSpec &Spec);

// Its trip count at Shape, or nullopt when init or bound does not evaluate.
std::optional<int64_t> tripsAt(const SizedLoop &Loop, const harness::Shape &Shape);

struct ExecutionRequest {
  std::string file; // the original's path (includes next to it resolve)
  std::string original, patched;
  std::vector<ExecutionSubject> subjects;
  KernelArrays rewritten;
  frontend::Target target = frontend::Target::Gfx942;
  bool reassociates = false; // compare within the harness tolerance
  bool required = false;     // a kernel that cannot be executed fails the stage
  std::string cacheDir;      // empty: support::userCacheDir()
  // The patched kernels whose launch the patch changes, with their own spec
  // (the candidate is launched with it); the others run with the original's.
  std::vector<ExecutionSubject> patchedSubjects;
  // Iterations each sized loop of a rewritten kernel should run in at least
  // one of the two shapes (a pipeline of S stages: S + 1).
  unsigned minTrips = 3;
};

StageResult executeEquivalence(const ExecutionRequest &Request);

// Two shapes for the spec: the smallest of a few round sizes that meets its
// `assume` facts, and the odd multiple the harness derives from it. With
// Loops, the first such pair in which every loop runs MinTrips times in one
// of the shapes, unless that costs more than 16 times the sizes' product
// of the plain choice (`shortLoops` then names the loop that runs fewer).
struct ExecutionShapes {
  harness::Shape given, odd;
  std::string error;
  std::string shortLoops;
};
ExecutionShapes chooseExecutionShapes(const harness::BenchSpec &Spec,
                                      const std::vector<SizedLoop> &Loops = {},
                                      unsigned MinTrips = 3);

// The driver that runs both kernels and compares them (ExecutionDriver.cpp).
const std::string &equivalenceDriverSource();

} // namespace ave::agent::stages
