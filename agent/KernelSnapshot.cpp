#include "ave/agent/KernelSnapshot.h"

#include "ave/agent/BankConflicts.h"
#include "ave/annotations/KernelAnnotations.h"
#include "ave/invariants/KernelAnalysis.h"
#include "ave/invariants/lds/SharedMemoryChecks.h"
#include "ave/invariants/lds/ThreadPair.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

namespace ave::agent {

unsigned KernelSnapshot::count(inv::SolverResult::Status S) const {
  unsigned N = 0;
  for (const ObligationOutcome &O : obligations)
    N += O.status == S;
  return N;
}

namespace {

std::string accessText(clang::ASTContext &Ctx, const inv::LdsAccess &A) {
  // A store is logged with its assignment; show the element it writes.
  const clang::Expr *E = A.expr;
  if (const auto *Assign = llvm::dyn_cast_or_null<clang::BinaryOperator>(E);
      Assign && Assign->isAssignmentOp())
    E = Assign->getLHS();
  clang::SourceRange R = E ? E->getSourceRange() : A.range;
  clang::CharSourceRange File = clang::Lexer::makeFileCharRange(
      clang::CharSourceRange::getTokenRange(R), Ctx.getSourceManager(), Ctx.getLangOpts());
  if (File.isInvalid())
    return A.array ? A.array->getNameAsString() : "?";
  return clang::Lexer::getSourceText(File, Ctx.getSourceManager(), Ctx.getLangOpts()).str();
}

ObligationOutcome outcomeOf(const clang::SourceManager &SM, const inv::ObligationResult &R) {
  ObligationOutcome O;
  O.kind = inv::obligationKindName(R.obligation.kind);
  O.summary = R.obligation.summary;
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

std::optional<int64_t> fixedBlockDim(inv::KernelAnalysis &A, unsigned D) {
  for (const inv::Term *F : A.kernelFacts()) {
    if (F->kind() != inv::TermKind::Eq)
      continue;
    const inv::Term *L = F->operand(0), *R = F->operand(1);
    if (L->isConstant())
      std::swap(L, R);
    if (L == A.blockDim(D) && R->isConstant())
      return R->value();
  }
  return std::nullopt;
}

// Evaluates the address for every thread of block 0 (first iteration of each
// enclosing loop). Empty when some symbol has no such value (a parameter).
std::vector<int64_t> sampleElements(inv::KernelAnalysis &A, const inv::LdsAccess &Access,
                                    const unsigned (&Dims)[3]) {
  std::vector<int64_t> Out;
  inv::Assignment Values;
  for (unsigned D = 0; D < 3; ++D) {
    Values[A.blockIdx(D)] = 0;
    Values[A.blockDim(D)] = Dims[D];
  }
  for (unsigned Z = 0; Z < Dims[2]; ++Z)
    for (unsigned Y = 0; Y < Dims[1]; ++Y)
      for (unsigned X = 0; X < Dims[0]; ++X) {
        Values[A.threadIdx(0)] = X;
        Values[A.threadIdx(1)] = Y;
        Values[A.threadIdx(2)] = Z;
        bool Known = true;
        for (const inv::LoopContext &L : Access.loops) {
          std::optional<int64_t> First = L.init ? inv::evaluate(L.init, Values) : std::nullopt;
          if (!L.counter || !First) {
            Known = false;
            break;
          }
          Values[L.counter] = *First;
        }
        std::optional<int64_t> Element =
            Known ? inv::evaluate(Access.address, Values) : std::nullopt;
        if (!Element)
          return {};
        bool Runs = true;
        for (const inv::Term *G : Access.guard) {
          std::optional<int64_t> V = inv::evaluate(G, Values);
          Runs = Runs && (!V || *V != 0);
        }
        Out.push_back(Runs ? *Element : LdsAccessRating::NotExecuted);
      }
  return Out;
}

void checkRaces(inv::KernelAnalysis &Analysis, clang::ASTContext &Ctx,
                const clang::FunctionDecl &Kernel, frontend::Target Target, KernelSnapshot &Snap) {
  const frontend::TargetInfo &Info = frontend::targetInfo(Target);
  inv::lds::SharedCheckOptions Opts =
      inv::lds::sharedCheckOptions(Kernel, Ctx, Info.waveSize, Info.lockstepWavefronts);
  const clang::SourceManager &SM = Ctx.getSourceManager();
  for (const inv::lds::LdsRace &Race : inv::lds::findLdsRaces(Analysis, Ctx, Opts)) {
    RaceOutcome R;
    R.array = Race.second && Race.second->array ? Race.second->array->getNameAsString() : "";
    R.location =
        ave::positionOf(SM, Race.second ? Race.second->range.getBegin() : clang::SourceLocation());
    R.message = "threads " + inv::lds::formatThread(Race.firstThread) + " and " +
                inv::lds::formatThread(Race.secondThread) + " race on " + Race.elementText;
    Snap.races.push_back(std::move(R));
  }
  for (const inv::lds::BarrierDivergence &B :
       inv::lds::findDivergentBarriers(Analysis, Opts.launch)) {
    RaceOutcome R;
    R.location = ave::positionOf(SM, B.barrier && B.barrier->call ? B.barrier->call->getBeginLoc()
                                                                  : clang::SourceLocation());
    R.message = "barrier reached by thread " + inv::lds::formatThread(B.arrivingThread) +
                " but not by " + inv::lds::formatThread(B.missingThread);
    Snap.divergentBarriers.push_back(std::move(R));
  }
  Snap.racesChecked = true;
}

} // namespace

std::vector<KernelSnapshot> snapshotKernels(frontend::ParsedUnit &Unit, const SnapshotOptions &Opts,
                                            const WithAnalysis &Also) {
  std::vector<KernelSnapshot> Out;
  clang::ASTContext &Ctx = Unit.context;
  const clang::SourceManager &SM = Ctx.getSourceManager();
  inv::AnalysisOptions AOpts;
  AOpts.z3TimeoutMs = Opts.z3TimeoutMs;
  AOpts.waveSize = frontend::targetInfo(Opts.target).waveSize;
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
      if (Also)
        Also(*K, nullptr);
      Out.push_back(std::move(Snap));
      continue;
    }
    inv::KernelAnalysis Analysis(Ctx, A, AOpts);
    inv::KernelReport Report = Analysis.solveObligations();
    Snap.analysisMillis = Report.analysisMillis;
    for (const inv::ObligationResult &R : Report.results)
      Snap.obligations.push_back(outcomeOf(SM, R));
    unsigned Threads = 1;
    for (unsigned D = 0; D < 3; ++D) {
      std::optional<int64_t> Dim = fixedBlockDim(Analysis, D);
      const unsigned Fallback = D == 0 ? frontend::targetInfo(Opts.target).waveSize : 1;
      Snap.blockDim[D] = Dim && *Dim > 0 && *Dim <= 1024 ? unsigned(*Dim) : Fallback;
      Threads *= Snap.blockDim[D];
    }
    for (const inv::LdsAccess &Access : Analysis.ldsAccesses()) {
      LdsAccessRating Rating;
      Rating.array = Access.array ? Access.array->getNameAsString() : "?";
      Rating.text = accessText(Ctx, Access);
      Rating.location = ave::positionOf(SM, Access.range.getBegin());
      Rating.isWrite = Access.isWrite;
      AccessConflict C = accessConflictDegree(Analysis, Ctx, Access, Opts.target);
      Rating.conflictDegree = C.degree;
      Rating.note = C.note;
      if (Threads <= 1024)
        Rating.sampledElements = sampleElements(Analysis, Access, Snap.blockDim);
      Snap.accesses.push_back(std::move(Rating));
    }
    checkRaces(Analysis, Ctx, *K, Opts.target, Snap);
    if (Also)
      Also(*K, &Analysis);
    Out.push_back(std::move(Snap));
  }
  return Out;
}

} // namespace ave::agent
