// `ave-rewrite optimize FILE`: the search over verified rewrites
// (optimize/Optimizer.h). Prints a progress line per candidate and
// generation on stderr, the report on stdout (text, or --format json), and
// writes the lineage and its reports under --lineage-dir. The user's file
// changes only with --apply, through support/FileUpdate.h (locked while the
// search runs, written only if unchanged, the original kept as FILE.orig).

#include "CLI/CLI.hpp"
#include "Commands.h"
#include "ave/agent/TargetCompile.h"
#include "ave/optimize/OptimizeReport.h"
#include "ave/optimize/Optimizer.h"
#include "ave/support/FileUpdate.h"

#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <optional>

namespace ave::cli {

namespace {

struct OptimizeCliOptions {
  opt::OptimizeOptions search;
  std::string budget;
  bool apply = false, noBackup = false, noNvcc = false, allowUnproven = false;
  ReferenceFunctionOptions function; // --evaluate bench: what the bundles check against
  unsigned z3TimeoutMs = 10000, timeLimitMs = 30000;
};

void configure(const GlobalOptions &G, OptimizeCliOptions &C) {
  opt::OptimizeOptions &O = C.search;
  agent::PipelineOptions &P = O.pipeline;
  P.args = G.frontend.args;
  P.buildDir = G.frontend.buildDir;
  P.compileNvidia = !C.noNvcc;
  P.allowUnproven = C.allowUnproven;
  P.requireExecution = true; // every accepted version was run against its parent
  P.hipOnCudaIncludeDir = agent::defaultHipOnCudaIncludeDir();
  P.z3TimeoutMs = C.z3TimeoutMs;
  P.timeLimitMs = C.timeLimitMs;
  O.facts.args = G.frontend.args;
  O.facts.z3TimeoutMs = C.z3TimeoutMs;
  O.facts.timeLimitMs = C.timeLimitMs;
  O.progress = [](const std::string &Line) {
    llvm::errs() << Line << "\n";
    llvm::errs().flush();
  };
}

void printText(const opt::OptimizeOptions &O, const opt::OptimizeResult &R) {
  const opt::Member &Best = R.lineage.best();
  llvm::outs() << "optimize " << O.file << ": " << R.lineage.members().size()
               << " verified versions from " << R.lineage.attempts().size() << " candidates in "
               << R.funnel.size() << " generations (" << R.stopReason << ")\n";
  for (const opt::Member *M : opt::ancestry(R.lineage, Best.id)) {
    llvm::outs() << "  " << M->id << "  x" << llvm::format("%.2f", M->score) << "  "
                 << (M->action ? M->action->apply() : std::string("(original)"));
    if (M->action && M->action->isPatch())
      llvm::outs() << "patch: " << M->action->summary;
    llvm::outs() << "  [" << M->metrics.value("bound", std::string()) << "-bound, " << M->proof
                 << "]\n";
  }
  llvm::outs() << "lineage and report: " << R.lineage.dir() << "/report.md\n";
  if (Best.id != "g0")
    llvm::outs() << R.finalPatch;
}

int runOptimize(const GlobalOptions &G, OptimizeCliOptions &C) {
  configure(G, C);
  opt::OptimizeOptions &O = C.search;
  std::string Error;
  if (!C.budget.empty() && !opt::parseBudget(C.budget, O.maxSeconds, O.maxCandidates, Error))
    return llvm::errs() << "ave-rewrite: error: " << Error << "\n", 2;
  if (O.evaluate != "bench" && !(O.emitBundleDir + O.resultsPath).empty())
    return llvm::errs() << "ave-rewrite: error: --emit-bundle and --results need --evaluate "
                           "bench\n",
           2;
  if (!O.resultsPath.empty() && !O.resume)
    return llvm::errs() << "ave-rewrite: error: --results continues a lineage: add --resume\n", 2;
  O.writeBundle = [&G, &O, &C](const std::string &Source, const std::string &Reference,
                               const std::string &Kernel, const std::string &Out) {
    return writeReferencedBundle(G, Source, Kernel, O.benchShape, C.function, Reference, Out);
  };
  std::optional<support::FileUpdate> Update =
      C.apply ? support::FileUpdate::open(O.file, {!C.noBackup, false}, Error) : std::nullopt;
  if (C.apply && !Update)
    return llvm::errs() << "ave-rewrite: error: " << Error << "\n", 2;
  opt::OptimizeResult R = opt::optimize(O);
  if (!R.error.empty())
    return llvm::errs() << "ave-rewrite: error: " << R.error << "\n", 2;
  if (std::string Why = opt::writeReports(O, R); !Why.empty())
    llvm::errs() << "ave-rewrite: error: " << Why << "\n";
  if (G.format == OutputFormat::Json)
    llvm::outs() << opt::reportJson(O, R).dump(2) << "\n";
  else
    printText(O, R);
  const bool Better = R.lineage.best().id != "g0";
  if (Update && Better) {
    if (std::string Why = Update->commit(R.lineage.best().text); !Why.empty())
      return llvm::errs() << "ave-rewrite: error: " << Why << "\n", 2;
    llvm::errs() << "applied to " << O.file
                 << (Update->backupPath().empty()
                         ? ""
                         : " (original kept as " + Update->backupPath() + ")")
                 << "\n";
  }
  return Better ? 0 : 1;
}

} // namespace

void registerOptimizeCommand(CLI::App &App, GlobalOptions &G, SelectedCommand &Selected) {
  auto C = std::make_shared<OptimizeCliOptions>();
  opt::OptimizeOptions &O = C->search;
  CLI::App *Cmd = App.add_subcommand(
      "optimize", "Search over verified rewrites for a faster kernel (planner + lineage)");
  Cmd->add_option("file", O.file, "HIP source file")->required();
  Cmd->add_option("--kernel", O.kernel, "The kernel to optimize (default: the file's only one)");
  Cmd->add_option("--evaluate", O.evaluate,
                  "static: the gfx942 cost model (no GPU, deterministic); bench: this host's GPU")
      ->check(CLI::IsMember({"static", "bench"}))
      ->capture_default_str();
  Cmd->add_option("--seed", O.seed, "Seed of the planner's tie-breaking")->capture_default_str();
  Cmd->add_option("--generations", O.generations, "Generations at most")->capture_default_str();
  Cmd->add_option("--width", O.width, "Candidates per generation")->capture_default_str();
  Cmd->add_option("--beam", O.beam, "Lineage members that get candidates each generation")
      ->capture_default_str();
  Cmd->add_option("--patience", O.patience,
                  "Generations without a new best before restarting from an earlier member")
      ->capture_default_str();
  Cmd->add_option("--budget", C->budget,
                  "Stop after TIME (300s, 10m, 1h) and/or N candidates: e.g. 10m,40");
  Cmd->add_option("--lineage-dir", O.lineageRoot, "Where lineages live (<dir>/<kernel>/)")
      ->capture_default_str();
  Cmd->add_option("--state", O.stateFile,
                  "Learn across runs: start from the planner's scores in FILE (e.g. "
                  ".ave/planner-state.json) and write them back at the end");
  Cmd->add_flag("--resume", O.resume, "Continue the kernel's lineage in --lineage-dir");
  Cmd->add_flag("--apply", C->apply,
                "Write the best version over FILE (kept as FILE.orig) if it is still as read");
  Cmd->add_flag("--no-backup", C->noBackup, "With --apply: do not keep the original");
  Cmd->add_option("--planner-cmd", O.plannerCommand,
                  "An external planner (docs/planner-protocol.md), run by /bin/sh");
  Cmd->add_option("--planner-timeout", O.plannerTimeout, "Seconds per planner answer")
      ->capture_default_str();
  Cmd->add_option("--shape", O.benchShape, "--evaluate bench: the sizes the bundles time")
      ->capture_default_str();
  // The bundles' reference function, as for `harness` (--param, --einsum
  // attention, --route ...): an attention or MoE kernel's bundle needs it.
  addReferenceFunctionOptions(*Cmd, C->function);
  Cmd->add_option("--emit-bundle", O.emitBundleDir,
                  "--evaluate bench: write the generation's bench bundles and run_all.sh here "
                  "and stop (run them on a GPU host, then --resume --results DIR/results)");
  Cmd->add_option("--results", O.resultsPath,
                  "--evaluate bench with --resume: the emitted generation's results (a folder "
                  "of <id>.json, or one JSON object keyed by id)");
  Cmd->add_option("--kb", O.kbDir, "Knowledge-base folder (default: agent/kb of this tree)");
  Cmd->add_flag("--allow-unproven", C->allowUnproven,
                "Accept rewrites of a kernel whose original has unproven obligations");
  Cmd->add_flag("--no-nvcc", C->noNvcc, "Do not compile candidates for sm_90");
  Cmd->add_option("--z3-timeout-ms", C->z3TimeoutMs, "Per-query solver budget")
      ->capture_default_str();
  Cmd->add_option("--time-limit-ms", C->timeLimitMs, "Per-kernel solving limit per analysis")
      ->capture_default_str();
  Cmd->footer("Exit codes: 0 a faster verified version was found (and written, with --apply); "
              "1 none was; 2 usage or input error.");
  Cmd->callback([&G, &Selected, C] { Selected = [&G, C] { return runOptimize(G, *C); }; });
}

} // namespace ave::cli
