// `ave-rewrite check`: prove every explicit and implicit invariant of each
// annotated kernel, or print a counterexample.

#include "CLI/CLI.hpp"
#include "Commands.h"
#include "ave/annotations/KernelAnnotations.h"
#include "ave/invariants/KernelAnalysis.h"
#include "ave/invariants/ObligationFinding.h"
#include "ave/invariants/Solver.h"
#include "ave/invariants/lds/LaunchContext.h"
#include "ave/invariants/lds/SharedMemoryObligations.h"
#include "ave/lint/OutputFormats.h"
#include "ave/model/ModelBuilder.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

namespace ave::cli {

namespace {

lint::LintLocation lintLocation(const ave::SourcePosition &P, unsigned Length) {
  lint::LintLocation L;
  if (!P.valid())
    return L;
  llvm::SmallString<256> Path(P.file);
  llvm::sys::fs::make_absolute(Path);
  L.file = std::string(Path);
  L.line = L.endLine = P.line;
  L.column = P.column;
  L.endColumn = P.column + std::max(Length, 1u);
  return L;
}

// The same SARIF 2.1.0 as `lint --format sarif` (rules, repository-relative
// locations, fingerprints, counterexample notes as related locations).
nlohmann::json checkSarif(const frontend::DiagnosticSink &Sink,
                          const std::vector<std::string> &Files) {
  lint::LintResult Result;
  Result.files = Files;
  for (const frontend::Diagnostic &D : Sink.all()) {
    lint::LintDiagnostic L;
    L.check = D.check.empty() ? "ave-rewrite" : D.check;
    L.level = D.severity == frontend::Severity::Error     ? "error"
              : D.severity == frontend::Severity::Warning ? "warning"
                                                          : "remark";
    L.message = D.message;
    L.location = lintLocation(D.location, D.rangeLength);
    // A note with no place of its own (the counterexample's values) is
    // about the finding itself, as lint reports it.
    for (const frontend::DiagnosticNote &N : D.notes)
      L.notes.push_back({N.message, N.location.valid() ? lintLocation(N.location, 0) : L.location});
    Result.diagnostics.push_back(std::move(L));
  }
  lint::SarifOptions Options;
  Options.toolVersion = AVE_VERSION;
  Options.sourceRoot = lint::findSourceRoot(".");
  return lint::toSarif(Result, Options);
}

nlohmann::json pointJson(const ave::SourcePosition &P) {
  if (!P.valid())
    return nullptr;
  return {{"file", P.file}, {"line", P.line}, {"column", P.column}};
}

} // namespace

namespace {

// One `check` run: every annotated kernel of every file, collected as
// diagnostics (worded by inv::findingOf, as lint's ave-invariant is) and as
// the JSON document.
class CheckRun {
public:
  CheckRun(const GlobalOptions &G, const CheckOptions &C) : Options(C) {
    AOpts.z3TimeoutMs = C.z3TimeoutMs;
    AOpts.kernelTimeLimitMs = C.timeLimitMs;
    AOpts.implicitInvariants = C.implicitInvariants;
    AOpts.waveSize = frontend::targetInfo(G.frontend.args.target).waveSize;
    Lockstep = frontend::targetInfo(G.frontend.args.target).lockstepWavefronts;
  }
  void checkUnit(frontend::ParsedUnit &U);
  int finish(const GlobalOptions &G, const frontend::FrontendResult &R,
             const std::vector<std::string> &Files);

private:
  void checkKernel(frontend::ParsedUnit &U, const ann::KernelAnnotations &A);
  nlohmann::json obligationJson(const clang::SourceManager &SM, const inv::ObligationResult &O);

  const CheckOptions &Options;
  inv::AnalysisOptions AOpts;
  bool Lockstep = true;
  std::vector<model::LaunchSite> UnitLaunches; // the current unit's, found once
  frontend::DiagnosticSink Sink;
  nlohmann::json KernelsJson = nlohmann::json::array();
  unsigned Proven = 0, Violated = 0, Unproven = 0, Checked = 0;
};

nlohmann::json CheckRun::obligationJson(const clang::SourceManager &SM,
                                        const inv::ObligationResult &O) {
  nlohmann::json J = {{"kind", inv::obligationKindName(O.obligation.kind)},
                      {"status", inv::statusName(O.status)},
                      {"summary", O.obligation.summary},
                      {"location", pointJson(ave::positionOf(SM, O.obligation.range.getBegin()))},
                      {"millis", O.millis},
                      {"solver_work", O.work}};
  if (O.status == inv::SolverResult::Violated) {
    nlohmann::json Cex = {{"values", O.values}, {"notes", nlohmann::json::array()}};
    for (const inv::CounterexampleLine &L : O.counterexample)
      Cex["notes"].push_back(
          {{"text", L.text}, {"location", pointJson(ave::positionOf(SM, L.location))}});
    J["message"] = O.obligation.failure;
    J["counterexample"] = std::move(Cex);
  } else if (O.status == inv::SolverResult::Unknown) {
    J["reason"] = O.reason;
  }
  return J;
}

void CheckRun::checkKernel(frontend::ParsedUnit &U, const ann::KernelAnnotations &A) {
  const clang::SourceManager &SM = U.context.getSourceManager();
  ++Checked;
  inv::KernelAnalysis Analysis(U.context, A, AOpts);
  inv::KernelReport Report = Analysis.solveObligations();
  // A race or a divergent barrier makes the kernel wrong whatever its tags
  // say: `check` proves their absence too (lint reports them as findings).
  // A kernel without `#pragma ave launch` is asked under each launch the
  // unit makes of it (the same facts lint uses).
  if (AOpts.implicitInvariants) {
    std::vector<inv::lds::LaunchContext> Launches;
    if (!A.launch())
      Launches = inv::lds::launchContexts(Analysis, *A.kernel, UnitLaunches);
    inv::lds::addSharedMemoryResults(
        Report, Analysis, U.context,
        inv::lds::sharedCheckOptions(*A.kernel, U.context, AOpts.waveSize, Lockstep), Launches);
  }
  nlohmann::json Obligations = nlohmann::json::array();
  for (const inv::ObligationResult &O : Report.results) {
    nlohmann::json J = obligationJson(SM, O);
    Proven += O.status == inv::SolverResult::Proven;
    Violated += O.status == inv::SolverResult::Violated;
    Unproven += O.status == inv::SolverResult::Unknown;
    if (std::optional<inv::ObligationFinding> F = inv::findingOf(O, *A.kernel, Report.kernel)) {
      frontend::Diagnostic D = frontend::makeDiagnostic(
          SM, F->range, F->violated ? frontend::Severity::Error : frontend::Severity::Warning,
          "ave-invariant", F->message);
      for (const inv::FindingNote &N : F->notes)
        D.notes.push_back({ave::positionOf(SM, N.location), N.text});
      D.details = J;
      Sink.add(std::move(D));
    }
    Obligations.push_back(std::move(J));
  }
  for (const inv::AnalysisNote &N : Report.notes)
    Sink.add(frontend::makeDiagnostic(SM, N.location, frontend::Severity::Note, "", N.message));
  nlohmann::json KJ = {{"kernel", Report.kernel},        {"file", U.file},
                       {"proven", Report.proven()},      {"violated", Report.violated()},
                       {"unproven", Report.unproven()},  {"analysis_ms", Report.analysisMillis},
                       {"solve_ms", Report.solveMillis}, {"obligations", std::move(Obligations)}};
  KernelsJson.push_back(std::move(KJ));
  if (Options.timing)
    llvm::errs() << Report.kernel << ": analysis " << llvm::format("%.1f", Report.analysisMillis)
                 << " ms (solver " << llvm::format("%.1f", Report.solveMillis) << " ms)\n";
}

void CheckRun::checkUnit(frontend::ParsedUnit &U) {
  const clang::SourceManager &SM = U.context.getSourceManager();
  std::vector<const clang::FunctionDecl *> Kernels = ann::findKernels(U.context);
  UnitLaunches = model::findLaunchSites(U.context);
  addAnnotationErrors(SM, ann::findStrayPragmas(U.context, U.pragmas, Kernels), Sink);
  if (Kernels.empty()) // not an error: said, as lint and rewrite say it
    Sink.add(frontend::makeDiagnostic(SM, SM.getLocForStartOfFile(SM.getMainFileID()),
                                      frontend::Severity::Note, "",
                                      "no kernels; nothing to check"));
  for (const clang::FunctionDecl *K : Kernels) {
    ann::KernelAnnotations A = ann::collectKernelAnnotations(U.context, *K, U.pragmas);
    if (!A.errors.empty()) {
      addAnnotationErrors(SM, A.errors, Sink);
      continue;
    }
    if (A.tags.empty() && A.pragmas.empty()) {
      Sink.add(frontend::makeDiagnostic(SM, K->getLocation(), frontend::Severity::Note, "",
                                        "kernel '" + K->getNameAsString() +
                                            "' has no annotations; nothing to check"));
      continue;
    }
    // A template kernel runs as its instantiations: each is checked with
    // its own sizes and types (the pattern has neither).
    std::vector<ann::KernelAnnotations> Instances;
    for (const clang::FunctionDecl *I : ann::kernelInstantiations(*K))
      Instances.push_back(ann::collectKernelAnnotations(U.context, *I, U.pragmas));
    if (Instances.empty())
      Instances.push_back(std::move(A));
    for (const ann::KernelAnnotations &Instance : Instances)
      checkKernel(U, Instance);
  }
}

int CheckRun::finish(const GlobalOptions &G, const frontend::FrontendResult &R,
                     const std::vector<std::string> &Files) {
  Sink.sort();
  int Code = reportFrontendFailure(R);
  bool InputErrors = Code != 0 || std::any_of(Sink.all().begin(), Sink.all().end(),
                                              [](const frontend::Diagnostic &D) {
                                                return D.check == "ave-annotation";
                                              });
  if (G.format == OutputFormat::Json) {
    nlohmann::json Doc = {{"kernels", KernelsJson},
                          {"summary",
                           {{"kernels", Checked},
                            {"proven", Proven},
                            {"violated", Violated},
                            {"unproven", Unproven}}},
                          {"diagnostics", Sink.toJson()},
                          {"errors", frontendErrorsJson(R)}};
    llvm::outs() << Doc.dump(2) << "\n";
  } else if (G.format == OutputFormat::Sarif) {
    llvm::outs() << checkSarif(Sink, Files).dump(2) << "\n";
  } else {
    Sink.printText(llvm::outs(), G.color);
    llvm::outs() << Checked << " kernel" << (Checked == 1 ? "" : "s") << " checked: " << Proven
                 << " proven, " << Violated << " violated, " << Unproven << " unproven";
    // A file that did not parse has kernels nobody checked: the count
    // alone read as a clean run.
    if (Code != 0)
      llvm::outs() << "; not every input was parsed (errors above), so its kernels were not "
                      "checked";
    llvm::outs() << "\n";
  }
  if (InputErrors)
    return 2;
  return Violated || Unproven ? 1 : 0;
}

} // namespace

int runCheck(const GlobalOptions &G, const CheckOptions &C, const std::vector<std::string> &Files) {
  inv::warmSolversInBackground(); // while the files parse
  CheckRun Run(G, C);
  frontend::FrontendResult R = frontend::parseHipFiles(
      Files, G.frontend, [&](frontend::ParsedUnit &U) { Run.checkUnit(U); });
  return Run.finish(G, R, Files);
}

void registerCheckCommand(CLI::App &App, GlobalOptions &G, SelectedCommand &Selected) {
  auto Files = std::make_shared<std::vector<std::string>>();
  auto Opts = std::make_shared<CheckOptions>();
  CLI::App *Check = App.add_subcommand(
      "check", "Prove the annotated and implicit invariants with Z3, or show a counterexample");
  Check->add_option("files", *Files, "HIP source files")->required();
  Check
      ->add_option("--z3-timeout-ms", Opts->z3TimeoutMs,
                   "Per-query solver budget: ms of solver work (Z3 resource units), so that "
                   "verdicts do not depend on the machine's load")
      ->capture_default_str();
  Check
      ->add_option("--time-limit-ms", Opts->timeLimitMs,
                   "Per-kernel limit on solving, in ms of solver work; past it, the remaining "
                   "obligations are unproven")
      ->capture_default_str();
  Check->add_flag("!--no-implicit", Opts->implicitInvariants,
                  "Check only the explicit #pragma ave assert invariants");
  Check->add_flag("--timing", Opts->timing, "Print analysis time per kernel to stderr");
  Check->callback([&G, &Selected, Files, Opts] {
    Selected = [&G, Files, Opts] { return runCheck(G, *Opts, *Files); };
  });
}

} // namespace ave::cli
