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

namespace {

// The findings of one launch.
struct LaunchFindings {
  const LaunchContext *launch = nullptr;
  std::vector<SkippedAccess> skipped;
  std::vector<LdsRace> races;
  std::vector<const BarrierSite *> undecided;
  std::vector<BarrierDivergence> divergent;
};

// Over every launch: the first violation (named by its launch), else the
// first unproven result, else proven.
ObligationResult combine(std::vector<ObligationResult> PerLaunch,
                         const std::vector<LaunchFindings> &Launches) {
  for (size_t I = 0; I < PerLaunch.size(); ++I) {
    ObligationResult &R = PerLaunch[I];
    if (R.status != SolverResult::Violated)
      continue;
    if (!Launches[I].launch->label.empty())
      R.obligation.failure += " (for the launch at " + Launches[I].launch->label + ")";
    return std::move(R);
  }
  for (size_t I = 0; I < PerLaunch.size(); ++I)
    if (PerLaunch[I].status == SolverResult::Unknown)
      return std::move(PerLaunch[I]);
  return std::move(PerLaunch.front());
}

void addValues(ObligationResult &R, const WitnessValues &Values) {
  for (const auto &[Name, V] : Values)
    R.values[Name] = V;
  if (!Values.empty())
    R.counterexample.push_back({{}, "values: " + formatValues(Values)});
}

} // namespace

void addSharedMemoryResults(KernelReport &Report, KernelAnalysis &A, clang::ASTContext &Ctx,
                            const SharedCheckOptions &Opts,
                            std::span<const LaunchContext> Launches) {
  std::vector<LaunchContext> Own{Opts.launchContext};
  if (Launches.empty())
    Launches = Own;
  std::vector<LaunchFindings> Found;
  for (const LaunchContext &L : Launches) {
    LaunchFindings F;
    F.launch = &L;
    if (L.unusable.empty()) {
      SharedCheckOptions O = Opts;
      O.launchContext = L;
      F.races = findLdsRaces(A, Ctx, O, &F.skipped);
      F.divergent = findDivergentBarriers(A, Opts.launch, &F.undecided, &L);
    }
    Found.push_back(std::move(F));
  }
  // One obligation per array, at its first access in program order.
  std::vector<std::pair<const clang::ValueDecl *, const LdsAccess *>> Arrays;
  for (const LdsAccess &Acc : A.ldsAccesses())
    if (std::none_of(Arrays.begin(), Arrays.end(),
                     [&](const auto &P) { return P.first == Acc.array; }))
      Arrays.push_back({Acc.array, &Acc});
  auto Unusable = [](ObligationResult R, const LaunchContext &L) {
    R.status = SolverResult::Unknown;
    R.reason = L.unusable;
    return R;
  };
  for (const auto &[Array, First] : Arrays) {
    std::vector<ObligationResult> PerLaunch;
    for (const LaunchFindings &F : Found) {
      ObligationResult R = raceFreedom(Array, *First, F.races, F.skipped);
      for (const LdsRace &Race : F.races)
        if (R.status == SolverResult::Violated && Race.first->array == Array) {
          addValues(R, Race.values);
          break;
        }
      PerLaunch.push_back(F.launch->unusable.empty() ? std::move(R) : Unusable(R, *F.launch));
    }
    Report.results.push_back(combine(std::move(PerLaunch), Found));
  }
  for (const BarrierSite &B : A.barriers()) {
    if (B.guard.empty() || !B.call)
      continue;
    std::vector<ObligationResult> PerLaunch;
    for (const LaunchFindings &F : Found) {
      ObligationResult R = barrierUniformity(B, F.divergent, F.undecided);
      for (const BarrierDivergence &D : F.divergent)
        if (R.status == SolverResult::Violated && D.barrier == &B) {
          addValues(R, D.values);
          break;
        }
      PerLaunch.push_back(F.launch->unusable.empty() ? std::move(R) : Unusable(R, *F.launch));
    }
    Report.results.push_back(combine(std::move(PerLaunch), Found));
  }
}

} // namespace ave::inv::lds
