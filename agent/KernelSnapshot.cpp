#include "ave/agent/KernelSnapshot.h"

#include "PairingTerms.h"
#include "ave/agent/BankConflicts.h"
#include "ave/annotations/KernelAnnotations.h"
#include "ave/invariants/KernelAnalysis.h"
#include "ave/invariants/lds/SharedMemoryChecks.h"
#include "ave/invariants/lds/ThreadPair.h"
#include "ave/model/ModelBuilder.h"
#include "ave/rewriters/lds_layout/SharedArrayUses.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

namespace ave::agent {

unsigned KernelSnapshot::count(inv::SolverResult::Status S) const {
  unsigned N = 0;
  for (const ObligationOutcome &O : obligations)
    N += O.status == S;
  return N;
}

const SharedArrayFootprint *KernelSnapshot::array(const std::string &Name) const {
  for (const SharedArrayFootprint &A : sharedArrays)
    if (A.name == Name)
      return &A;
  return nullptr;
}

namespace {

std::string exprText(clang::ASTContext &Ctx, clang::SourceRange R) {
  clang::CharSourceRange File = clang::Lexer::makeFileCharRange(
      clang::CharSourceRange::getTokenRange(R), Ctx.getSourceManager(), Ctx.getLangOpts());
  if (File.isInvalid())
    return "";
  return clang::Lexer::getSourceText(File, Ctx.getSourceManager(), Ctx.getLangOpts()).str();
}

// The element expression a logged access stands for: a store is logged with
// its assignment, an increment with its operator.
const clang::Expr *elementOf(const clang::Expr *E) {
  while (E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *B = llvm::dyn_cast<clang::BinaryOperator>(E); B && B->isAssignmentOp())
      E = B->getLHS();
    else if (const auto *U = llvm::dyn_cast<clang::UnaryOperator>(E);
             U && U->isIncrementDecrementOp())
      E = U->getSubExpr();
    else
      return E;
  }
  return nullptr;
}

std::string accessText(clang::ASTContext &Ctx, const inv::LdsAccess &A) {
  const clang::Expr *E = elementOf(A.expr);
  std::string Text = exprText(Ctx, E ? E->getSourceRange() : A.range);
  return Text.empty() ? (A.array ? A.array->getNameAsString() : "?") : Text;
}

ObligationOutcome outcomeOf(const clang::SourceManager &SM, const inv::ObligationResult &R) {
  ObligationOutcome O;
  O.kind = inv::obligationKindName(R.obligation.kind);
  O.summary = R.obligation.summary;
  O.array = R.obligation.sharedArray;
  O.status = R.status;
  O.location = ave::positionOf(SM, R.obligation.range.getBegin());
  if (R.status == inv::SolverResult::Violated) {
    O.message = R.obligation.failure;
    for (const inv::CounterexampleLine &L : R.counterexample)
      O.counterexample.push_back({ave::positionOf(SM, L.location), L.text});
  } else if (R.status == inv::SolverResult::Unknown) {
    O.message = R.reason;
  }
  return O;
}

// "tile#2": the third access of `tile` in program order. A layout rewrite
// keeps the accesses and their order, so keys compare across the rewrite.
std::map<const inv::LdsAccess *, std::string> accessKeys(inv::KernelAnalysis &A) {
  std::map<const inv::LdsAccess *, std::string> Keys;
  std::map<std::string, unsigned> Seen;
  for (const inv::LdsAccess &Access : A.ldsAccesses()) {
    std::string Array = Access.array ? Access.array->getNameAsString() : "?";
    Keys[&Access] = Array + "#" + std::to_string(Seen[Array]++);
  }
  return Keys;
}

void checkRaces(inv::KernelAnalysis &Analysis, clang::ASTContext &Ctx,
                const clang::FunctionDecl &Kernel, frontend::Target Target, KernelSnapshot &Snap) {
  const frontend::TargetInfo &Info = frontend::targetInfo(Target);
  inv::lds::SharedCheckOptions Opts =
      inv::lds::sharedCheckOptions(Kernel, Ctx, Info.waveSize, Info.lockstepWavefronts);
  const clang::SourceManager &SM = Ctx.getSourceManager();
  auto Keys = accessKeys(Analysis);
  std::vector<inv::lds::SkippedAccess> Skipped;
  for (const inv::lds::LdsRace &Race : inv::lds::findLdsRaces(Analysis, Ctx, Opts, &Skipped)) {
    RaceOutcome R;
    R.array = Race.second && Race.second->array ? Race.second->array->getNameAsString() : "";
    R.location =
        ave::positionOf(SM, Race.second ? Race.second->range.getBegin() : clang::SourceLocation());
    R.message = "threads " + inv::lds::formatThread(Race.firstThread) + " and " +
                inv::lds::formatThread(Race.secondThread) + " race on " + Race.elementText;
    std::string First = Keys[Race.first], Second = Keys[Race.second];
    R.key = std::min(First, Second) + " & " + std::max(First, Second);
    Snap.races.push_back(std::move(R));
  }
  for (const inv::lds::SkippedAccess &S : Skipped)
    Snap.raceSkipped.insert(Keys[S.access]);
  const auto &Barriers = Analysis.barriers();
  for (const inv::lds::BarrierDivergence &B :
       inv::lds::findDivergentBarriers(Analysis, Opts.launch)) {
    RaceOutcome R;
    R.location = ave::positionOf(SM, B.barrier && B.barrier->call ? B.barrier->call->getBeginLoc()
                                                                  : clang::SourceLocation());
    R.message = "barrier reached by thread " + inv::lds::formatThread(B.arrivingThread) +
                " but not by " + inv::lds::formatThread(B.missingThread);
    R.key = "barrier#" + std::to_string(B.barrier ? B.barrier - Barriers.data() : -1);
    Snap.divergentBarriers.push_back(std::move(R));
  }
  Snap.racesChecked = true;
}

// Element accesses of `Array` in the AST that no logged access stands for
// (when the analysis ran), and its vector accesses.
void collectUses(clang::ASTContext &Ctx, inv::KernelAnalysis *Analysis,
                 const clang::FunctionDecl &Kernel, const clang::VarDecl &Array,
                 SharedArrayFootprint &Out) {
  const clang::SourceManager &SM = Ctx.getSourceManager();
  rw::SharedArrayUses Uses = rw::collectSharedArrayUses(Ctx, Kernel, Array, nullptr);
  for (const rw::UnfollowedUse &U : Uses.unfollowed)
    if (U.vectorBytes)
      Out.vectorAccesses.push_back(
          {std::to_string(U.vectorBytes) + "-byte", ave::positionOf(SM, U.location)});
  if (!Analysis)
    return;
  std::set<const clang::Expr *> Logged;
  for (const inv::LdsAccess &A : Analysis->ldsAccesses())
    if (A.array == &Array)
      Logged.insert(elementOf(A.expr));
  for (const rw::ArrayAccess &A : Uses.accesses)
    if (!Logged.count(A.expr->IgnoreParenImpCasts()))
      Out.unlogged.push_back(
          {exprText(Ctx, A.expr->getSourceRange()), ave::positionOf(SM, A.expr->getBeginLoc())});
}

// The largest constant dynamic shared-memory size a launch of K in this file
// passes.
std::optional<uint64_t> dynamicBytes(clang::ASTContext &Ctx, const clang::FunctionDecl &K) {
  std::optional<uint64_t> Max;
  for (const model::LaunchSite &Site : model::findLaunchSites(Ctx)) {
    const auto *Call = llvm::dyn_cast_or_null<clang::CUDAKernelCallExpr>(Site.call);
    if (!Site.kernel || Site.kernel->getCanonicalDecl() != K.getCanonicalDecl() || !Call ||
        !Call->getConfig() || Call->getConfig()->getNumArgs() < 3)
      continue;
    const clang::Expr *Bytes = Call->getConfig()->getArg(2);
    clang::Expr::EvalResult R;
    if (llvm::isa<clang::CXXDefaultArgExpr>(Bytes) || Bytes->isValueDependent() ||
        !Bytes->EvaluateAsInt(R, Ctx))
      continue;
    uint64_t V = R.Val.getInt().getZExtValue();
    Max = Max ? std::max(*Max, V) : V;
  }
  return Max;
}

void snapshotFootprint(clang::ASTContext &Ctx, const clang::FunctionDecl &K,
                       inv::KernelAnalysis *Analysis, KernelSnapshot &Snap) {
  model::KernelModel Model = model::buildKernelModel(Ctx, K);
  for (const model::SharedArray &A : Model.sharedArrays) {
    SharedArrayFootprint F;
    F.name = A.name;
    F.dynamic = A.dynamic;
    F.bytes = A.bytes.value_or(0);
    if (A.elementBytes && *A.elementBytes)
      F.elements = F.bytes / *A.elementBytes;
    if (A.decl && !A.dynamic && A.scope == model::SharedScope::Kernel)
      collectUses(Ctx, Analysis, K, *A.decl, F);
    Snap.sharedArrays.push_back(std::move(F));
  }
  Snap.staticLdsBytes = Model.ldsBytes.value_or(0);
  Snap.dynamicLds = Model.dynamicLds;
  if (Snap.dynamicLds)
    Snap.dynamicLdsBytes = dynamicBytes(Ctx, K);
}

// Kernel facts, plus what the kernel text says about the launch (the race
// check's assumption: ids a kernel never reads are 0, in-bounds subscripts
// bound the ids they use).
void snapshotPairingTerms(clang::ASTContext &Ctx, const clang::FunctionDecl &K,
                          inv::KernelAnalysis &Analysis, inv::TermContext &To,
                          KernelSnapshot &Snap) {
  std::set<std::string> Opaque;
  for (const SharedArrayFootprint &A : Snap.sharedArrays)
    Opaque.insert(A.name);
  TermImporter Importer(To, std::move(Opaque));
  for (const inv::LdsAccess &Access : Analysis.ldsAccesses())
    Importer.addLoops(Access.loops);
  for (const inv::Term *F : Analysis.kernelFacts())
    if (const inv::Term *Copy = Importer.import(F))
      Snap.pairingFacts.push_back(Copy);
  inv::lds::LaunchShape Shape = inv::lds::inferLaunchShape(K, Ctx);
  for (unsigned D = 0; D < 3; ++D) {
    const inv::Term *Tid = To.builtin(inv::SymbolKind::ThreadIdx, D);
    if (!Shape.used[D])
      Snap.pairingFacts.push_back(To.eq(Tid, To.constant(0)));
    else if (Shape.threadsBelow[D])
      Snap.pairingFacts.push_back(To.lt(Tid, To.constant(*Shape.threadsBelow[D])));
  }
  size_t I = 0;
  for (const inv::LdsAccess &Access : Analysis.ldsAccesses())
    Snap.accesses[I++].pairing = importAccess(Importer, Access);
}

void snapshotAccesses(clang::ASTContext &Ctx, inv::KernelAnalysis &Analysis,
                      frontend::Target Target, KernelSnapshot &Snap) {
  const clang::SourceManager &SM = Ctx.getSourceManager();
  for (const inv::LdsAccess &Access : Analysis.ldsAccesses()) {
    LdsAccessRating Rating;
    Rating.array = Access.array ? Access.array->getNameAsString() : "?";
    Rating.text = accessText(Ctx, Access);
    Rating.location = ave::positionOf(SM, Access.range.getBegin());
    Rating.isWrite = Access.isWrite;
    Rating.elementBytes = Access.elementBytes;
    AccessConflict C = accessConflictDegree(Analysis, Ctx, Access, Target);
    Rating.conflictDegree = C.degree;
    Rating.note = C.note;
    Snap.accesses.push_back(std::move(Rating));
  }
}

void snapshotAnalysed(frontend::ParsedUnit &Unit, const clang::FunctionDecl &K,
                      const ann::KernelAnnotations &A, const SnapshotOptions &Opts,
                      const WithAnalysis &Also, KernelSnapshot &Snap) {
  clang::ASTContext &Ctx = Unit.context;
  inv::AnalysisOptions AOpts;
  AOpts.z3TimeoutMs = Opts.z3TimeoutMs;
  AOpts.kernelTimeLimitMs = Opts.timeLimitMs;
  AOpts.waveSize = frontend::targetInfo(Opts.target).waveSize;
  inv::KernelAnalysis Analysis(Ctx, A, AOpts);
  inv::KernelReport Report = Analysis.solveObligations();
  Snap.analysisMillis = Report.analysisMillis;
  for (const inv::ObligationResult &R : Report.results)
    Snap.obligations.push_back(outcomeOf(Ctx.getSourceManager(), R));
  snapshotAccesses(Ctx, Analysis, Opts.target, Snap);
  snapshotFootprint(Ctx, K, &Analysis, Snap);
  if (Opts.pairingTerms)
    snapshotPairingTerms(Ctx, K, Analysis, *Opts.pairingTerms, Snap);
  checkRaces(Analysis, Ctx, K, Opts.target, Snap);
  if (Also)
    Also(K, &Analysis);
}

} // namespace

std::vector<KernelSnapshot> snapshotKernels(frontend::ParsedUnit &Unit, const SnapshotOptions &Opts,
                                            const WithAnalysis &Also) {
  std::vector<KernelSnapshot> Out;
  clang::ASTContext &Ctx = Unit.context;
  const clang::SourceManager &SM = Ctx.getSourceManager();
  for (const clang::FunctionDecl *K : ann::findKernels(Ctx)) {
    if (!SM.isWrittenInMainFile(K->getLocation()))
      continue;
    if (!Opts.kernel.empty() && K->getNameAsString() != Opts.kernel)
      continue;
    KernelSnapshot Snap;
    Snap.kernel = K->getNameAsString();
    ann::KernelAnnotations A = ann::collectKernelAnnotations(Ctx, *K, Unit.pragmas);
    if (!A.errors.empty()) {
      for (const ann::AnnotationError &E : A.errors) {
        ave::SourcePosition P = ave::positionOf(SM, E.range.getBegin());
        Snap.annotationErrors.push_back(P.file + ":" + std::to_string(P.line) + ":" +
                                        std::to_string(P.column) + ": " + E.message);
      }
      Out.push_back(std::move(Snap));
      continue;
    }
    Snap.annotated = !A.tags.empty() || !A.pragmas.empty();
    if (K->isDependentContext()) {
      Snap.dependent = true;
      snapshotFootprint(Ctx, *K, nullptr, Snap);
      if (Also)
        Also(*K, nullptr);
      Out.push_back(std::move(Snap));
      continue;
    }
    snapshotAnalysed(Unit, *K, A, Opts, Also, Snap);
    Out.push_back(std::move(Snap));
  }
  return Out;
}

} // namespace ave::agent
