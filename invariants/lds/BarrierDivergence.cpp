// ave-barrier-divergence: a barrier that one thread of a block reaches and
// another, in the same iteration of every enclosing loop, does not. The
// solver gets the barrier's path condition for thread 0 and its negation
// for thread 1; early exits (`if (i >= n) return;`) are part of the path.

#include "ave/invariants/KernelAnalysis.h"
#include "ave/invariants/lds/SharedMemoryChecks.h"
#include "ave/invariants/lds/ThreadPair.h"

namespace ave::inv::lds {

std::vector<BarrierDivergence> findDivergentBarriers(KernelAnalysis &A, const LaunchShape &Shape,
                                                     std::vector<const BarrierSite *> *Undecided,
                                                     const LaunchContext *Launch) {
  std::vector<BarrierDivergence> Out;
  ThreadPair P(A, Shape, Launch);
  TermContext &T = P.terms();
  for (const BarrierSite &B : A.barriers()) {
    if (B.guard.empty())
      continue;
    // A wrapped conversion (`threadIdx.x < n`, n an int) is asked where it
    // keeps its value (n >= 0): a divergence found there is real, and none
    // found there decides nothing.
    std::vector<const Term *> Guard, Exact;
    for (const Term *G : B.guard)
      Guard.push_back(exactBranches(T, G, Exact));
    if (!std::all_of(Guard.begin(), Guard.end(), isFollowable) ||
        !std::all_of(Exact.begin(), Exact.end(), isFollowable)) {
      if (Undecided) // a condition the analysis cannot see: no claim either way
        Undecided->push_back(&B);
      continue;
    }
    std::vector<const Term *> Query = P.threadFacts(0);
    Query.insert(Query.end(), P.threadFacts(1).begin(), P.threadFacts(1).end());
    std::vector<const Term *> G0, G1;
    for (const Term *G : Guard) {
      G0.push_back(P.rename(0, G));
      G1.push_back(P.rename(1, G));
    }
    for (const Term *C : Exact) {
      Query.push_back(P.rename(0, C));
      Query.push_back(P.rename(1, C));
    }
    Query.push_back(T.allOf(G0));
    Query.push_back(T.logicalNot(T.allOf(G1)));
    for (const LoopContext &L : B.loops)
      Query.push_back(P.sameIteration(L));
    const Term *Q = T.allOf(Query);
    SolverResult R = A.solver().check(Q);
    bool Diverges = R.status == SolverResult::Violated && A.solver().confirms(Q, R);
    if ((R.status != SolverResult::Proven || !Exact.empty()) && !Diverges && Undecided)
      Undecided->push_back(&B);
    if (!Diverges)
      continue;
    BarrierDivergence D;
    D.barrier = &B;
    for (unsigned Dim = 0; Dim < 3; ++Dim) {
      D.arrivingThread[Dim] = evaluate(P.threadIdx(0, Dim), R.assignment).value_or(0);
      D.missingThread[Dim] = evaluate(P.threadIdx(1, Dim), R.assignment).value_or(0);
    }
    std::string Loops;
    for (const LoopContext &L : B.loops) {
      std::optional<int64_t> V = evaluate(P.rename(0, L.counter), R.assignment);
      if (V)
        Loops += " " + L.counter->baseName() + "=" + std::to_string(*V);
    }
    D.context = "blockIdx=(" + std::to_string(evaluate(A.blockIdx(0), R.assignment).value_or(0)) +
                "," + std::to_string(evaluate(A.blockIdx(1), R.assignment).value_or(0)) + "," +
                std::to_string(evaluate(A.blockIdx(2), R.assignment).value_or(0)) + ")" + Loops;
    D.launch = Launch ? Launch->label : "";
    D.values = P.witnessValues(Q, R.assignment);
    Out.push_back(std::move(D));
  }
  return Out;
}

} // namespace ave::inv::lds
