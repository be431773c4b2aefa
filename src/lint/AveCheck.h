// Shared ground of the ave-* clang-tidy checks: every check looks at the same
// kernels of one translation unit, so the pragma log, the bound annotations
// and the (expensive) provenance analysis of each kernel are made once per
// translation unit and shared. Each check class only turns findings into
// diagnostics. Internal to src/lint.
#pragma once

#include "ave/annotations/KernelAnnotations.h"
#include "ave/annotations/PragmaLog.h"
#include "ave/invariants/KernelAnalysis.h"
#include "ave/invariants/lds/GlobalRaces.h"
#include "ave/invariants/lds/LaunchContext.h"
#include "ave/invariants/lds/SharedMemoryChecks.h"
#include "ave/model/KernelModel.h"
#include "clang-tidy/ClangTidyCheck.h"

#include <map>
#include <memory>
#include <optional>

namespace ave::lint {

struct KernelState {
  const clang::FunctionDecl *kernel = nullptr;
  ann::KernelAnnotations annotations;
  bool annotated = false;
  std::unique_ptr<inv::KernelAnalysis> analysis; // null when annotations are malformed
  std::optional<inv::KernelReport> report;       // solved on first use
  // The launches the checks run under (LaunchContext.h): the unit's launch
  // sites of this kernel, or (with `#pragma ave launch`, or no site) the
  // kernel's own facts.
  std::vector<inv::lds::LaunchContext> launches;
  // Over every launch; a finding names its launch. The benign variants
  // (same value written) only when a check's ReportBenign asks for them.
  std::optional<inv::lds::SharedMemoryFindings> shared, sharedWithBenign;
  std::optional<std::vector<inv::lds::GlobalRace>> global, globalWithBenign;
  unsigned checksDone = 0; // the unit's checks that have seen it
};

// One translation unit's kernels. Made when the unit's first ave-* check
// registers with its preprocessor, and destroyed with that preprocessor:
// clang-tidy makes a new Preprocessor (and new checks) for every file, often
// at the address of the previous one, so the state must not outlive it (it
// once did, and the next file lost its `#pragma ave` lines).
class UnitState {
public:
  // The current unit's state; a new one when PP starts a new unit. Each
  // call is one more check of the unit (each registers once).
  static UnitState &registerCheck(clang::Preprocessor &PP);
  static UnitState *current();
  // The matchers are about to traverse the unit. With the preamble cache's
  // PCH loaded (frontend/PreambleCache.h), the traversal is limited to the
  // declarations parsed from the file, as clangd does for its clang-tidy
  // checks: the PCH holds only system headers and ave-rewrite's own, whose
  // kernels no check reports, and a traversal would load every declaration
  // of them.
  void startTraversal();

  const ann::PragmaLog &pragmas() const { return *Log; }
  // The kernel's state, analysed on first request.
  KernelState &kernel(clang::ASTContext &Ctx, const clang::FunctionDecl &Kernel);
  inv::KernelReport &report(KernelState &K);
  inv::lds::SharedMemoryFindings &shared(clang::ASTContext &Ctx, KernelState &K,
                                         bool ReportBenign = false);
  std::vector<inv::lds::GlobalRace> &globalRaces(clang::ASTContext &Ctx, KernelState &K,
                                                 bool ReportBenign = false);
  // One check is done with Kernel: when every check of the unit is, its
  // analysis (terms, solver, findings) is freed, so memory stays flat over
  // a file with thousands of kernels.
  void doneWith(const clang::FunctionDecl &Kernel);

private:
  const std::vector<model::LaunchSite> &launchSites(clang::ASTContext &Ctx);
  inv::lds::SharedCheckOptions checkOptions(clang::ASTContext &Ctx, const KernelState &K) const;

  std::shared_ptr<ann::PragmaLog> Log;
  clang::Preprocessor *PP = nullptr;
  bool TraversalLimited = false;
  std::optional<std::vector<model::LaunchSite>> LaunchSites; // found once per unit
  unsigned Checks = 0;
  std::map<const clang::FunctionDecl *, std::unique_ptr<KernelState>> Kernels;
};

// Base class: matches every non-dependent `__global__` definition outside
// system headers and hands it to checkKernel with its shared state.
class AveKernelCheck : public clang::tidy::ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  bool isLanguageVersionSupported(const clang::LangOptions &LO) const override {
    return LO.CPlusPlus;
  }
  void registerPPCallbacks(const clang::SourceManager &SM, clang::Preprocessor *PP,
                           clang::Preprocessor *ModuleExpanderPP) override;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onStartOfTranslationUnit() override;

protected:
  virtual void checkKernel(clang::ASTContext &Ctx, UnitState &Unit, KernelState &K) = 0;
  // Adds the counterexample line(s) as notes at Loc.
  void noteAt(clang::SourceLocation Loc, llvm::StringRef Text);
  // The notes every finding ends with: the launch it happens in (at the
  // launch site) and the value of every free symbol (at Loc).
  void noteLaunchAndValues(clang::SourceLocation Loc, const KernelState &K,
                           const std::string &Launch, const inv::lds::WitnessValues &Values);
};

} // namespace ave::lint
