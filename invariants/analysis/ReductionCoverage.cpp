#include "ReductionCoverage.h"

#include "clang/AST/Decl.h"

#include <algorithm>

namespace ave::inv {

namespace {

// The flat thread ids in Set (ascending): one stride where they are evenly
// spaced (`F % 2 == 0` of a tree that stopped a level early), otherwise
// `lo <= F && F <= hi` ranges.
const Term *memberOf(TermContext &T, const Term *F, const std::vector<unsigned> &Set) {
  if (Set.size() > 2) {
    int64_t Step = int64_t(Set[1]) - Set[0];
    bool Even = Step > 1;
    for (size_t I = 2; Even && I < Set.size(); ++I)
      Even = int64_t(Set[I]) - Set[I - 1] == Step;
    if (Even)
      return T.logicalAnd(
          T.logicalAnd(T.ge(F, T.constant(Set.front())), T.le(F, T.constant(Set.back()))),
          T.eq(T.rem(T.sub(F, T.constant(Set.front())), T.constant(Step)), T.constant(0)));
  }
  const Term *In = T.falseTerm();
  for (size_t I = 0; I < Set.size();) {
    size_t J = I;
    while (J + 1 < Set.size() && Set[J + 1] == Set[J] + 1)
      ++J;
    In = T.logicalOr(In, T.logicalAnd(T.ge(F, T.constant(Set[I])), T.le(F, T.constant(Set[J]))));
    I = J + 1;
  }
  return In;
}

} // namespace

const TreeCombination *ReductionCoverage::treeOf(const Reduction &R) {
  if (R.crossedVia.size() != 1 || Ctx.laneCombinations.count(R.crossedVia.front()))
    return nullptr;
  return &Ctx.treeOver(R.crossedVia.front());
}

std::vector<Reduction> ReductionCoverage::overThreads(const Reduction &Partial,
                                                      const FlowState &State, bool *Assumed) {
  // A partial sum that reached this store from other threads (through
  // shared memory, or a warp shuffle) is combined over the block's or the
  // wave's threads: they join the iteration space. Where the combination
  // was run for the launch's shape (TreeReduction.h, ShuffleReduction.h),
  // each thread is taken as many times as it reaches the stored value (a
  // layer per multiplicity); otherwise every thread of the block once,
  // which is an assumption.
  if (!Partial.crossedThreads || Partial.partialOverThreadDims.empty() || !Partial.perThreadTerm)
    return {Partial};
  if (Partial.crossedVia.size() == 1)
    if (auto It = Ctx.laneCombinations.find(Partial.crossedVia.front());
        It != Ctx.laneCombinations.end()) {
      std::vector<Reduction> Lanes = overLanes(Partial, It->second, State);
      if (Assumed)
        *Assumed = UnfollowedWhy.count(Partial.crossedVia.front()) > 0;
      return Lanes;
    }
  const TreeCombination *Tree = treeOf(Partial);
  if (!Tree || !Tree->unmodelled.empty() || !Ctx.flatThread()) {
    if (Assumed)
      *Assumed = true;
    return {overEveryThread(Partial)};
  }
  const Term *Flat = Ctx.terms.freshCopy(Ctx.symbols.tid[0]);
  bool OneDimensional = *Ctx.symbols.launchBlock[1] == 1 && *Ctx.symbols.launchBlock[2] == 1;
  return layers(Partial, Tree->times, Flat, Flat,
                OneDimensional ? "threadIdx.x" : "the block's threads");
}

std::vector<Reduction> ReductionCoverage::overLanes(const Reduction &Partial,
                                                    const LaneCombination &Lanes,
                                                    const FlowState &State) {
  TermContext &T = Ctx.terms;
  const Term *Flat = Ctx.flatThread();
  int64_t Wave = static_cast<int64_t>(Lanes.times.size());
  const clang::ValueDecl *Loop = Partial.crossedVia.front();
  auto Unfollowed = [&](std::string Why) {
    UnfollowedWhy[Loop] = std::move(Why);
    return std::vector<Reduction>{overEveryThread(Partial)};
  };
  if (!Lanes.unmodelled.empty())
    return Unfollowed(Lanes.unmodelled);
  if (!Flat)
    return Unfollowed("the block shape is not fixed by a launch pragma");
  int64_t Threads =
      *Ctx.symbols.launchBlock[0] * *Ctx.symbols.launchBlock[1] * *Ctx.symbols.launchBlock[2];
  if (Threads % Wave != 0)
    return Unfollowed("the block is not a whole number of " + std::to_string(Wave) + "-lane waves");
  // The storing lane: any, where every lane holds the same combination;
  // otherwise lane 0, where the store's path allows no other.
  const std::vector<unsigned> *Times = &Lanes.times.front();
  bool Same = std::all_of(Lanes.times.begin(), Lanes.times.end(),
                          [&](const std::vector<unsigned> &L) { return L == *Times; });
  if (!Same) {
    std::vector<const Term *> Query = State.path;
    Query.push_back(T.ne(T.rem(Flat, T.constant(Wave)), T.constant(0)));
    if (Ctx.ask("the storing lane is lane 0", T.allOf(Query)).status != SolverResult::Proven)
      return Unfollowed("the lanes hold different combinations, and the store is not made by "
                        "lane 0 alone");
  }
  const Term *Lane = T.freshCopy(Ctx.symbols.tid[0]);
  const Term *Base = T.mul(T.div(Flat, T.constant(Wave)), T.constant(Wave));
  return layers(Partial, *Times, Lane, T.add(Base, Lane), "the wave's lanes");
}

std::vector<Reduction> ReductionCoverage::layers(const Reduction &Partial,
                                                 const std::vector<unsigned> &Times,
                                                 const Term *Counter, const Term *FlatOfCounter,
                                                 const std::string &Name) {
  TermContext &T = Ctx.terms;
  TermMap ThreadOf = Ctx.threadOfFlat(FlatOfCounter);
  std::vector<Reduction> Layers;
  for (unsigned Taken = 1;; ++Taken) {
    std::vector<unsigned> Set;
    for (unsigned Th = 0; Th < Times.size(); ++Th)
      if (Times[Th] >= Taken)
        Set.push_back(Th);
    if (Set.empty() && Taken > 1)
      break;
    Reduction R = Partial;
    R.crossedThreads = false;
    ReductionLoop L;
    L.counter = Counter;
    L.name = Name + (Taken > 1 ? " (taken again)" : "");
    L.facts = {T.ge(Counter, T.constant(0)),
               T.lt(Counter, T.constant(static_cast<int64_t>(Times.size()))),
               memberOf(T, Counter, Set)};
    L.tripCount = T.constant(static_cast<int64_t>(Set.size()));
    L.start = T.constant(0); // the threads in order, those of Set taken
    L.step = T.constant(1);
    onThreads(R, ThreadOf);
    if (R.contributes)
      R.contributes = substitute(T, R.contributes, ThreadOf);
    R.loops.push_back(std::move(L));
    Layers.push_back(std::move(R));
  }
  return Layers;
}

void ReductionCoverage::onThreads(Reduction &R, const TermMap &ThreadOf) {
  TermContext &T = Ctx.terms;
  R.term = substitute(T, R.perThreadTerm, ThreadOf);
  R.constraints.clear();
  for (const Term *C : R.perThreadConstraints)
    R.constraints.push_back(substitute(T, C, ThreadOf));
  for (ReductionLoop &Loop : R.loops)
    for (const Term *&F : Loop.facts)
      F = substitute(T, F, ThreadOf);
}

Reduction ReductionCoverage::overEveryThread(const Reduction &Partial) {
  TermContext &T = Ctx.terms;
  Reduction R = Partial;
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
  onThreads(R, AnyThread);
  R.loops.insert(R.loops.end(), Threads.begin(), Threads.end());
  return R;
}

namespace {

// Two copies of a piece's iteration point: its loop counters and the
// existential symbols they bring; the thread's own choices (its ids, a
// result slot: kind Other), the parameters and `Shared` (the counters of
// the loops around the question, which pick the accumulator element whose
// reduction it is: `acc[i][j][e]` stored in a loop over i, j and e) are
// shared.
std::pair<TermMap, TermMap> iterationCopies(TermContext &T, const Reduction &R,
                                            const TermSet &Shared) {
  std::vector<const Term *> Symbols = collectSymbols(R.term);
  for (const Term *C : R.constraints)
    for (const Term *S : collectSymbols(C))
      Symbols.push_back(S);
  for (const ReductionLoop &L : R.loops)
    Symbols.push_back(L.counter);
  TermMap First, Second;
  for (const Term *S : Symbols)
    if (Shared.count(S))
      continue;
    else if (S->symbolKind() == SymbolKind::LoopCounter || S->symbolKind() == SymbolKind::Fresh ||
             (S->symbolKind() != SymbolKind::Other && S->symbolKind() != SymbolKind::Param &&
              S->isFresh())) {
      if (First.count(S))
        continue;
      First[S] = T.freshCopy(S);
      Second[S] = T.freshCopy(S);
    }
  return {std::move(First), std::move(Second)};
}

// The piece's iteration point under Copy: its loops' facts and its
// constraints.
std::vector<const Term *> iterationFacts(TermContext &T, const Reduction &R, const TermMap &Copy) {
  std::vector<const Term *> Facts;
  for (const ReductionLoop &L : R.loops)
    for (const Term *F : L.facts)
      Facts.push_back(substitute(T, F, Copy));
  for (const Term *C : R.constraints)
    Facts.push_back(substitute(T, C, Copy));
  return Facts;
}

} // namespace

Obligation ReductionCoverage::injective(const std::vector<Reduction> &Pieces, const Term *Applies,
                                        const std::string &Loops, const clang::Expr *Site,
                                        const FlowState &State) {
  TermContext &T = Ctx.terms;
  const Reduction &Last = Pieces.back();
  std::vector<TermMap> First, Second;
  for (const Reduction &R : Pieces) {
    TermSet Shared;
    for (const LoopFrame &F : Ctx.loops)
      if (F.span.counter &&
          std::none_of(R.loops.begin(), R.loops.end(),
                       [&](const ReductionLoop &L) { return L.counter == F.span.counter; }))
        Shared.insert(F.span.counter);
    auto [F, S] = iterationCopies(T, R, Shared);
    First.push_back(std::move(F));
    Second.push_back(std::move(S));
  }
  Obligation O = Ctx.makeObligation(ObligationKind::ReductionInjective, Site, State);
  O.range = clang::SourceRange(Last.site, Last.site);
  O.summary = "each '" + Last.name + "' is reduced once over loops (" + Loops + ")";
  O.failure = "reduction over '" + Last.name + "' counts an index twice";
  // Two iteration points of one piece that differ, or one point each of
  // two pieces, reduce the same index.
  const Term *Twice = T.falseTerm();
  for (size_t I = 0; I < Pieces.size(); ++I)
    for (size_t J = I; J < Pieces.size(); ++J) {
      std::vector<const Term *> Both = iterationFacts(T, Pieces[I], First[I]);
      std::vector<const Term *> Other = iterationFacts(T, Pieces[J], Second[J]);
      Both.insert(Both.end(), Other.begin(), Other.end());
      if (I == J) {
        const Term *Differ = T.falseTerm();
        for (const ReductionLoop &L : Pieces[I].loops)
          Differ = T.logicalOr(Differ, T.ne(substitute(T, L.counter, First[I]),
                                            substitute(T, L.counter, Second[I])));
        Both.push_back(Differ);
      }
      Both.push_back(
          T.eq(substitute(T, Pieces[I].term, First[I]), substitute(T, Pieces[J].term, Second[J])));
      if (Pieces.size() == 1) {
        // One piece: its facts are the context, loop by loop, the
        // violation is that two points differ and meet.
        const Reduction &R = Pieces[I];
        for (const ReductionLoop &L : R.loops)
          for (const TermMap *M : {&First[I], &Second[I]})
            for (const Term *F : L.facts)
              O.context.push_back(substitute(T, F, *M));
        for (const TermMap *M : {&First[I], &Second[I]})
          for (const Term *C : R.constraints)
            O.context.push_back(substitute(T, C, *M));
        Twice = T.logicalAnd(Both[Both.size() - 2], Both.back());
      } else {
        Twice = T.logicalOr(Twice, T.allOf(Both));
      }
    }
  O.violation = Applies ? T.logicalAnd(Applies, Twice) : Twice;
  for (size_t I = 0; I < Pieces.size(); ++I)
    for (const ReductionLoop &L : Pieces[I].loops) {
      // Several pieces: which loop nest, by its place in the sum.
      std::string Name =
          Pieces.size() == 1 ? L.name : L.name + " of piece " + std::to_string(I + 1);
      O.observe.push_back({Name + " (first)", substitute(T, L.counter, First[I])});
      O.observe.push_back({Name + " (second)", substitute(T, L.counter, Second[I])});
    }
  O.observe.push_back({Last.name, substitute(T, Last.term, First.back())});
  return O;
}

bool ReductionCoverage::maySkip(const Term *Skipped, const Term *Applies,
                                const std::vector<Reduction> &Pieces, const FlowState &State) {
  // Per iteration of the pieces' loops: the path where the obligation is
  // made may be inside one of them (the accumulation under `if (t > 0)` in
  // the loop over t), and its conditions (and the reduction's) on their
  // counters are what an iteration that adds nothing fails: left out.
  std::vector<const Term *> Conjuncts = State.path, Query;
  if (Applies)
    collectConjuncts(Applies, Conjuncts);
  for (const Term *F : Conjuncts)
    if (std::none_of(Pieces.begin(), Pieces.end(), [&](const Reduction &R) {
          return std::any_of(R.loops.begin(), R.loops.end(),
                             [&](const ReductionLoop &L) { return occursIn(L.counter, F); });
        }))
      Query.push_back(F);
  Query.push_back(Skipped);
  return Ctx.ask("an iteration may add nothing", Ctx.terms.allOf(Query)).status !=
         SolverResult::Proven;
}

bool ReductionCoverage::assumedPositive(const Term *Bound) const {
  if (Bound->isConstant())
    return Bound->value() > 0;
  // A conjunct of the kernel's facts `Bound >= c` (c >= 1) or `Bound > c`
  // (c >= 0), either way round; read, not asked (no new terms).
  for (const Term *Fact : Ctx.kernelFacts) {
    std::vector<const Term *> Conjuncts;
    collectConjuncts(Fact, Conjuncts);
    for (const Term *C : Conjuncts) {
      if (C->numOperands() != 2)
        continue;
      const Term *A = C->operand(0), *B = C->operand(1);
      TermKind K = C->kind();
      if (B == Bound && A->isConstant()) { // c < Bound, c <= Bound
        std::swap(A, B);
        K = K == TermKind::Lt ? TermKind::Gt : K == TermKind::Le ? TermKind::Ge : K;
      }
      if (A != Bound || !B->isConstant())
        continue;
      if ((K == TermKind::Ge && B->value() >= 1) || (K == TermKind::Gt && B->value() >= 0))
        return true;
    }
  }
  return false;
}

const Term *ReductionCoverage::iterationCount(const Reduction &R, Obligation &O) {
  TermContext &T = Ctx.terms;
  const Term *Count = T.constant(1);
  for (const ReductionLoop &L : R.loops) {
    if (!L.tripCount) {
      O.unprovenReason = "loop '" + L.name + "' has no known trip count";
      return nullptr;
    }
    // The iterations are counted as a product of trip counts: one that
    // changes with another loop's counter (`k < min(kk + 4, K)`) sums
    // differently over it.
    for (const Term *S : collectSymbols(L.tripCount))
      if (S->symbolKind() == SymbolKind::LoopCounter) {
        O.unprovenReason = "the trip count of loop '" + L.name + "' changes with loop '" +
                           S->baseName() +
                           "'s counter; counting iterations whose range moves is not modelled";
        return nullptr;
      }
    Count = T.mul(Count, L.tripCount);
  }
  return Count;
}

Obligation ReductionCoverage::maskedComplete(const std::vector<Reduction> &Pieces,
                                             const Term *Applies, const Term *Bound,
                                             const AnalysisContext::ContractionMask &Mask,
                                             const std::map<std::string, const Term *> &Dest,
                                             const std::string &Loops, const clang::Expr *Site,
                                             const FlowState &State) {
  TermContext &T = Ctx.terms;
  const Reduction &R = Pieces.back();
  Obligation O = Ctx.makeObligation(ObligationKind::ReductionComplete, Site, State);
  O.range = clang::SourceRange(R.site, R.site);
  O.summary = "loops (" + Loops + ") reduce every '" + R.name + "' in [0, " + print(Bound) +
              ") that " + Mask.text + " keeps, and only those";
  O.failure =
      "reduction over '" + R.name + "' does not cover exactly the indices " + Mask.text + " keeps";
  if (Pieces.size() != 1) {
    O.unprovenReason = "a masked reduction split over several loops is not modelled";
    return O;
  }
  const Term *Count = iterationCount(R, O);
  if (!Count)
    return O;
  // The mask at index X of the reduced name, for the element stored.
  TermMap At;
  for (const auto &[Name, Placeholder] : Mask.names) {
    auto D = Dest.find(Name);
    if (Name != R.name && D == Dest.end()) {
      O.unprovenReason = Mask.text + " names '" + Name + "', which the output does not have";
      return O;
    }
    if (Name != R.name)
      At[Placeholder] = D->second;
  }
  auto Keeps = [&](const Term *X) {
    TermMap With = At;
    With[Mask.names.at(R.name)] = X;
    return T.logicalAnd(T.logicalAnd(T.ge(X, T.constant(0)), T.lt(X, Bound)),
                        substitute(T, Mask.predicate, With));
  };
  const Term *Contributes = R.contributes ? R.contributes : T.trueTerm();
  // Every iteration of the loops, including those that do not contribute:
  // the case's validity among the constraints (reductionOver adds it) made
  // every iteration a contributing one, and a mask that drops a kept index
  // (`j >= i` for `mask(j <= i)`) was proven.
  std::vector<const Term *> Conditions;
  collectConjuncts(Contributes, Conditions);
  std::vector<const Term *> Iteration;
  for (const Term *F : R.constraints)
    if (F != Contributes && std::find(Conditions.begin(), Conditions.end(), F) == Conditions.end())
      Iteration.push_back(F);
  for (const ReductionLoop &L : R.loops)
    Iteration.insert(Iteration.end(), L.facts.begin(), L.facts.end());
  const Term *Kept = T.freshSymbol(R.name, SymbolKind::Fresh);
  // With the injective obligation, iterations whose index lies in
  // [0, Count) take each index there once; every kept index must be one,
  // and an iteration must contribute exactly when its index is kept.
  const Term *Outside = T.logicalOr(T.lt(R.term, T.constant(0)), T.ge(R.term, Count));
  const Term *Wrong = T.logicalNot(T.eq(Contributes, Keeps(R.term)));
  O.violation = T.logicalOr(T.logicalAnd(T.allOf(Iteration), T.logicalOr(Outside, Wrong)),
                            T.logicalAnd(Keeps(Kept), T.ge(Kept, Count)));
  if (Applies)
    O.violation = T.logicalAnd(Applies, O.violation);
  O.observe = {{"iterations", Count},
               {"index", R.term},
               {"iteration contributes", Contributes},
               {"kept index not iterated", Kept}};
  for (const Term *S : collectSymbols(Contributes))
    if (S->copiedFrom() && S->symbolKind() == SymbolKind::ThreadIdx)
      O.unconfirmedViolation = "whether an iteration contributes depends on the thread that "
                               "wrote an LDS element it reads, which the analysis solves for";
  return O;
}

Obligation ReductionCoverage::complete(const std::vector<Reduction> &Pieces, const Term *Applies,
                                       const Term *Bound, const std::string &Tensor,
                                       const std::string &Loops, const clang::Expr *Site,
                                       const FlowState &State) {
  TermContext &T = Ctx.terms;
  const Reduction &Last = Pieces.back();
  Obligation O = Ctx.makeObligation(ObligationKind::ReductionComplete, Site, State);
  O.range = clang::SourceRange(Last.site, Last.site);
  O.summary = "loops (" + Loops + ") reduce every '" + Last.name + "' in [0, " + print(Bound) + ")";
  // [0, Bound) is empty when Bound <= 0: no iteration is then the exact
  // cover (a loop `k < K` at K = -1 runs zero times and sums nothing).
  // (Only built where the assumptions do not say Bound > 0: a new term
  // renumbers the later ones, and Z3's time on some questions depends on
  // that order.)
  const Term *Extent =
      assumedPositive(Bound) ? Bound : T.select(T.lt(T.constant(0), Bound), Bound, T.constant(0));
  // Every piece's iterations together, each in range, each contributing.
  const Term *Count = nullptr;
  const Term *OutOfRange = T.falseTerm(), *Skipped = T.falseTerm();
  const Term *Contributes = nullptr;
  const Term *WriterInContributes = nullptr;
  for (const Reduction &R : Pieces) {
    const Term *PieceCount = iterationCount(R, O);
    if (!PieceCount)
      return O;
    Count = Count ? T.add(Count, PieceCount) : PieceCount;
    std::vector<const Term *> Iteration;
    for (const ReductionLoop &L : R.loops)
      Iteration.insert(Iteration.end(), L.facts.begin(), L.facts.end());
    std::vector<const Term *> InRange = Iteration;
    InRange.insert(InRange.end(), R.constraints.begin(), R.constraints.end());
    OutOfRange = T.logicalOr(
        OutOfRange, T.logicalAnd(T.allOf(InRange),
                                 T.logicalOr(T.lt(R.term, T.constant(0)), T.ge(R.term, Bound))));
    if (R.contributes) {
      // The cases' validities may name the writer of an LDS element (a
      // thread copy the constraints solve for): a skip found for some
      // value of it is not known to be the real writer's.
      Skipped = T.logicalOr(Skipped, T.logicalAnd(T.allOf(Iteration), T.logicalNot(R.contributes)));
      Contributes = R.contributes;
      for (const Term *S : collectSymbols(R.contributes))
        if (S->copiedFrom() && S->symbolKind() == SymbolKind::ThreadIdx && !WriterInContributes)
          WriterInContributes = S;
    }
  }
  O.violation = T.logicalOr(T.logicalOr(T.ne(Count, Extent), OutOfRange), Skipped);
  if (!Skipped->isConstant() && maySkip(Skipped, Applies, Pieces, State)) {
    // Some iteration may add nothing: the loops may then run more often
    // than the bound and still sum each index once (`k <= K` with the first
    // iteration skipped). Fewer iterations than the bound, or a skip when
    // they are no more than it, is a real gap; the rest is not decided.
    O.violation =
        T.logicalOr(T.logicalOr(OutOfRange, T.lt(Count, Extent)),
                    T.logicalAnd(Skipped, T.logicalOr(T.lt(Count, Extent), T.eq(Count, Extent))));
    O.provenOnlyUnderAssumption =
        "an iteration may add nothing to '" + Last.name +
        "' while the loops run more often than its bound; counting only the iterations that "
        "contribute is not modelled";
  }
  if (Applies)
    O.violation = T.logicalAnd(Applies, O.violation);
  O.failure = "reduction over '" + Last.name + "' does not cover " + Tensor + "'s '" + Last.name +
              "' exactly: the loops run " + print(Count) + " times for a bound of " + print(Bound);
  O.observe = {{"iterations", Count}, {"bound", Bound}};
  if (Contributes) {
    O.failure += ", or an iteration does not contribute";
    if (Pieces.size() == 1)
      O.observe.push_back({"iteration contributes", Contributes});
  }
  if (WriterInContributes)
    O.unconfirmedViolation =
        "whether an iteration contributes depends on the thread that wrote an LDS element it "
        "reads ('" +
        WriterInContributes->baseName() +
        "' of a copy the analysis solves for); an iteration found to add nothing may have "
        "taken another thread than the real writer";
  if (const Term *Loose = looseCounter(Pieces))
    O.unconfirmedViolation =
        "whether an iteration contributes depends on the counter of loop '" + Loose->baseName() +
        "', which has ended and which the analysis does not link to the element stored, so "
        "the skipped iteration found is not known to be real";
  return O;
}

const Term *ReductionCoverage::looseCounter(const std::vector<Reduction> &Pieces) const {
  // A guard inside an inner loop that wrote a private array slot
  // (`for (e ...) if (e < 4) acc[e] += ...` in the loop over k) can reach
  // here with that inner loop's counter, not the slot read: free, it
  // "skips" an iteration that belongs to another element.
  for (const Reduction &R : Pieces) {
    if (!R.contributes)
      continue;
    for (const Term *S : collectSymbols(R.contributes)) {
      if (S->symbolKind() != SymbolKind::LoopCounter)
        continue;
      bool Bound = occursIn(S, R.term) ||
                   std::any_of(R.loops.begin(), R.loops.end(),
                               [&](const ReductionLoop &L) { return L.counter == S; }) ||
                   std::any_of(R.constraints.begin(), R.constraints.end(),
                               [&](const Term *C) {
                                 // (the case's validity is among them: not a range)
                                 return !occursIn(C, R.contributes) && occursIn(S, C);
                               }) ||
                   std::any_of(Ctx.loops.begin(), Ctx.loops.end(),
                               [&](const LoopFrame &F) { return F.span.counter == S; });
      if (!Bound)
        return S;
    }
  }
  return nullptr;
}

namespace {

bool mentionsThread(const Term *E) {
  for (const Term *S : collectSymbols(E))
    if (S->symbolKind() == SymbolKind::ThreadIdx)
      return true;
  return false;
}

// A loop counter that R, a point outside the loops, reads and that its own
// constraints bound (a counter's value carried out of its loop), or null.
const Term *carriedOutCounter(const Reduction &R) {
  if (!R.loops.empty() || !R.term)
    return nullptr;
  for (const Term *S : collectSymbols(R.term)) {
    if (S->symbolKind() != SymbolKind::LoopCounter)
      continue;
    for (const Term *C : R.constraints)
      if (C && occursIn(S, C))
        return S;
  }
  return nullptr;
}

} // namespace

void ReductionCoverage::emit(const Reduction &Whole,
                             const std::map<std::string, const Term *> &Dest,
                             const clang::Expr *Site, const FlowState &State,
                             const std::string &Uncounted) {
  if (!Ctx.opts.implicitInvariants)
    return;
  // The pieces in the order they were reduced, each over the threads it
  // was combined across.
  std::vector<Reduction> Pieces;
  std::string PerThreadCount;
  auto Add = [&](const Reduction &Piece) {
    // A loop over a thread-strided range (`for (c = lane; c < C; c +=
    // 64)`) runs a different count in each thread; combined over the
    // threads, the count is taken as the storing thread's in each, which
    // holds only where the counts agree (a proof asks that), so a shortfall
    // found is no run's (C not a multiple of 64 was violated).
    if (Piece.crossedThreads && PerThreadCount.empty())
      for (const ReductionLoop &L : Piece.loops)
        if (L.tripCount && mentionsThread(L.tripCount)) {
          PerThreadCount = "loop '" + L.name +
                           "' runs a number of times that depends on the thread, and the "
                           "threads' counts are not summed one by one";
          break;
        }
    for (Reduction &Layer : overThreads(Piece, State))
      Pieces.push_back(std::move(Layer));
  };
  for (const Reduction &Piece : Whole.earlier)
    Add(Piece);
  Reduction Latest = Whole;
  Latest.earlier.clear();
  Add(Latest);
  // The bound of the reduced name, from the first input tag declaring it.
  std::string Tensor;
  const Term *Bound = Ctx.contractedBound(Whole.name, &Tensor);
  if (!Bound)
    return;
  std::string Loops;
  for (const Reduction &R : Pieces) {
    std::string Piece;
    for (auto It = R.loops.rbegin(); It != R.loops.rend(); ++It)
      Piece += (Piece.empty() ? "" : ", ") + It->name;
    if (R.loops.empty())
      Piece = "one index outside the loops";
    Loops += (Loops.empty() ? "" : "; then ") + Piece;
  }
  Obligation Injective = injective(Pieces, Whole.applies, Loops, Site, State);
  Obligation Complete = complete(Pieces, Whole.applies, Bound, Tensor, Loops, Site, State);
  for (const AnalysisContext::ContractionMask &Mask : Ctx.masks)
    if (Mask.names.count(Whole.name))
      Complete = maskedComplete(Pieces, Whole.applies, Bound, Mask, Dest, Loops, Site, State);
  for (const Reduction &R : Pieces)
    qualifyByPiece(R, Injective, Complete);
  if (!PerThreadCount.empty() && Complete.unconfirmedViolation.empty())
    Complete.unconfirmedViolation = PerThreadCount;
  if (!Uncounted.empty() && Complete.unconfirmedViolation.empty()) {
    Injective.unconfirmedViolation = Uncounted;
    Complete.unconfirmedViolation = Uncounted;
  }
  Ctx.log.addObligation(std::move(Injective));
  Ctx.log.addObligation(std::move(Complete));
}

void ReductionCoverage::qualifyByPiece(const Reduction &R, Obligation &Injective,
                                       Obligation &Complete) {
  if (R.crossedThreads && !R.partialOverThreadDims.empty() && R.perThreadTerm) {
    // The soundness fuzzer's block_reduce mutant without the tree's `+=`
    // stores thread 0's partial sum alone, and was proven.
    const TreeCombination *Tree = treeOf(R);
    std::string Why = "the partial sums of '" + R.name +
                      "' are combined across the block's threads through shared memory (an "
                      "LDS tree); that the combination takes each thread's partial exactly "
                      "once is not modelled";
    if (R.crossedVia.size() == 1 && UnfollowedWhy.count(R.crossedVia.front()))
      Why = "the partial sums of '" + R.name +
            "' are combined across a wave's lanes by warp "
            "shuffles; how often each lane's partial is taken is not followed (" +
            UnfollowedWhy[R.crossedVia.front()] + ")";
    else if (Tree && !Tree->unmodelled.empty())
      Why += " ('" + R.crossedVia.front()->getNameAsString() + "': " + Tree->unmodelled + ")";
    else if (R.crossedVia.size() > 1)
      Why += " (it crossed several shared arrays)";
    Injective.provenOnlyUnderAssumption = Why;
    Complete.provenOnlyUnderAssumption = Why;
    // Nor does a violation found under that assumption stand: where the
    // reader itself walks the threads' partials (`for (x ...) total +=
    // partial[x]` in one thread), taking every thread once as well
    // counts each partial once per iteration: a double count, and a
    // shortfall, that execution does not show.
    Injective.unconfirmedViolation = Why;
    Complete.unconfirmedViolation = Why;
  }
  // A point whose index is a loop counter's value known only as some
  // iteration's (`x` assigned in the loop and added after it: its last
  // iteration's, but the analysis keeps any): two pieces meeting there
  // need not meet in a run (keep_last was violated as a double count).
  // How many times the loops run does not depend on it: a count past the
  // bound stays violated.
  if (const Term *Loose = carriedOutCounter(R); Loose && Injective.unconfirmedViolation.empty())
    Injective.unconfirmedViolation = "one point of the reduction of '" + R.name +
                                     "' is a value carried out of a loop, whose counter (" +
                                     Loose->baseName() +
                                     ") the analysis knows only as some iteration's";
  // A piece whose index is a value the analysis approximates (the
  // counter of a widened loop, taken as one point): a count found for it
  // is no execution's (`for (; k + 3 < K; k += 4)` then the remainder
  // loop was violated as "the loops run K - K/4*4 times").
  if (const Term *Approx = R.term ? firstApproximation(R.term) : nullptr;
      Approx && Injective.unconfirmedViolation.empty()) {
    std::string Why = "the index of a piece of the reduction of '" + R.name +
                      "' comes from a value the analysis approximates (" + Approx->baseName() + ")";
    Injective.unconfirmedViolation = Why;
    Complete.unconfirmedViolation = Why;
  }
  if (!R.notModelled.empty()) {
    Injective.unprovenReason = R.notModelled;
    Complete.unprovenReason = R.notModelled;
  }
}

} // namespace ave::inv
