// `ave-rewrite optimize`: the search loop. Each generation the planner (the
// built-in one, Planner.h, or an external one, ExternalPlanner.h) proposes
// actions for the best members of the lineage (a beam); each action becomes
// a patch through its rewriter (or is a raw patch), goes through every
// verification stage of the rewrite pipeline, and is rated (Evaluation.h).
// A version that is verified and faster than its parent joins the lineage
// (Lineage.h); everything tried is recorded with its outcome, and the
// planner learns from it: rejected parameter sets are not retried, rejection
// reasons steer repairs, the bandit's scores move (BanditState.h). After
// `patience` generations without a new best, the search restarts from an
// earlier member and avoids the recipe families it has been stuck in.
#pragma once

#include "ave/agent/RewritePipeline.h"
#include "ave/optimize/KernelFacts.h"
#include "ave/optimize/Lineage.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ave::opt {

struct OptimizeOptions {
  std::string file, kernel; // kernel empty: the file's only kernel
  std::string evaluate = "static";
  std::uint64_t seed = 1;
  unsigned generations = 5;
  unsigned width = 6;    // candidates per generation
  unsigned beam = 2;     // members that get candidates each generation
  unsigned patience = 2; // generations without a new best before a restart
  unsigned maxCandidates = 0;
  double maxSeconds = 0; // 0: no limit
  std::string lineageRoot = ".ave/lineage";
  // The bandit's scores across runs (BanditState.h): read at the start,
  // written at the end. Empty: each run starts from the knowledge base's
  // priors, so the same file and seed give the same lineage.
  std::string stateFile;
  bool resume = false;
  std::string plannerCommand;
  unsigned plannerTimeout = 300;
  std::string kbDir; // empty: defaultKnowledgeBaseDir()
  // --evaluate bench: each verified candidate is checked and timed against
  // its parent in one bench bundle (the harness's, with the parent as the
  // reference) at `benchShape`. With emitBundleDir the generation's bundles
  // and a run-all script are written there and the run stops; `--resume
  // --results DIR/results` reads them back. Without it they run here.
  std::string benchShape = "M=4096,N=4096,K=4096";
  std::string emitBundleDir, resultsPath;
  // Writes a bundle of Source's Kernel with Reference's as the reference
  // into OutputDir ("" or why not); the CLI supplies it (the harness).
  std::function<std::string(const std::string &Source, const std::string &Reference,
                            const std::string &Kernel, const std::string &OutputDir)>
      writeBundle;
  agent::PipelineOptions pipeline;
  FactsOptions facts;
  std::function<void(const std::string &)> progress; // one line per event
};

struct GenerationFunnel {
  unsigned generation = 0;
  unsigned proposed = 0, rewritten = 0, proven = 0, compiled = 0, tested = 0, faster = 0;
  std::string best; // the best member after the generation
  double bestScore = 1;
  double seconds = 0;
  std::string note; // stagnation restarts, planner fallbacks
};

struct OptimizeResult {
  std::string error; // nothing was searched (bad input); exit 2
  Lineage lineage;
  std::vector<GenerationFunnel> funnel;
  std::string finalPatch; // the best member against the original file
  std::string stopReason;
  double seconds = 0;
};

OptimizeResult optimize(const OptimizeOptions &O);

// "300s", "10m", "1h", "40" (candidates), "10m,40": false and Error on a bad text.
bool parseBudget(const std::string &Text, double &Seconds, unsigned &Candidates,
                 std::string &Error);

} // namespace ave::opt
