// lds-pairing, proven: a layout rewrite may move the elements of an array,
// never merge or split them. Over two dynamic accesses of the array (any two
// threads of one block, any loop iterations, any pair of access sites, one
// solver query per array, under the kernel's facts) the query looks for
//   - a pair that meets at one element before the rewrite and not after, or
//     the reverse (the old -> new element map is not a bijection on the
//     elements the kernel touches);
//   - an access whose new element lies outside the new array;
//   - an access that runs before the rewrite and not after, or the reverse.
// Unsat proves the pairing; an access the analysis could not follow fails.

#include "VerificationStages.h"
#include "ave/invariants/Term.h"

#include <optional>

namespace ave::agent::stages {

namespace {

const char *const AxisNames[3] = {"x", "y", "z"};

std::string lineOf(const LdsAccessRating &A) {
  return A.text + " (line " + std::to_string(A.location.line) + ")";
}

// Two copies (1 and 2) of the accessing thread and its loop counters; the
// block and the launch are shared (shared memory is per block).
struct PairingQuery {
  PairingQuery(inv::TermContext &T, const std::vector<const LdsAccessRating *> &Old,
               const std::vector<const LdsAccessRating *> &New)
      : terms(T), oldAccesses(Old), newAccesses(New) {
    for (unsigned C = 0; C < 2; ++C) {
      selector[C] = T.symbol("access#" + std::to_string(C + 1));
      for (unsigned D = 0; D < 3; ++D) {
        tid[C][D] = T.symbol(std::string("threadIdx.") + AxisNames[D] + "#" + std::to_string(C + 1),
                             inv::SymbolKind::ThreadIdx, D);
        renaming[C][T.builtin(inv::SymbolKind::ThreadIdx, D)] = tid[C][D];
      }
      for (const LdsAccessRating *A : Old)
        for (const PairingLoop &L : A->pairing.loops)
          renaming[C][L.counter] =
              T.symbol("loop" + std::to_string(L.id) + "#" + std::to_string(C + 1),
                       inv::SymbolKind::LoopCounter);
    }
  }

  const inv::Term *rename(unsigned C, const inv::Term *X) {
    return inv::substitute(terms, X, renaming[C]);
  }
  const inv::Term *all(unsigned C, const std::vector<const inv::Term *> &Xs) {
    std::vector<const inv::Term *> Renamed;
    for (const inv::Term *X : Xs)
      Renamed.push_back(rename(C, X));
    return terms.allOf(Renamed);
  }
  // Copy C's choice among the per-access values.
  const inv::Term *choose(unsigned C, const std::vector<const inv::Term *> &PerAccess) {
    const inv::Term *Out = PerAccess.back();
    for (size_t I = PerAccess.size() - 1; I-- > 0;)
      Out = terms.select(terms.eq(selector[C], terms.constant(int64_t(I))), PerAccess[I], Out);
    return Out;
  }

  struct Side {
    const inv::Term *loops, *oldGuard, *newGuard, *oldElement, *newElement;
  };
  Side side(unsigned C) {
    std::vector<const inv::Term *> Loops, OldGuard, NewGuard, OldElement, NewElement;
    for (size_t I = 0; I < oldAccesses.size(); ++I) {
      const PairingAccess &Old = oldAccesses[I]->pairing, &New = newAccesses[I]->pairing;
      std::vector<const inv::Term *> Facts;
      for (const PairingLoop &L : Old.loops)
        Facts.insert(Facts.end(), L.facts.begin(), L.facts.end());
      Loops.push_back(all(C, Facts));
      OldGuard.push_back(all(C, Old.guard));
      NewGuard.push_back(all(C, New.guard));
      OldElement.push_back(rename(C, Old.address));
      NewElement.push_back(rename(C, New.address));
    }
    return {choose(C, Loops), choose(C, OldGuard), choose(C, NewGuard), choose(C, OldElement),
            choose(C, NewElement)};
  }

  inv::TermContext &terms;
  const std::vector<const LdsAccessRating *> &oldAccesses, &newAccesses;
  const inv::Term *selector[2] = {};
  const inv::Term *tid[2][3] = {};
  inv::TermMap renaming[2];
  Side sides[2] = {};
  const inv::Term *guardMismatch = nullptr, *outOfRange = nullptr, *split = nullptr;
};

std::string threadOf(PairingQuery &Q, unsigned C, const inv::Assignment &M) {
  std::string Out = "(";
  for (unsigned D = 0; D < 3; ++D) {
    std::optional<int64_t> V = inv::evaluate(Q.tid[C][D], M);
    Out += (D ? "," : "") + (V ? std::to_string(*V) : std::string("0"));
  }
  return Out + ")";
}

// The counterexample in words.
std::string explain(PairingQuery &Q, const inv::SolverResult &R, uint64_t NewElements) {
  const inv::Assignment &M = R.assignment;
  auto Value = [&](const inv::Term *X) { return inv::evaluate(X, M).value_or(-1); };
  auto Site = [&](unsigned C) {
    int64_t I = Value(Q.selector[C]);
    return I >= 0 && size_t(I) < Q.oldAccesses.size() ? lineOf(*Q.oldAccesses[I])
                                                      : std::string("?");
  };
  std::string First = "thread " + threadOf(Q, 0, M) + " at " + Site(0);
  if (Value(Q.guardMismatch) == 1)
    return First + " runs before the rewrite but not after, or the reverse";
  if (Value(Q.outOfRange) == 1)
    return First + " touches element " + std::to_string(Value(Q.sides[0].newElement)) +
           " after the rewrite, outside the new array's " + std::to_string(NewElements) +
           " elements";
  std::string Pair = First + " and thread " + threadOf(Q, 1, M) + " at " + Site(1);
  int64_t O1 = Value(Q.sides[0].oldElement), O2 = Value(Q.sides[1].oldElement);
  int64_t N1 = Value(Q.sides[0].newElement), N2 = Value(Q.sides[1].newElement);
  if (O1 == O2)
    return Pair + " meet at element " + std::to_string(O1) +
           " before the rewrite but touch elements " + std::to_string(N1) + " and " +
           std::to_string(N2) + " after";
  return Pair + " touch elements " + std::to_string(O1) + " and " + std::to_string(O2) +
         " before the rewrite but meet at element " + std::to_string(N1) + " after";
}

// Why the accesses of one array cannot be compared at all ("" if they can).
std::string unfollowable(const KernelSnapshot &Old, const KernelSnapshot &New,
                         const std::string &Array, const std::vector<const LdsAccessRating *> &A,
                         const std::vector<const LdsAccessRating *> &B) {
  for (const KernelSnapshot *K : {&Old, &New})
    if (const SharedArrayFootprint *F = K->array(Array); F && !F->unlogged.empty())
      return "the analysis did not follow " + F->unlogged.front().text + " (line " +
             std::to_string(F->unlogged.front().location.line) + ")" +
             (K == &Old ? "" : " after the rewrite");
  if (A.empty())
    return "the analysis logged no access of '" + Array + "'";
  if (A.size() != B.size())
    return "'" + Array + "' has " + std::to_string(A.size()) + " accesses before and " +
           std::to_string(B.size()) + " after";
  for (size_t I = 0; I < A.size(); ++I)
    for (const LdsAccessRating *X : {A[I], B[I]})
      if (!X->pairing.address)
        return "the analysis could not follow the address of " + lineOf(*X) + ": " +
               X->pairing.unfollowed;
  const SharedArrayFootprint *F = New.array(Array);
  if (!F || !F->elements)
    return "the size of '" + Array + "' after the rewrite is not known";
  return "";
}

// One solver over the query: both copies' facts, and the access each copy
// picks (any, or the pair Pick when given).
inv::SolverResult solve(PairingQuery &Q, const KernelSnapshot &Old, const inv::Term *Violation,
                        std::optional<std::pair<int64_t, int64_t>> Pick, unsigned TimeoutMs) {
  inv::TermContext &T = Q.terms;
  inv::ObligationSolver Solver(T, TimeoutMs);
  for (unsigned C = 0; C < 2; ++C) {
    if (Pick) {
      Solver.addFact(T.eq(Q.selector[C], T.constant(C ? Pick->second : Pick->first)));
    } else {
      Solver.addFact(T.ge(Q.selector[C], T.constant(0)));
      Solver.addFact(T.lt(Q.selector[C], T.constant(int64_t(Q.oldAccesses.size()))));
    }
    for (const inv::Term *F : Old.pairingFacts)
      Solver.addFact(Q.rename(C, F));
  }
  return Solver.check(Violation);
}

// The whole query at once (a quarter of the time limit); when the solver
// gives up on it, one query per pair of access sites (i <= j covers every
// site for the one-copy parts).
inv::SolverResult prove(PairingQuery &Q, const KernelSnapshot &Old, const inv::Term *Violation,
                        unsigned TimeoutMs, unsigned &Queries) {
  ++Queries;
  inv::SolverResult All = solve(Q, Old, Violation, std::nullopt, TimeoutMs / 4);
  if (All.status != inv::SolverResult::Unknown)
    return All;
  const int64_t N = int64_t(Q.oldAccesses.size());
  for (int64_t I = 0; I < N; ++I)
    for (int64_t J = I; J < N; ++J) {
      ++Queries;
      inv::SolverResult One = solve(Q, Old, Violation, std::make_pair(I, J), TimeoutMs);
      if (One.status != inv::SolverResult::Proven)
        return One;
    }
  inv::SolverResult Proven;
  Proven.status = inv::SolverResult::Proven;
  return Proven;
}

StageResult proveOneArray(const KernelSnapshot &Old, const KernelSnapshot &New,
                          const std::string &Array, inv::TermContext &T, unsigned TimeoutMs,
                          unsigned &Accesses, unsigned &Queries) {
  StageResult S;
  std::vector<const LdsAccessRating *> A, B;
  for (const LdsAccessRating &R : Old.accesses)
    if (R.array == Array)
      A.push_back(&R);
  for (const LdsAccessRating &R : New.accesses)
    if (R.array == Array)
      B.push_back(&R);
  if (std::string Why = unfollowable(Old, New, Array, A, B); !Why.empty()) {
    S.status = StageStatus::Failed;
    S.evidence.push_back(Old.kernel + ": '" + Array + "': " + Why);
    return S;
  }
  PairingQuery Q(T, A, B);
  Q.sides[0] = Q.side(0);
  Q.sides[1] = Q.side(1);
  const uint64_t Elements = New.array(Array)->elements;
  const PairingQuery::Side &X = Q.sides[0], &Y = Q.sides[1];
  Q.guardMismatch = T.logicalAnd(X.loops, T.ne(X.oldGuard, X.newGuard));
  Q.outOfRange = T.allOf(std::vector<const inv::Term *>{
      X.loops, X.newGuard,
      T.logicalOr(T.lt(X.newElement, T.constant(0)),
                  T.ge(X.newElement, T.constant(int64_t(Elements))))});
  Q.split = T.allOf(std::vector<const inv::Term *>{
      X.loops, Y.loops, X.oldGuard, Y.oldGuard, X.newGuard, Y.newGuard,
      T.ne(T.eq(X.oldElement, Y.oldElement), T.eq(X.newElement, Y.newElement))});
  inv::SolverResult R = prove(
      Q, Old, T.logicalOr(Q.guardMismatch, T.logicalOr(Q.outOfRange, Q.split)), TimeoutMs, Queries);
  Accesses += unsigned(A.size());
  if (R.status == inv::SolverResult::Proven) {
    S.status = StageStatus::Passed;
    return S;
  }
  S.status = StageStatus::Failed;
  S.evidence.push_back(Old.kernel + ": '" + Array + "': " +
                       (R.status == inv::SolverResult::Violated
                            ? explain(Q, R, Elements)
                            : "the pairing could not be proven: " + R.reason));
  return S;
}

} // namespace

StageResult proveElementPairing(const std::vector<KernelSnapshot> &Before,
                                const std::vector<KernelSnapshot> &After,
                                const std::set<std::pair<std::string, std::string>> &Arrays,
                                inv::TermContext &Terms, unsigned TimeoutMs) {
  auto Start = std::chrono::steady_clock::now();
  StageResult S;
  S.name = "lds-pairing";
  if (Arrays.empty()) {
    S.status = StageStatus::Skipped;
    S.message = "no array changed by layout rewrites alone (a pipelined array's accesses "
                "move; the other stages check it)";
    return S;
  }
  unsigned Proven = 0, Accesses = 0, Queries = 0;
  for (const auto &[Kernel, Array] : Arrays) {
    const KernelSnapshot *Old = findKernel(Before, Kernel), *New = findKernel(After, Kernel);
    if (!Old || !New || Old->dependent) {
      S.status = StageStatus::Failed;
      S.failedKernels.insert(Kernel);
      S.evidence.push_back(Kernel + ": '" + Array + "': " +
                           (Old && Old->dependent ? "a template kernel is not analysed"
                                                  : "the kernel is missing from a snapshot"));
      continue;
    }
    StageResult One = proveOneArray(*Old, *New, Array, Terms, TimeoutMs, Accesses, Queries);
    S.evidence.insert(S.evidence.end(), One.evidence.begin(), One.evidence.end());
    if (One.status == StageStatus::Failed) {
      S.status = StageStatus::Failed;
      S.failedKernels.insert(Kernel);
    } else
      ++Proven;
  }
  S.millis = millisSince(Start);
  S.data = {
      {"arrays", Arrays.size()}, {"proven", Proven}, {"accesses", Accesses}, {"queries", Queries}};
  if (S.status == StageStatus::Failed) {
    S.message = "the rewrite is not proven to keep which accesses meet at one element";
    return S;
  }
  S.status = StageStatus::Passed;
  S.message = "proven for " + std::to_string(Proven) + " array(s), " + std::to_string(Accesses) +
              " accesses: the same accesses meet at one element before and after, in range, " +
              "over all threads, blocks and loop iterations";
  return S;
}

} // namespace ave::agent::stages
