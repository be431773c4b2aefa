#include "ave/review/UnitAnalyzer.h"

#include "ave/review/LintPass.h"
#include "ave/review/ObligationPass.h"

#include <chrono>

namespace ave::review {

UnitAnalyzer::UnitAnalyzer(std::string RootArg, AnalyzerOptions OptionsArg)
    : Root(std::move(RootArg)), Options(std::move(OptionsArg)), Commands(Options.frontend),
      Pch(Root), Refused(std::make_shared<RefusedPaths>()) {}

namespace {

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
  if (Options.precompiledPrefix) {
    In.pch = Pch.pchFor(*Text, In.command, Tree);
    if (!In.pch.empty())
      Allowed.push_back(Pch.directory());
  }
  In.fs = makeRevisionFileSystem(Root, Tree, Allowed, Refused);

  ParseOutcome O = runObligationPass(In, Root, Options.analysis, Unit);
  if (!In.pch.empty() && (!O.ok || hasAnnotationErrors(Unit))) {
    UnitRecord Again;
    Again.path = Path;
    ParseInputs Plain = In;
    Plain.pch.clear();
    runObligationPass(Plain, Root, Options.analysis, Again);
    Unit = std::move(Again);
  }
  if (LintChecks && Unit.parsed) {
    LintPassOptions L = Options.lint;
    L.checks = *LintChecks;
    UnitRecord Lint;
    ParseOutcome LO = runLintPass(In, Root, L, Lint);
    if (!In.pch.empty() && (!LO.ok || hasAnnotationFindings(Lint))) {
      Lint = UnitRecord();
      ParseInputs Plain = In;
      Plain.pch.clear();
      runLintPass(Plain, Root, L, Lint);
    }
    Unit.lint = std::move(Lint.lint);
    Unit.lintRan = true;
  }
  Unit.millis =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - Start).count();
  return Unit;
}

} // namespace ave::review
