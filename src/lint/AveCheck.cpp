// The per-translation-unit kernel state and the base of the ave-* checks.

#include "AveCheck.h"

#include "ave/frontend/PreambleCache.h"
#include "ave/lint/LintSettings.h"
#include "ave/model/ModelBuilder.h"
#include "ave/support/LargeStack.h"

#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"

namespace ave::lint {

namespace {
std::unique_ptr<UnitState> &currentUnit() {
  static std::unique_ptr<UnitState> Unit;
  return Unit;
}

// Owned by the unit's preprocessor: the unit's state goes when it does.
class UnitEnd : public clang::PPCallbacks {
public:
  ~UnitEnd() override { currentUnit().reset(); }
};
} // namespace

LintSettings &lintSettings() {
  static LintSettings S;
  return S;
}

LintStats &lintStats() {
  static LintStats S;
  return S;
}

void noteKernel(const std::string &File, const std::string &Name, bool Annotated) {
  for (KernelSeen &K : lintStats().kernels)
    if (K.file == File && K.name == Name) {
      K.annotated |= Annotated;
      return;
    }
  lintStats().kernels.push_back({File, Name, Annotated});
}

UnitState &UnitState::registerCheck(clang::Preprocessor &PP) {
  std::unique_ptr<UnitState> &Unit = currentUnit();
  if (!Unit) {
    Unit = std::make_unique<UnitState>();
    Unit->Log = ann::installPragmaRecorder(PP);
    Unit->PP = &PP;
    PP.addPPCallbacks(std::make_unique<UnitEnd>());
  }
  ++Unit->Checks;
  return *Unit;
}

UnitState *UnitState::current() { return currentUnit().get(); }

void UnitState::startTraversal() {
  if (!TraversalLimited)
    TraversalLimited = frontend::limitTraversalForPreamble(*PP);
}

KernelState &UnitState::kernel(clang::ASTContext &Ctx, const clang::FunctionDecl &Kernel) {
  std::unique_ptr<KernelState> &Slot = Kernels[&Kernel];
  if (Slot)
    return *Slot;
  Slot = std::make_unique<KernelState>();
  KernelState &K = *Slot;
  K.kernel = &Kernel;
  K.annotations = ann::collectKernelAnnotations(Ctx, Kernel, *Log);
  K.annotated = !K.annotations.tags.empty() || !K.annotations.pragmas.empty();
  const clang::SourceManager &SM = Ctx.getSourceManager();
  clang::PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(Kernel.getLocation()));
  noteKernel(P.isValid() ? P.getFilename() : "", Kernel.getNameAsString(), K.annotated);
  if (!K.annotations.errors.empty())
    return K;
  inv::AnalysisOptions Opts;
  Opts.z3TimeoutMs = lintSettings().z3TimeoutMs;
  Opts.kernelTimeLimitMs = lintSettings().timeLimitMs;
  Opts.waveSize = frontend::targetInfo(lintSettings().target).waveSize;
  K.analysis = std::make_unique<inv::KernelAnalysis>(Ctx, K.annotations, Opts);
  // `#pragma ave launch` states the launch; otherwise each launch site does.
  std::span<const model::LaunchSite> Sites;
  if (!K.annotations.launch())
    Sites = launchSites(Ctx);
  K.launches = inv::lds::launchContexts(*K.analysis, Kernel, Sites);
  return K;
}

void UnitState::doneWith(const clang::FunctionDecl &Kernel) {
  auto It = Kernels.find(&Kernel);
  if (It != Kernels.end() && ++It->second->checksDone >= Checks)
    Kernels.erase(It);
}

inv::KernelReport &UnitState::report(KernelState &K) {
  if (!K.report)
    K.report = K.analysis->solveObligations();
  return *K.report;
}

const std::vector<model::LaunchSite> &UnitState::launchSites(clang::ASTContext &Ctx) {
  if (!LaunchSites)
    LaunchSites = model::findLaunchSites(Ctx);
  return *LaunchSites;
}

inv::lds::SharedCheckOptions UnitState::checkOptions(clang::ASTContext &Ctx,
                                                     const KernelState &K) const {
  const frontend::TargetInfo &Info = frontend::targetInfo(lintSettings().target);
  return inv::lds::sharedCheckOptions(*K.kernel, Ctx, Info.waveSize, Info.lockstepWavefronts);
}

namespace {

// A finding found again under a later launch is the same finding.
template <typename F> bool seen(const std::vector<F> &Found, const F &New) {
  return std::any_of(Found.begin(), Found.end(), [&](const F &Old) {
    if constexpr (requires { Old.barrier; })
      return Old.barrier == New.barrier;
    else
      return Old.first->expr == New.first->expr && Old.second->expr == New.second->expr;
  });
}

template <typename F> void appendNew(std::vector<F> &Into, std::vector<F> From) {
  for (F &X : From)
    if (!seen(Into, X))
      Into.push_back(std::move(X));
}

} // namespace

inv::lds::SharedMemoryFindings &UnitState::shared(clang::ASTContext &Ctx, KernelState &K,
                                                  bool ReportBenign) {
  std::optional<inv::lds::SharedMemoryFindings> &Slot =
      ReportBenign ? K.sharedWithBenign : K.shared;
  if (Slot)
    return *Slot;
  inv::lds::SharedMemoryFindings F;
  inv::lds::SharedCheckOptions Opts = checkOptions(Ctx, K);
  Opts.reportBenign = ReportBenign;
  for (const inv::lds::LaunchContext &L : K.launches) {
    if (!L.unusable.empty())
      continue;
    Opts.launchContext = L;
    appendNew(F.races, inv::lds::findLdsRaces(*K.analysis, Ctx, Opts, &F.skipped));
    appendNew(F.divergentBarriers,
              inv::lds::findDivergentBarriers(*K.analysis, Opts.launch, nullptr, &L));
    if (F.uninitializedReads.empty())
      F.uninitializedReads =
          inv::lds::findUninitializedReads(*K.analysis, Ctx, *K.kernel, Opts.launch, &L);
  }
  Slot = std::move(F);
  return *Slot;
}

std::vector<inv::lds::GlobalRace> &UnitState::globalRaces(clang::ASTContext &Ctx, KernelState &K,
                                                          bool ReportBenign) {
  auto &Slot = ReportBenign ? K.globalWithBenign : K.global;
  if (Slot)
    return *Slot;
  std::vector<inv::lds::GlobalRace> Races;
  inv::lds::SharedCheckOptions Opts = checkOptions(Ctx, K);
  Opts.reportBenign = ReportBenign;
  for (const inv::lds::LaunchContext &L : K.launches) {
    if (!L.unusable.empty())
      continue;
    Opts.launchContext = L;
    appendNew(Races, inv::lds::findGlobalRaces(*K.analysis, Opts));
  }
  Slot = std::move(Races);
  return *Slot;
}

namespace {
// Names the unit's main file for an out-of-stack error (LargeStack.h): the
// main file is known once the preprocessor enters it.
class MainFileNote : public clang::PPCallbacks {
public:
  explicit MainFileNote(const clang::SourceManager &SM) : SM(SM) {}
  void FileChanged(clang::SourceLocation Loc, FileChangeReason Reason,
                   clang::SrcMgr::CharacteristicKind, clang::FileID) override {
    if (Reason == EnterFile && SM.getFileID(Loc) == SM.getMainFileID())
      support::noteCurrentInput(SM.getFilename(Loc).str());
  }

private:
  const clang::SourceManager &SM;
};
} // namespace

void AveKernelCheck::registerPPCallbacks(const clang::SourceManager &SM, clang::Preprocessor *PP,
                                         clang::Preprocessor *) {
  PP->addPPCallbacks(std::make_unique<MainFileNote>(SM));
  UnitState::registerCheck(*PP);
}

void AveKernelCheck::onStartOfTranslationUnit() {
  if (UnitState *Unit = UnitState::current())
    Unit->startTraversal();
}

void AveKernelCheck::registerMatchers(clang::ast_matchers::MatchFinder *Finder) {
  using namespace clang::ast_matchers;
  Finder->addMatcher(functionDecl(isDefinition(), hasAttr(clang::attr::CUDAGlobal),
                                  unless(isExpansionInSystemHeader()))
                         .bind("kernel"),
                     this);
}

void AveKernelCheck::check(const clang::ast_matchers::MatchFinder::MatchResult &Result) {
  const auto *Kernel = Result.Nodes.getNodeAs<clang::FunctionDecl>("kernel");
  UnitState *Unit = UnitState::current();
  if (!Kernel || !Unit || Kernel->isDependentContext() || !Kernel->getBody())
    return;
  checkKernel(*Result.Context, *Unit, Unit->kernel(*Result.Context, *Kernel));
  Unit->doneWith(*Kernel);
}

void AveKernelCheck::noteAt(clang::SourceLocation Loc, llvm::StringRef Text) {
  // The text is data (source with `%` in it), not a format string.
  diag(Loc, "%0", clang::DiagnosticIDs::Note) << Text;
}

void AveKernelCheck::noteLaunchAndValues(clang::SourceLocation Loc, const KernelState &K,
                                         const std::string &Launch,
                                         const inv::lds::WitnessValues &Values) {
  if (!Launch.empty())
    for (const inv::lds::LaunchContext &L : K.launches)
      if (L.label == Launch) {
        noteAt(L.location.isValid() ? L.location : Loc, "for the launch at " + Launch);
        break;
      }
  if (!Values.empty())
    noteAt(Loc, "values: " + inv::lds::formatValues(Values));
}

} // namespace ave::lint
