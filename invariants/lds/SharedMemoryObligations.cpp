#include "ave/invariants/lds/SharedMemoryObligations.h"

#include "ave/invariants/lds/ThreadPair.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

#include <map>

namespace ave::inv::lds {

namespace {

const char *verb(const LdsAccess &A) { return A.isWrite ? "writes" : "reads"; }

ObligationResult raceFreedom(const clang::ValueDecl *Array, const LdsAccess &FirstAccess,
                             const std::vector<LdsRace> &Races,
                             const std::vector<SkippedAccess> &Skipped) {
  ObligationResult R;
  Obligation &O = R.obligation;
  O.kind = ObligationKind::SharedRaceFree;
  O.range = FirstAccess.range;
  std::string Name = Array->getNameAsString();
  O.summary = "no two threads of a block touch one element of " + Name +
              " in one barrier interval, one of them writing";
  for (const LdsRace &Race : Races) {
    if (Race.first->array != Array)
      continue;
    std::string T1 = formatThread(Race.firstThread), T2 = formatThread(Race.secondThread);
    O.range = Race.second->range;
    O.failure = "data race on shared array '" + Name + "': threadIdx=" + T2 + " " +
                verb(*Race.second) + " " + Race.elementText + " while threadIdx=" + T1 + " " +
                verb(*Race.first) + " it in the same barrier interval";
    R.status = SolverResult::Violated;
    R.counterexample.push_back(
        {Race.first->range.getBegin(),
         "threadIdx=" + T1 + " " + verb(*Race.first) + " " + Race.elementText + " here"});
    R.counterexample.push_back(
        {Race.second->range.getBegin(), Race.context + " (" + Race.interval + ")"});
    return R;
  }
  for (const SkippedAccess &S : Skipped) {
    if (S.access->array != Array)
      continue;
    R.status = SolverResult::Unknown;
    O.range = S.access->range;
    R.reason = "an access of " + Name + " was not checked for races: " + S.reason;
    return R;
  }
  R.status = SolverResult::Proven;
  return R;
}

ObligationResult barrierUniformity(const BarrierSite &B,
                                   const std::vector<BarrierDivergence> &Divergent,
                                   const std::vector<const BarrierSite *> &Undecided) {
  ObligationResult R;
  Obligation &O = R.obligation;
  O.kind = ObligationKind::BarrierUniform;
  O.range = B.call->getSourceRange();
  O.summary = "every thread of the block reaches this barrier, or none does";
  R.status = SolverResult::Proven;
  for (const BarrierDivergence &D : Divergent) {
    if (D.barrier != &B)
      continue;
    R.status = SolverResult::Violated;
    O.failure = "barrier reached by threadIdx=" + formatThread(D.arrivingThread) +
                " but not by threadIdx=" + formatThread(D.missingThread) + " of the same block";
    R.counterexample.push_back({B.call->getBeginLoc(), "counterexample: " + D.context});
    return R;
  }
  if (std::find(Undecided.begin(), Undecided.end(), &B) != Undecided.end()) {
    R.status = SolverResult::Unknown;
    R.reason = "the condition of this barrier could not be decided to be the same for every "
               "thread of the block";
  }
  return R;
}

} // namespace

void addSharedMemoryResults(KernelReport &Report, KernelAnalysis &A, clang::ASTContext &Ctx,
                            const SharedCheckOptions &Opts) {
  std::vector<SkippedAccess> Skipped;
  std::vector<LdsRace> Races = findLdsRaces(A, Ctx, Opts, &Skipped);
  // One obligation per array, at its first access in program order.
  std::vector<std::pair<const clang::ValueDecl *, const LdsAccess *>> Arrays;
  for (const LdsAccess &Acc : A.ldsAccesses())
    if (std::none_of(Arrays.begin(), Arrays.end(),
                     [&](const auto &P) { return P.first == Acc.array; }))
      Arrays.push_back({Acc.array, &Acc});
  for (const auto &[Array, First] : Arrays)
    Report.results.push_back(raceFreedom(Array, *First, Races, Skipped));
  std::vector<const BarrierSite *> Undecided;
  std::vector<BarrierDivergence> Divergent = findDivergentBarriers(A, Opts.launch, &Undecided);
  for (const BarrierSite &B : A.barriers())
    if (!B.guard.empty() && B.call)
      Report.results.push_back(barrierUniformity(B, Divergent, Undecided));
}

} // namespace ave::inv::lds
