// `ave-rewrite rewrite`: apply LDS-layout rewrites to a kernel file as a
// patch, verified before anything is printed as accepted or written (see
// agent/RewritePipeline.h). The unified diff goes to stdout, the report to
// stderr (or both, as one JSON document, with --format json).

#include "CLI/CLI.hpp"
#include "Commands.h"
#include "ave/agent/RewritePipeline.h"
#include "ave/agent/RewriteReport.h"
#include "ave/agent/TargetCompile.h"
#include "ave/invariants/Solver.h"
#include "ave/rewriters/Registry.h"
#include "ave/rewriters/TestHooks.h"
#include "ave/support/FileUpdate.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ave::cli {

namespace {

struct RewriteOptions {
  std::string file;
  std::string apply;
  std::string kernel;
  std::string output;
  bool diff = false;
  bool inPlace = false;
  bool noBackup = false;
  bool force = false;
  bool noVerify = false;
  bool noNvcc = false;
  bool list = false;
  std::string testCommand, benchCommand;
  unsigned z3TimeoutMs = 10000;
  // A patch is verified once and its kernel is usually larger than the
  // original (a register-tiled, vectorized GEMM has 200 obligations where
  // the tiled one has 19): three times check's default.
  unsigned timeLimitMs = 30000;
  std::string injectBug;
  bool allowUnproven = false;
  std::optional<uint64_t> dynamicLds;
  bool noExecute = false;
  bool requireExecution = false;
  bool noCompile = false;
  bool keepGoing = false;
};

void printRewriterList(bool Json) {
  const rw::RewriterRegistry &Registry = rw::RewriterRegistry::builtin();
  if (Json) {
    nlohmann::json List = nlohmann::json::array();
    for (const rw::Rewriter *R : Registry.all()) {
      nlohmann::json Params = nlohmann::json::array();
      for (const rw::ParameterSpec &P : R->info().parameters)
        Params.push_back({{"name", P.name}, {"default", P.defaultValue}, {"help", P.help}});
      List.push_back(
          {{"name", R->info().name}, {"summary", R->info().summary}, {"parameters", Params}});
    }
    llvm::outs() << nlohmann::json{{"rewriters", List}}.dump(2) << "\n";
    return;
  }
  for (const rw::Rewriter *R : Registry.all()) {
    llvm::outs() << R->info().name << ": " << R->info().summary << "\n";
    for (const rw::ParameterSpec &P : R->info().parameters)
      llvm::outs() << "  " << P.name << "="
                   << (P.defaultValue.empty() ? std::string("<none>") : P.defaultValue) << "  "
                   << P.help << "\n";
  }
}

// Usage errors, found before anything is parsed or written.
std::string usageError(const RewriteOptions &O) {
  if (O.file.empty() || O.apply.empty())
    return "give a FILE and --apply REWRITE[:param=value,...] (--list shows the rewrites)";
  if (O.inPlace + !O.output.empty() + O.diff > 1)
    return "--diff, --in-place and -o exclude each other";
  if (O.noBackup && !O.inPlace)
    return "--no-backup applies only with --in-place";
  if (O.force && !O.inPlace)
    return "--force applies only with --in-place";
  // The same file under another name (a link, ./FILE) counts too.
  if (!O.output.empty() && llvm::sys::fs::equivalent(O.output, O.file))
    return "-o names FILE itself; use --in-place to replace it (it keeps a backup)";
  return "";
}

agent::PipelineOptions pipelineOptions(const GlobalOptions &G, const RewriteOptions &O) {
  agent::PipelineOptions P;
  P.args = G.frontend.args;
  P.buildDir = G.frontend.buildDir;
  P.kernel = O.kernel;
  P.verify = !O.noVerify;
  P.compileNvidia = !O.noNvcc && !O.noCompile;
  P.compileAmd = !O.noCompile;
  P.allowUnproven = O.allowUnproven;
  P.dynamicLdsBytes = O.dynamicLds;
  P.execute = !O.noExecute;
  P.requireExecution = O.requireExecution;
  P.keepGoing = O.keepGoing;
  P.hipOnCudaIncludeDir = agent::defaultHipOnCudaIncludeDir();
  P.testCommand = O.testCommand;
  P.benchCommand = O.benchCommand;
  P.z3TimeoutMs = O.z3TimeoutMs;
  P.timeLimitMs = O.timeLimitMs;
  return P;
}

// The report (and the diff when nothing is written), after the write, so
// that a failed write is never reported as accepted.
void printOutcome(const GlobalOptions &G, const RewriteOptions &O,
                  const agent::RewriteOutcome &Outcome, bool Usable, const std::string &Backup) {
  const bool Written = Usable && Outcome.writeError.empty() && (O.inPlace || !O.output.empty());
  if (G.format == OutputFormat::Json) {
    nlohmann::json Doc = agent::reportJson(Outcome);
    if (!Usable)
      Doc["diff"] = "";
    if (!Outcome.writeError.empty())
      Doc["write_error"] = Outcome.writeError;
    if (Written)
      Doc["written"] = O.inPlace ? O.file : O.output;
    if (Written && !Backup.empty())
      Doc["backup"] = Backup;
    llvm::outs() << Doc.dump(2) << "\n";
    return;
  }
  if (Usable && !O.inPlace && O.output.empty())
    llvm::outs() << Outcome.diff;
  agent::printReport(llvm::errs(), Outcome);
  if (Written)
    llvm::errs() << "wrote " << (O.inPlace ? O.file : O.output)
                 << (Backup.empty() ? "" : " (original kept as " + Backup + ")") << "\n";
}

// --inject-bug's spellings (test-only: TestHooks.h).
const std::map<std::string, rw::testing::InjectedBug> &injectedBugs() {
  using rw::testing::InjectedBug;
  static const std::map<std::string, InjectedBug> Bugs = {
      {"swizzle-writes-only", InjectedBug::SwizzleWritesOnly},
      {"accept-escapes", InjectedBug::AcceptEscapes},
      {"drop-barrier", InjectedBug::DropBarrier},
      {"pipeline-no-prologue", InjectedBug::PipelineNoPrologue},
      {"pipeline-wrong-tile", InjectedBug::PipelineWrongTile},
      {"pipeline-writes-read-stage", InjectedBug::PipelineWritesReadStage},
      {"pipeline-drops-barrier", InjectedBug::PipelineDropsBarrier},
      {"unroll-drops-remainder", InjectedBug::UnrollDropsRemainder},
      {"register-tile-wrong-offset", InjectedBug::RegisterTileWrongOffset},
      {"vectorize-off-by-one", InjectedBug::VectorizeOffByOne},
      {"matrix-core-wrong-lane-a", InjectedBug::MatrixCoreWrongLaneA},
      {"matrix-core-b-not-transposed", InjectedBug::MatrixCoreBNotTransposed},
      {"matrix-core-wrong-output-lane", InjectedBug::MatrixCoreWrongOutputLane},
      {"matrix-core-warp-tile-offset", InjectedBug::MatrixCoreWarpTileOffset}};
  return Bugs;
}

std::vector<std::string> injectedBugNames() {
  std::vector<std::string> Names;
  for (const auto &[Name, Bug] : injectedBugs())
    Names.push_back(Name);
  return Names;
}

int runRewrite(const GlobalOptions &G, const RewriteOptions &O) {
  if (O.list) {
    printRewriterList(G.format == OutputFormat::Json);
    return 0;
  }
  inv::warmSolversInBackground(); // while the file parses
  auto Fail = [](const std::string &Message) {
    llvm::errs() << "ave-rewrite rewrite: error: " << Message << "\n";
    return 2;
  };
  if (std::string Usage = usageError(O); !Usage.empty())
    return Fail(Usage);
  rw::ParsedSpecs Specs = rw::parseRewriteSpecs(O.apply, rw::RewriterRegistry::builtin());
  if (!Specs.error.empty())
    return Fail(Specs.error);
  if (!O.injectBug.empty())
    rw::testing::injectBug(injectedBugs().at(O.injectBug));

  // --in-place: lock and read the file now; it is written only if it is
  // still what was read when the patch is accepted (support/FileUpdate.h).
  std::string OpenError;
  std::optional<support::FileUpdate> Update =
      O.inPlace ? support::FileUpdate::open(O.file, {!O.noBackup, O.force}, OpenError)
                : std::nullopt;
  if (O.inPlace && !Update)
    return Fail(OpenError);
  agent::PipelineOptions P = pipelineOptions(G, O);
  if (Update)
    P.text = &Update->text();
  agent::RewriteOutcome Outcome = agent::rewriteAndVerify(O.file, Specs.specs, P);

  const bool Usable =
      Outcome.error.empty() && Outcome.changed() && (Outcome.verified || O.noVerify);
  if (Usable && Update)
    Outcome.writeError = Update->commit(Outcome.patched);
  else if (Usable && !O.output.empty())
    Outcome.writeError = support::writeFileSafely(O.output, Outcome.patched);
  printOutcome(G, O, Outcome, Usable, Update ? Update->backupPath() : "");
  if (!Outcome.writeError.empty())
    return Fail(Outcome.writeError);
  if (!Outcome.error.empty())
    return 2;
  return Usable ? 0 : 1;
}

} // namespace

void registerRewriteCommand(CLI::App &App, GlobalOptions &G, SelectedCommand &Selected) {
  auto O = std::make_shared<RewriteOptions>();
  CLI::App *Cmd = App.add_subcommand(
      "rewrite", "Apply rewrites (lds-pad, lds-swizzle, pipeline) as a verified patch");
  Cmd->add_option("file", O->file, "HIP source file");
  Cmd->add_option(
      "--apply", O->apply,
      "Rewrites to apply in order: name[:param=value...][,name...], e.g. lds-pad:pad=1");
  Cmd->add_option("--kernel", O->kernel, "Only this kernel (default: every kernel in the file)");
  Cmd->add_flag("--diff", O->diff, "Print the patch as a unified diff (the default)");
  Cmd->add_flag("--in-place", O->inPlace,
                "Write the patched file over FILE, if FILE did not change meanwhile (keeps the "
                "original as FILE.orig, or FILE.orig.1, ... when that exists)");
  Cmd->add_flag("--no-backup", O->noBackup, "With --in-place: do not keep the original");
  Cmd->add_flag("--force", O->force, "With --in-place: write FILE even if it is read-only");
  Cmd->add_option("-o,--output", O->output, "Write the patched file to OUT");
  Cmd->add_flag("--no-verify", O->noVerify, "Skip verification (the report says so)");
  Cmd->add_flag("--no-nvcc", O->noNvcc, "Do not compile for sm_90 even when nvcc is installed");
  Cmd->add_flag("--list", O->list, "List the rewrites and their parameters");
  Cmd->add_option("--test-cmd", O->testCommand,
                  "Shell command that must succeed on the patched copy ($AVE_PATCHED_FILE)");
  Cmd->add_option("--bench-cmd", O->benchCommand,
                  "Shell command run last on the patched copy ($AVE_PATCHED_FILE)");
  Cmd->add_option("--z3-timeout-ms", O->z3TimeoutMs, "Per-query solver budget (ms of solver work)")
      ->capture_default_str();
  Cmd->add_option("--time-limit-ms", O->timeLimitMs,
                  "Per-kernel limit on solving, in ms of solver work, for each analysis of the "
                  "original and the patched file (as check's, whose default is 10000)")
      ->capture_default_str();
  Cmd->add_flag("--allow-unproven", O->allowUnproven,
                "Accept a rewrite of a kernel whose original has unproven obligations (the "
                "report marks it)");
  Cmd->add_option("--dynamic-lds", O->dynamicLds,
                  "Bytes of dynamic shared memory the kernel is launched with (for the capacity "
                  "check when no launch in the file says)");
  Cmd->add_flag("--no-execute", O->noExecute,
                "Skip the execution stage (original and patched kernel on the CPU executor)");
  Cmd->add_flag("--require-execution", O->requireExecution,
                "Fail the execution stage when a rewritten kernel cannot be executed");
  Cmd->add_flag("--no-compile", O->noCompile, "Skip the gfx942 and sm_90 compile stages");
  Cmd->add_flag("--keep-going", O->keepGoing,
                "Run every stage even after one failed (per-kernel results)");
  // Test-only: proves the pipeline rejects a rewrite that breaks the data flow.
  Cmd->add_option("--inject-bug", O->injectBug)
      ->check(CLI::IsMember(injectedBugNames()))
      ->group("");
  Cmd->callback([&G, &Selected, O] { Selected = [&G, O] { return runRewrite(G, *O); }; });
}

} // namespace ave::cli
