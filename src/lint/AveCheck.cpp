// The per-translation-unit kernel state and the base of the ave-* checks.

#include "AveCheck.h"

#include "ave/lint/LintSettings.h"
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
    PP.addPPCallbacks(std::make_unique<UnitEnd>());
  }
  ++Unit->Checks;
  return *Unit;
}

UnitState *UnitState::current() { return currentUnit().get(); }

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
  Opts.waveSize = frontend::targetInfo(lintSettings().target).waveSize;
  K.analysis = std::make_unique<inv::KernelAnalysis>(Ctx, K.annotations, Opts);
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

inv::lds::SharedMemoryFindings &UnitState::shared(clang::ASTContext &Ctx, KernelState &K) {
  if (!K.shared) {
    inv::lds::SharedMemoryFindings F;
    const frontend::TargetInfo &Info = frontend::targetInfo(lintSettings().target);
    inv::lds::SharedCheckOptions Opts =
        inv::lds::sharedCheckOptions(*K.kernel, Ctx, Info.waveSize, Info.lockstepWavefronts);
    F.races = inv::lds::findLdsRaces(*K.analysis, Ctx, Opts, &F.skipped);
    F.divergentBarriers = inv::lds::findDivergentBarriers(*K.analysis, Opts.launch);
    F.uninitializedReads =
        inv::lds::findUninitializedReads(*K.analysis, Ctx, *K.kernel, Opts.launch);
    K.shared = std::move(F);
  }
  return *K.shared;
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

} // namespace ave::lint
