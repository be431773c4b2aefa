// `ave-rewrite review`: compare a change's head with its base (git revisions
// or a patch) and report regressions, weakened specs and new lint findings
// (the review library, review/, does the work; this file is the command
// line and the output).

#include "CLI/CLI.hpp"
#include "Commands.h"
#include "ave/frontend/PreambleCache.h"
#include "ave/invariants/Solver.h"
#include "ave/review/Review.h"
#include "ave/review/ReviewOutput.h"
#include "ave/support/AtomicWrite.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

namespace ave::cli {

namespace {

struct ReviewArgs {
  std::string base, head, patch, root, format, output, summary, failOn = "error";
  std::string checks = "ave-*", testCommand, pchCache;
  int strip = -1;
  bool cached = false, compile = false, noImplicit = false, noPch = false, verbose = false;
  unsigned z3TimeoutMs = 10000, lintZ3TimeoutMs = 1000;
  std::vector<std::string> paths;
};

// Writes Text to Path through a temporary file and a rename.
bool writeAtomically(const std::string &Path, const std::string &Text, std::string &Error) {
  if (std::error_code EC = support::writeFileAtomically(Path, Text)) {
    Error = "cannot write '" + Path + "': " + EC.message();
    return false;
  }
  return true;
}

std::string usageProblem(const ReviewArgs &A) {
  if (A.base.empty() == A.patch.empty())
    return "give either --base REV (a git repository) or --patch FILE";
  if (!A.patch.empty() && (!A.head.empty() || A.cached))
    return "--head and --cached go with --base, not with --patch";
  if (!A.base.empty() && (!A.root.empty() || A.strip >= 0))
    return "--root and --strip go with --patch, not with --base";
  if (A.cached && !A.head.empty())
    return "--cached (review the index) and --head REV exclude each other";
  return "";
}

bool parseFailOn(const std::string &Text, std::set<review::Severity> &Out) {
  if (Text == "none")
    return true;
  llvm::SmallVector<llvm::StringRef, 3> Parts;
  llvm::StringRef(Text).split(Parts, ',');
  for (llvm::StringRef P : Parts) {
    std::optional<review::Severity> S = review::parseSeverity(P.trim());
    if (!S)
      return false;
    Out.insert(*S);
  }
  return !Out.empty();
}

review::ReviewOptions reviewOptions(const GlobalOptions &G, const ReviewArgs &A) {
  review::ReviewOptions O;
  llvm::SmallString<256> Cwd;
  llvm::sys::fs::current_path(Cwd);
  O.change.currentDirectory = std::string(Cwd);
  O.change.base = A.base;
  O.change.head = A.head;
  O.change.cached = A.cached;
  O.change.patchFile = A.patch;
  O.change.patchRoot = A.root;
  O.change.strip = A.strip;
  O.change.paths = A.paths;
  O.analyzer.frontend = G.frontend;
  O.analyzer.analysis.z3TimeoutMs = A.z3TimeoutMs;
  O.analyzer.analysis.implicitInvariants = !A.noImplicit;
  O.analyzer.analysis.waveSize = frontend::targetInfo(G.frontend.args.target).waveSize;
  O.analyzer.lint.checks = A.checks;
  O.analyzer.lint.target = G.frontend.args.target;
  O.analyzer.lint.z3TimeoutMs = A.lintZ3TimeoutMs;
  // --pch-cache, else the preamble cache's directory ($AVE_PCH_CACHE, the
  // global --cache-dir; "off" or --no-cache: no precompiled prefix at all,
  // as for every parse; frontend/PreambleCache.h); made absolute (review
  // runs git from the root).
  std::string Cache = A.pchCache;
  const char *Env = std::getenv("AVE_PCH_CACHE");
  bool Off = Env && llvm::StringRef(Env) == "off";
  O.analyzer.precompiledPrefix = !A.noPch && !Off;
  if (Cache.empty() && !Off)
    Cache = frontend::preambleCacheDir();
  if (!Cache.empty()) {
    llvm::SmallString<256> Abs(Cache);
    llvm::sys::fs::make_absolute(Abs);
    llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
    O.analyzer.pchCacheDir = std::string(Abs);
  }
  O.specTimeoutMs = A.z3TimeoutMs;
  O.compile = A.compile;
  O.testCommand = A.testCommand;
  O.verbose = A.verbose;
  O.analyzer.verbose = A.verbose;
  return O;
}

int runReviewCommand(const GlobalOptions &G, const ReviewArgs &A) {
  if (std::string Problem = usageProblem(A); !Problem.empty()) {
    llvm::errs() << "ave-rewrite review: error: " << Problem << "\n";
    return 2;
  }
  inv::warmSolversInBackground(); // while the files parse
  std::set<review::Severity> FailOn;
  if (!parseFailOn(A.failOn, FailOn)) {
    llvm::errs() << "ave-rewrite review: error: --fail-on takes error, warning, note (comma "
                    "separated) or none, not '"
                 << A.failOn << "'\n";
    return 2;
  }
  std::string FormatName = A.format;
  if (FormatName.empty())
    FormatName = G.format == OutputFormat::Json    ? "json"
                 : G.format == OutputFormat::Sarif ? "sarif"
                                                   : "text";
  review::ReviewFormat Format = *review::parseReviewFormat(FormatName);

  review::ReviewRun Run = review::runReview(reviewOptions(G, A));
  if (!Run.inputError.empty()) {
    llvm::errs() << "ave-rewrite review: error: " << Run.inputError << "\n";
    return 2;
  }
  review::OutputOptions Out;
  Out.failOn = FailOn;
  Out.toolVersion = AVE_VERSION;
  std::string Text = review::render(Format, Run.report, Out), Error;
  if (A.output.empty())
    llvm::outs() << Text;
  else if (!writeAtomically(A.output, Text, Error)) {
    llvm::errs() << "ave-rewrite review: error: " << Error << "\n";
    return 2;
  }
  if (!A.summary.empty() &&
      !writeAtomically(A.summary, review::renderMarkdown(Run.report, Out), Error)) {
    llvm::errs() << "ave-rewrite review: error: " << Error << "\n";
    return 2;
  }
  llvm::outs().flush();
  if (Format != review::ReviewFormat::Text || !A.output.empty())
    llvm::errs() << "ave-rewrite review: " << review::summaryLine(Run.report) << "\n";
  return Run.report.fails(FailOn) ? 1 : 0;
}

} // namespace

void registerReviewCommand(CLI::App &App, GlobalOptions &G, SelectedCommand &Selected) {
  auto A = std::make_shared<ReviewArgs>();
  CLI::App *Review = App.add_subcommand(
      "review", "Check that a change (git revisions or a patch) keeps every invariant: "
                "regressions, weakened specs and new lint findings, with counterexamples");
  Review->add_option("paths", A->paths, "Limit the review to these files or directories");
  Review->add_option("--base", A->base, "Base revision (git input)");
  Review->add_option("--head", A->head, "Head revision (default: the work tree)");
  Review->add_flag("--cached", A->cached, "Head is the index (for a pre-commit hook)");
  Review->add_option("--patch", A->patch, "A unified diff to review against the files on disk");
  Review->add_option("--root", A->root, "With --patch: the directory the patch applies to")
      ->check(CLI::ExistingDirectory);
  Review->add_option("--strip", A->strip, "With --patch: leading path components to remove");
  Review->add_option("--format", A->format, "text, markdown, github, sarif or json")
      ->check(CLI::IsMember({"text", "markdown", "github", "sarif", "json"}));
  Review->add_option("-o,--output", A->output, "Write the report to FILE instead of stdout");
  Review->add_option("--summary", A->summary, "Also write the markdown summary to FILE");
  Review
      ->add_option("--fail-on", A->failOn,
                   "Severities that make the exit code 1: error,warning,note or none")
      ->capture_default_str();
  Review->add_option("--checks", A->checks, "Lint checks to compare (clang-tidy glob)")
      ->capture_default_str();
  Review
      ->add_option("--z3-timeout-ms", A->z3TimeoutMs,
                   "Per-query solver budget, ms of solver work (obligations)")
      ->capture_default_str();
  Review
      ->add_option("--lint-z3-timeout-ms", A->lintZ3TimeoutMs,
                   "Per-query solver timeout of the lint checks")
      ->capture_default_str();
  Review->add_flag("--no-implicit", A->noImplicit, "Only the explicit asserts");
  Review->add_flag("--no-pch", A->noPch, "Do not share a precompiled include prefix");
  Review->add_option("--pch-cache", A->pchCache,
                     "Keep precompiled include prefixes in DIR for later runs "
                     "(default: the preamble cache, --cache-dir/pch or $AVE_PCH_CACHE)");
  Review->add_flag("--compile", A->compile,
                   "Also compile head for the target (unsafe for untrusted changes)");
  Review->add_option("--test-cmd", A->testCommand,
                     "Also run this shell command in the root (unsafe for untrusted changes)");
  Review->add_flag("-v,--verbose", A->verbose, "Progress on stderr");
  Review->callback([&G, &Selected, A] { Selected = [&G, A] { return runReviewCommand(G, *A); }; });
}

} // namespace ave::cli
