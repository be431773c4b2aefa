// cp.async copies in the race check. The provenance analysis logs a copy
// (`ave_cp_async(&S[i], &G[j])`, which the pipeline rewrite's sm_90 variant
// issues) as the store S[i] = G[j] where it is issued, in that barrier
// interval. That is what the hardware does only if the copy has landed
// before the interval ends and nothing of the issuing thread touches the
// element while it is in flight. Both are checked here; where either is not
// shown, the array's race obligation is unproven (never violated: the order
// of the thread's own accesses inside an interval is not modelled, so a
// meeting found is not known to happen).

#include "ave/invariants/KernelAnalysis.h"
#include "ave/invariants/lds/SharedMemoryChecks.h"
#include "ave/invariants/lds/ThreadPair.h"

#include <algorithm>
#include <set>

namespace ave::inv::lds {

namespace {

// The loops around Outer are the outermost of those around Inner.
bool enclosing(const std::vector<LoopContext> &Outer, const std::vector<LoopContext> &Inner) {
  return Outer.size() <= Inner.size() &&
         std::equal(Outer.begin(), Outer.end(), Inner.begin(),
                    [](const LoopContext &X, const LoopContext &Y) { return X.id == Y.id; });
}

// Some `ave_cp_async_wait_all()` after Copy, in its interval, in its loop
// iteration or after a loop the copy is in (a copy per row of a region
// loop, the wait after it), runs on every path that issued it: its path
// condition follows from the copy's (a term of it, or, after a join of
// branches, a disjunction the solver shows the copy's path implies).
bool waitedInInterval(KernelAnalysis &A, TermContext &T, const LdsAccess &Copy) {
  std::set<const Term *> Issued(Copy.guard.begin(), Copy.guard.end());
  auto Implied = [&](const Term *G) {
    if (Issued.count(G))
      return true;
    std::vector<const Term *> Query = Copy.guard;
    Query.push_back(T.logicalNot(G));
    return A.solver().check(T.allOf(Query), {}).status == SolverResult::Proven;
  };
  const std::vector<AsyncWaitSite> &Waits = A.asyncWaits();
  return std::any_of(Waits.begin(), Waits.end(), [&](const AsyncWaitSite &W) {
    return W.interval == Copy.interval && W.seq > Copy.seq && enclosing(W.loops, Copy.loops) &&
           std::all_of(W.guard.begin(), W.guard.end(), Implied);
  });
}

// Whether the thread that issued Copy may reach Other (another access, or
// Copy in another iteration) at the copy's element in the same interval.
bool mayTouchOwnCopy(KernelAnalysis &A, ThreadPair &P, const LdsAccess &Copy,
                     const LdsAccess &Other) {
  TermContext &T = P.terms();
  std::vector<const Term *> Base = P.threadFacts(0);
  Base.insert(Base.end(), P.threadFacts(1).begin(), P.threadFacts(1).end());
  for (unsigned D = 0; D < 3; ++D)
    Base.push_back(T.eq(P.threadIdx(0, D), P.threadIdx(1, D)));
  if (&Copy == &Other) {
    const Term *Another = T.falseTerm();
    for (const LoopContext &L : Copy.loops)
      Another = T.logicalOr(Another, T.logicalNot(P.sameIteration(L)));
    if (Another->isConstant(0))
      return false; // one copy, issued once
    Base.push_back(Another);
  }
  for (const Term *G : Copy.guard)
    Base.push_back(P.rename(0, G));
  for (const Term *G : Other.guard)
    Base.push_back(P.rename(1, G));
  const Term *Addr0 = P.rename(0, Copy.address);
  Base.push_back(T.eq(Addr0, P.rename(1, Other.address)));
  for (const IntervalCase &C : P.sameInterval(Copy, Other)) {
    std::vector<const Term *> Query = Base;
    Query.insert(Query.end(), C.constraints.begin(), C.constraints.end());
    if (A.solver().check(T.allOf(Query), {Addr0}).status != SolverResult::Proven)
      return true;
  }
  return false;
}

} // namespace

void findAsyncCopyHazards(KernelAnalysis &A, const SharedCheckOptions &Opts,
                          std::vector<SkippedAccess> &Skipped) {
  const std::vector<LdsAccess> &Log = A.ldsAccesses();
  if (std::none_of(Log.begin(), Log.end(), [](const LdsAccess &Acc) { return Acc.async; }))
    return;
  ThreadPair P(A, Opts.launch, &Opts.launchContext);
  for (const LdsAccess &Copy : Log) {
    if (!Copy.async)
      continue;
    if (!waitedInInterval(A, P.terms(), Copy)) {
      Skipped.push_back({&Copy, "this cp.async is not followed by ave_cp_async_wait_all() before "
                                "the next barrier on every path that issues it, so the copy may "
                                "land in a later barrier interval"});
      continue;
    }
    for (const LdsAccess &Other : Log)
      if (Other.array == Copy.array && mayTouchOwnCopy(A, P, Copy, Other)) {
        Skipped.push_back({&Copy,
                           "the thread that issues this cp.async may itself access the element in "
                           "the same barrier interval, while the copy may still be in flight (the "
                           "order of one thread's accesses inside an interval is not modelled)"});
        break;
      }
  }
}

} // namespace ave::inv::lds
