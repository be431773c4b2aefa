// `ave-rewrite review`: what a change does to the kernels it touches.
//
// Design
// ------
// Inputs. Both versions are read, never checked out: with git, the base and
// head revisions are resolved to commit ids once and every file is read with
// `git cat-file` (head may also be the index, for a pre-commit hook, or the
// work tree); with --patch, the files under the root are the base and the
// patch is applied in memory. Either way the diff is read by one unified-diff
// parser, and every path is checked (no `..`, no absolute path, no symlink
// out of the root) before any file is read. Git runs without locks and never
// writes, so a read-only checkout works.
//
// What is analysed. The changed .hip/.cu files (renames followed), and the
// source files of either version that include a changed header. Each one is
// parsed once per version through a virtual file system that serves that
// version's files for every path under the root (a header a changed file
// includes comes from the same revision) and refuses paths outside the root
// other than the toolchain's. Parsing is where the time goes, so a PCH of
// the files' leading system includes is shared (a cache that can never
// change a result: PrefixPch.h).
//
// Two passes per version. The obligation pass is check's analysis, proven
// obligations included; the lint pass is lint's clang-tidy checks, whatever
// their names (so a check added to lint later is reviewed too). On base the
// lint pass only runs the checks that found something on head: a finding is
// new when base did not have it, so base's other checks cannot change the
// verdict.
//
// Matching. A result keeps its identity through the diff's line mapping: an
// obligation on a line no hunk touched is the one on the line it moved to;
// one on a rewritten line pairs with one of the same kernel and kind in the
// same change (ResultMatching.h). Proven on base and violated or unproven on
// head is a regression; proven on head and not on base is newly proven.
// Specs are compared on their own (SpecComparison.h): a removed assertion
// or tag, or an assertion whose head predicate does not imply base's (Z3,
// same symbols), is ave-spec-weakened, so a change cannot pass by deleting
// the check it breaks.
//
// Reporting. Each finding is attributed to the change it is on, or to the
// nearest one with a note; severities are error (regressions, new
// violations, new correctness findings, weakened specs, head that does not
// compile), warning (new unproven obligations, bank conflicts) and note;
// `--fail-on` picks the severities that fail the run (errors by default).

#include "ave/review/Review.h"

#include "ave/review/ChangeMap.h"
#include "ave/review/HeadChecks.h"
#include "ave/review/LintPass.h"
#include "ave/review/PathSafety.h"
#include "ave/review/UnitComparison.h"
#include "ave/review/UnitSelection.h"

#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <set>
#include <tuple>

namespace ave::review {

namespace {

// Lint's checks that found something: the only ones base needs to run.
std::optional<std::string> checksThatFired(const UnitRecord &Head) {
  std::set<std::string> Names;
  for (const LintRecord &L : Head.lint)
    Names.insert(L.check);
  if (Names.empty())
    return std::nullopt;
  std::string Glob;
  for (const std::string &N : Names)
    Glob += (Glob.empty() ? "" : ",") + N;
  return Glob;
}

void removeDuplicates(std::vector<Finding> &Findings) {
  std::set<std::tuple<std::string, int, std::string, unsigned, unsigned, std::string>> Seen;
  std::vector<Finding> Kept;
  for (Finding &F : Findings)
    if (Seen.insert({F.check, int(F.kind), F.location.path, F.location.line, F.location.column,
                     F.message})
            .second)
      Kept.push_back(std::move(F));
  Findings = std::move(Kept);
}

class Reviewer {
public:
  explicit Reviewer(const ReviewOptions &Options) : Options(Options) {}

  ReviewRun run() {
    auto Start = std::chrono::steady_clock::now();
    ReviewRun Run;
    std::optional<ChangeSet> Change = loadChange(Options.change, Run.inputError);
    if (!Change)
      return Run;
    ReviewReport &R = Run.report;
    R.root = Change->root;
    R.baseLabel = Change->baseLabel;
    R.headLabel = Change->headLabel;
    UnitSelection Selection = selectUnits(Change->files, *Change->base, *Change->head);
    R.changedHeaders = Selection.changedHeaders;
    R.otherFiles = Selection.otherFiles;
    AnalyzerOptions AO = Options.analyzer;
    if (!AO.pchCacheDir.empty() && isWithin(Change->root, AO.pchCacheDir)) {
      R.notes.push_back("the PCH cache directory is inside the repository: not used");
      AO.pchCacheDir.clear();
    }
    UnitAnalyzer Analyzer(Change->root, AO);
    if (!Analyzer.ok()) {
      Run.inputError = Analyzer.error();
      return Run;
    }
    ChangeMap Map(Change->files);
    std::vector<std::pair<std::string, std::set<std::string>>> HeadUnits;
    for (const ReviewUnit &U : Selection.units) {
      progress(U);
      std::optional<UnitRecord> Head, Base;
      if (U.headPath)
        Head = Analyzer.analyse(*Change->head, *U.headPath, Options.analyzer.lint.checks);
      if (U.basePath)
        Base = Analyzer.analyse(*Change->base, *U.basePath,
                                Head ? checksThatFired(*Head) : std::nullopt);
      if (Base && Head)
        Base->lintRan = true; // the checks that matter ran
      if (Options.verbose)
        llvm::errs() << "ave-rewrite review:   head " << (Head ? Head->millis : 0.0) << " ms, base "
                     << (Base ? Base->millis : 0.0) << " ms\n";
      R.units.push_back(U.headPath ? *U.headPath : *U.basePath);
      ComparisonOptions C;
      C.specTimeoutMs = Options.specTimeoutMs;
      compareUnit(Base ? &*Base : nullptr, Head ? &*Head : nullptr, Map, C, R);
      if (Head && Head->parsed)
        HeadUnits.push_back({*U.headPath, Head->includedFiles});
    }
    releaseLintPassState();
    removeDuplicates(R.findings);
    runOptIn(*Change, HeadUnits, R);
    R.refusedPaths = Analyzer.refusedPaths();
    if (unsigned N = Analyzer.precompiledPrefixes())
      R.notes.push_back(std::to_string(N) + " precompiled include prefix" + (N == 1 ? "" : "es") +
                        " shared by the parses");
    if (unsigned N = Analyzer.reusedPrefixes())
      R.notes.push_back(std::to_string(N) + " precompiled include prefix" + (N == 1 ? "" : "es") +
                        " reused from the cache directory");
    R.sortFindings();
    R.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
    return Run;
  }

private:
  void progress(const ReviewUnit &U) const {
    if (!Options.verbose)
      return;
    llvm::errs() << "ave-rewrite review: analysing " << (U.headPath ? *U.headPath : *U.basePath);
    if (!U.viaHeader.empty())
      llvm::errs() << " (includes " << U.viaHeader << ")";
    llvm::errs() << "\n";
  }

  void runOptIn(ChangeSet &Change,
                const std::vector<std::pair<std::string, std::set<std::string>>> &HeadUnits,
                ReviewReport &R) const {
    if (Options.compile)
      compileHead(Change.root, *Change.head, HeadUnits, Options.analyzer.frontend, R);
    if (!Options.testCommand.empty()) {
      std::vector<std::string> Files;
      for (const auto &[Path, Included] : HeadUnits)
        Files.push_back(Path);
      runTestCommand(Change.root, Options.testCommand, Change.baseLabel, Change.headLabel, Files,
                     R);
    }
  }

  const ReviewOptions &Options;
};

} // namespace

ReviewRun runReview(const ReviewOptions &Options) { return Reviewer(Options).run(); }

} // namespace ave::review
