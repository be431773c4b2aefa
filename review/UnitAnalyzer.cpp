#include "ave/review/UnitAnalyzer.h"

#include "ave/review/LintPass.h"
#include "ave/review/ObligationPass.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

namespace ave::review {

UnitAnalyzer::UnitAnalyzer(std::string RootArg, AnalyzerOptions OptionsArg)
    : Root(std::move(RootArg)), Options(std::move(OptionsArg)), Commands(Options.frontend),
      Pch(Root, Options.pchCacheDir), Refused(std::make_shared<RefusedPaths>()) {}

namespace {

double millisSince(std::chrono::steady_clock::time_point Start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - Start)
      .count();
}

bool hasAnnotationErrors(const UnitRecord &U) {
  for (const KernelRecord &K : U.kernels)
    if (!K.annotationErrors.empty())
      return true;
  return false;
}

bool hasAnnotationFindings(const UnitRecord &U) {
  for (const LintRecord &L : U.lint)
    if (L.check == "ave-annotation")
      return true;
  return false;
}

} // namespace

UnitRecord UnitAnalyzer::analyse(SourceTree &Tree, const std::string &Path,
                                 const std::optional<std::string> &LintChecks) {
  auto Start = std::chrono::steady_clock::now();
  UnitRecord Unit;
  Unit.path = Path;
  std::string Error;
  std::optional<std::string> Text = Tree.read(Path, Error);
  if (!Text) {
    Unit.parseErrors = Error;
    return Unit;
  }
  ParseInputs In;
  In.file = Root + "/" + Path;
  In.command = Commands.forFile(In.file, Root);
  std::vector<std::string> Allowed = defaultAllowedOutside();
  for (const std::string &Dir : commandIncludeDirs(In.command))
    Allowed.push_back(Dir);
  if (Options.precompiledPrefix) {
    auto T = std::chrono::steady_clock::now();
    unsigned Before = Pch.built();
    In.pch = Pch.pchFor(*Text, In.command, Tree);
    if (Pch.built() != Before && Options.verbose)
      llvm::errs() << "ave-rewrite review:   precompiled the include prefix of " << Path << " in "
                   << llvm::format("%.0f", millisSince(T)) << " ms\n";
    if (!In.pch.empty())
      Allowed.push_back(Pch.directory());
  }
  In.fs = makeRevisionFileSystem(Root, Tree, Allowed, Refused);

  auto Log = [&](const char *Pass, bool Precompiled, std::chrono::steady_clock::time_point T) {
    if (Options.verbose)
      llvm::errs() << "ave-rewrite review:   " << Tree.label() << ": " << Path << ": " << Pass
                   << (Precompiled ? " (precompiled prefix)" : "") << " "
                   << llvm::format("%.0f", millisSince(T)) << " ms\n";
  };
  auto T = std::chrono::steady_clock::now();
  ParseOutcome O = runObligationPass(In, Root, Options.analysis, Unit);
  Log("obligations", !In.pch.empty(), T);
  if (!In.pch.empty() && (!O.ok || hasAnnotationErrors(Unit))) {
    UnitRecord Again;
    Again.path = Path;
    ParseInputs Plain = In;
    Plain.pch.clear();
    T = std::chrono::steady_clock::now();
    ParseOutcome Plainly = runObligationPass(Plain, Root, Options.analysis, Again);
    Log("obligations again", false, T);
    if (!O.ok && Plainly.ok)
      Pch.discard(In.pch);
    Unit = std::move(Again);
  }
  if (LintChecks && Unit.parsed) {
    LintPassOptions L = Options.lint;
    L.checks = *LintChecks;
    UnitRecord Lint;
    T = std::chrono::steady_clock::now();
    ParseOutcome LO = runLintPass(In, Root, L, Lint);
    Log("lint", !In.pch.empty(), T);
    if (!In.pch.empty() && (!LO.ok || hasAnnotationFindings(Lint))) {
      Lint = UnitRecord();
      ParseInputs Plain = In;
      Plain.pch.clear();
      T = std::chrono::steady_clock::now();
      runLintPass(Plain, Root, L, Lint);
      Log("lint again", false, T);
    }
    Unit.lint = std::move(Lint.lint);
    Unit.lintRan = true;
  }
  // Clang names files by absolute path; reports name them from the root.
  for (size_t At; (At = Unit.parseErrors.find(Root + "/")) != std::string::npos;)
    Unit.parseErrors.erase(At, Root.size() + 1);
  Unit.millis = millisSince(Start);
  return Unit;
}

} // namespace ave::review
