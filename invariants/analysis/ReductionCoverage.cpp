#include "ReductionCoverage.h"

namespace ave::inv {

Reduction ReductionCoverage::overThreads(const Reduction &Partial) {
  // A partial sum that reached this store through shared memory from other
  // threads (its index mentions a writer thread's ids) is taken to be
  // combined over every thread of the block: the thread ids join the
  // iteration space. That the combination (an LDS tree, say) really visits
  // every thread once is assumed here, not proven.
  TermContext &T = Ctx.terms;
  Reduction R = Partial;
  if (!R.crossedThreads || R.partialOverThreadDims.empty() || !R.perThreadTerm)
    return R;
  TermMap AnyThread;
  std::vector<ReductionLoop> Threads;
  for (unsigned D : R.partialOverThreadDims) {
    const Term *Any = T.freshCopy(Ctx.symbols.tid[D]);
    AnyThread[Ctx.symbols.tid[D]] = Any;
    ReductionLoop L;
    L.counter = Any;
    L.name = std::string("threadIdx.") + "xyz"[D];
    L.facts = {T.ge(Any, T.constant(0)), T.lt(Any, Ctx.symbols.bdim[D])};
    L.tripCount =
        Ctx.symbols.launchBlock[D] ? T.constant(*Ctx.symbols.launchBlock[D]) : Ctx.symbols.bdim[D];
    Threads.push_back(std::move(L));
  }
  R.term = substitute(T, R.perThreadTerm, AnyThread);
  R.constraints.clear();
  for (const Term *C : R.perThreadConstraints)
    R.constraints.push_back(substitute(T, C, AnyThread));
  for (ReductionLoop &L : R.loops)
    for (const Term *&F : L.facts)
      F = substitute(T, F, AnyThread);
  R.loops.insert(R.loops.end(), Threads.begin(), Threads.end());
  return R;
}

Obligation ReductionCoverage::injective(const Reduction &R, const std::string &Loops,
                                        const clang::Expr *Site, const FlowState &State) {
  TermContext &T = Ctx.terms;
  TermMap First, Second;
  std::vector<const Term *> Symbols = collectSymbols(R.term);
  for (const Term *C : R.constraints)
    for (const Term *S : collectSymbols(C))
      Symbols.push_back(S);
  for (const ReductionLoop &L : R.loops)
    Symbols.push_back(L.counter);
  for (const Term *S : Symbols)
    // Iteration points and the existentials they bring are copied; the
    // thread's own choices (its ids, a result slot: kind Other) are not.
    if (S->symbolKind() == SymbolKind::LoopCounter || S->symbolKind() == SymbolKind::Fresh ||
        (S->symbolKind() != SymbolKind::Other && S->symbolKind() != SymbolKind::Param &&
         S->isFresh())) {
      if (First.count(S))
        continue;
      First[S] = T.freshCopy(S);
      Second[S] = T.freshCopy(S);
    }
  Obligation O = Ctx.makeObligation(ObligationKind::ReductionInjective, Site, State);
  O.range = clang::SourceRange(R.site, R.site);
  O.summary = "each '" + R.name + "' is reduced once over loops (" + Loops + ")";
  O.failure = "reduction over '" + R.name + "' counts an index twice";
  const Term *Differ = T.falseTerm();
  for (const ReductionLoop &L : R.loops) {
    for (const TermMap *M : {&First, &Second})
      for (const Term *F : L.facts)
        O.context.push_back(substitute(T, F, *M));
    Differ = T.logicalOr(Differ,
                         T.ne(substitute(T, L.counter, First), substitute(T, L.counter, Second)));
  }
  for (const TermMap *M : {&First, &Second})
    for (const Term *C : R.constraints)
      O.context.push_back(substitute(T, C, *M));
  const Term *I1 = substitute(T, R.term, First), *I2 = substitute(T, R.term, Second);
  O.violation = T.logicalAnd(Differ, T.eq(I1, I2));
  for (const ReductionLoop &L : R.loops) {
    O.observe.push_back({L.name + " (first)", substitute(T, L.counter, First)});
    O.observe.push_back({L.name + " (second)", substitute(T, L.counter, Second)});
  }
  O.observe.push_back({R.name, I1});
  return O;
}

Obligation ReductionCoverage::complete(const Reduction &R, const Term *Bound,
                                       const std::string &Tensor, const std::string &Loops,
                                       const clang::Expr *Site, const FlowState &State) {
  TermContext &T = Ctx.terms;
  Obligation O = Ctx.makeObligation(ObligationKind::ReductionComplete, Site, State);
  O.range = clang::SourceRange(R.site, R.site);
  O.summary = "loops (" + Loops + ") reduce every '" + R.name + "' in [0, " + print(Bound) + ")";
  const Term *Count = T.constant(1);
  for (const ReductionLoop &L : R.loops) {
    if (!L.tripCount) {
      O.unprovenReason = "loop '" + L.name + "' has no known trip count";
      return O;
    }
    Count = T.mul(Count, L.tripCount);
  }
  std::vector<const Term *> Iteration;
  for (const ReductionLoop &L : R.loops)
    Iteration.insert(Iteration.end(), L.facts.begin(), L.facts.end());
  std::vector<const Term *> InRange = Iteration;
  InRange.insert(InRange.end(), R.constraints.begin(), R.constraints.end());
  const Term *OutOfRange =
      T.logicalAnd(T.allOf(InRange), T.logicalOr(T.lt(R.term, T.constant(0)), T.ge(R.term, Bound)));
  const Term *Skipped = T.falseTerm();
  if (R.contributes)
    Skipped = T.logicalAnd(T.allOf(Iteration), T.logicalNot(R.contributes));
  O.violation = T.logicalOr(T.logicalOr(T.ne(Count, Bound), OutOfRange), Skipped);
  O.failure = "reduction over '" + R.name + "' does not cover " + Tensor + "'s '" + R.name +
              "' exactly: the loops run " + print(Count) + " times for a bound of " + print(Bound);
  O.observe = {{"iterations", Count}, {"bound", Bound}};
  if (R.contributes) {
    O.failure += ", or an iteration does not contribute";
    O.observe.push_back({"iteration contributes", R.contributes});
  }
  return O;
}

void ReductionCoverage::emit(const Reduction &Partial, const clang::Expr *Site,
                             const FlowState &State) {
  if (!Ctx.opts.implicitInvariants)
    return;
  Reduction R = overThreads(Partial);
  // The bound of the reduced name, from the first input tag declaring it.
  const Term *Bound = nullptr;
  std::string Tensor;
  for (const auto &[Decl, Info] : Ctx.tensors)
    for (size_t I = 0; I < Info.coordNames.size(); ++I)
      if (Info.coordNames[I] == R.name && !Info.output) {
        Bound = Info.layout.coordinates[I].bound;
        Tensor = Info.tensor;
      }
  if (!Bound)
    return;
  std::string Loops;
  for (auto It = R.loops.rbegin(); It != R.loops.rend(); ++It)
    Loops += (Loops.empty() ? "" : ", ") + It->name;
  Obligation Injective = injective(R, Loops, Site, State);
  Obligation Complete = complete(R, Bound, Tensor, Loops, Site, State);
  if (!R.notModelled.empty()) {
    Injective.unprovenReason = R.notModelled;
    Complete.unprovenReason = R.notModelled;
  }
  Ctx.log.addObligation(std::move(Injective));
  Ctx.log.addObligation(std::move(Complete));
}

} // namespace ave::inv
