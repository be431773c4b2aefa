// Turning the implicit einsum invariants and explicit assertions into
// obligations: contraction agreement at every combination, accumulation
// over loops, reduction coverage, `#pragma ave assert`.

#include "ControlFlow.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

namespace ave::inv {

SolverResult ProvenanceInterpreter::ask(const char *Why, const Term *Query) {
  // Terms are hash-consed: the same question (a loop's second pass asks
  // many of the first pass's again) is the same pointer.
  auto Known = AskedBefore.find(Query);
  if (Known != AskedBefore.end())
    return Known->second;
  SolverResult R = Solver.decide(Query);
  AskedBefore.emplace(Query, R);
  // AVE_PROFILE=queries: each question slower than 5 ms, to see which to avoid.
  if (const char *Profile = std::getenv("AVE_PROFILE");
      Profile && llvm::StringRef(Profile) == "queries" && R.millis > 5)
    llvm::errs() << "ave-profile: " << Why << " took " << llvm::format("%.1f", R.millis)
                 << " ms: " << print(Query) << "\n";
  auto &[Count, Millis] = QueryCost[Why];
  ++Count;
  Millis += R.millis;
  return R;
}

ProvenanceInterpreter::~ProvenanceInterpreter() {
  if (!std::getenv("AVE_PROFILE"))
    return;
  for (const auto &[Why, Cost] : QueryCost)
    llvm::errs() << "ave-profile: " << Why << ": " << Cost.first << " queries, "
                 << llvm::format("%.1f", Cost.second) << " ms\n";
}

Obligation ProvenanceInterpreter::makeObligation(ObligationKind K, const clang::Expr *Site) const {
  Obligation O;
  O.kind = K;
  if (Site)
    O.range = Site->getSourceRange();
  O.context = Path;
  return O;
}

bool ProvenanceInterpreter::contradicts(const Term *A, const Term *B) {
  std::vector<const Term *> CA, CB;
  auto Flatten = [](const Term *X, std::vector<const Term *> &Out, auto &Self) -> void {
    if (X->kind() == TermKind::LogicalAnd) {
      for (const Term *Op : X->operands())
        Self(Op, Out, Self);
      return;
    }
    Out.push_back(X);
  };
  Flatten(A, CA, Flatten);
  Flatten(B, CB, Flatten);
  for (const Term *X : CA)
    for (const Term *Y : CB)
      if (Y == T.logicalNot(X) || X == T.logicalNot(Y))
        return true;
  return false;
}

ProvenanceCase ProvenanceInterpreter::mergeCases(const ProvenanceCase &A, const ProvenanceCase &B) {
  ProvenanceCase C = A;
  C.validity = T.logicalAnd(A.validity, B.validity);
  C.constraints.insert(C.constraints.end(), B.constraints.begin(), B.constraints.end());
  for (const auto &[Name, Term] : B.coords)
    C.coords.emplace(Name, Term); // A's term wins; agreement is an obligation
  C.tensors.insert(B.tensors.begin(), B.tensors.end());
  C.origins.insert(C.origins.end(), B.origins.begin(), B.origins.end());
  return C;
}

void ProvenanceInterpreter::requireAgreement(const ProvenanceCase &A, const ProvenanceCase &B,
                                             const std::set<std::string> &Except,
                                             const clang::Expr *Site, llvm::StringRef What) {
  if (!Opts.implicitInvariants)
    return;
  for (const auto &[Name, TA] : A.coords) {
    auto It = B.coords.find(Name);
    if (It == B.coords.end() || Except.count(Name))
      continue;
    const Term *TB = It->second;
    Obligation O = makeObligation(ObligationKind::Contraction, Site);
    O.summary = What.str() + ": both operands have the same '" + Name + "' (" + print(TA) +
                " == " + print(TB) + ")";
    O.failure = "tag mismatch: operands of " + What.str() + " disagree on '" + Name +
                "': " + print(TA) + " vs " + print(TB);
    O.context.push_back(A.validity);
    O.context.push_back(B.validity);
    O.context.insert(O.context.end(), A.constraints.begin(), A.constraints.end());
    O.context.insert(O.context.end(), B.constraints.begin(), B.constraints.end());
    O.violation = T.ne(TA, TB);
    O.observe = {{"left " + Name, TA}, {"right " + Name, TB}};
    O.origins = A.origins;
    O.origins.insert(O.origins.end(), B.origins.begin(), B.origins.end());
    Obligations.push_back(std::move(O));
  }
}

AbstractValue ProvenanceInterpreter::combineData(const AbstractValue &L, const AbstractValue &R,
                                                 char Op, const clang::Expr *Site) {
  auto AsData = [](const AbstractValue &V) {
    if (V.kind == AbstractValue::Kind::Data)
      return V.data;
    return DataValue::neutral(); // an index used as a number
  };
  DataValue A = AsData(L), B = AsData(R);
  if (A.kind == DataValue::Kind::Unknown)
    return AbstractValue::ofData(A);
  if (B.kind == DataValue::Kind::Unknown)
    return AbstractValue::ofData(B);
  // `acc + p`, `m = fmaxf(m, s)`: an accumulation into the loop-carried value.
  bool Accumulating = Op == '+' || Op == '-' || Op == 'm';
  if (Accumulating && (A.accumulator || B.accumulator)) {
    DataValue &Acc = A.accumulator ? A : B;
    DataValue &Add = A.accumulator ? B : A;
    // A contribution made under a condition of the loop body (`if (c)
    // acc += x`, or after `if (c) continue;`) only counts where it holds.
    if (!Loops.empty() && Path.size() > Loops.back().pathStart) {
      std::vector<const Term *> Conds(Path.begin() + Loops.back().pathStart, Path.end());
      for (ProvenanceCase &C : Add.cases)
        C.validity = T.logicalAnd(C.validity, T.allOf(Conds));
    }
    DataValue Out = Acc;
    // The running value was rescaled (online softmax): the factor belongs
    // to the rows the contribution does.
    std::set<std::string> RescaleExcept = Contracted;
    RescaleExcept.insert(Add.reduced.begin(), Add.reduced.end());
    for (const ProvenanceCase &Factor : Acc.rescales)
      for (const ProvenanceCase &Y : Add.cases)
        requireAgreement(Factor, Y, RescaleExcept, Site, "rescaled accumulation");
    if (Add.kind == DataValue::Kind::Tagged) {
      if (Acc.kind == DataValue::Kind::Tagged) {
        // Several contributions per iteration: free names must agree.
        for (const ProvenanceCase &X : Acc.cases)
          for (const ProvenanceCase &Y : Add.cases)
            requireAgreement(X, Y, Contracted, Site, "accumulation");
        Out.cases.insert(Out.cases.end(), Add.cases.begin(), Add.cases.end());
      } else {
        Out.cases = Add.cases;
      }
      Out.kind = DataValue::Kind::Tagged;
      Out.reduced.insert(Add.reduced.begin(), Add.reduced.end());
      Out.reductions.insert(Out.reductions.end(), Add.reductions.begin(), Add.reductions.end());
    }
    return AbstractValue::ofData(std::move(Out));
  }
  // `acc * correction`: scaling the loop-head value keeps it the running
  // value; the factor is remembered for the contributions to agree with.
  auto PureHead = [](const DataValue &V) {
    return V.accumulator && V.kind == DataValue::Kind::Neutral && V.cases.empty();
  };
  if ((Op == '*' || Op == '/') && (PureHead(A) || PureHead(B))) {
    DataValue Out = PureHead(A) ? A : B;
    const DataValue &Factor = PureHead(A) ? B : A;
    if (Factor.kind == DataValue::Kind::Tagged)
      Out.rescales.insert(Out.rescales.end(), Factor.cases.begin(), Factor.cases.end());
    return AbstractValue::ofData(std::move(Out));
  }
  if (A.kind == DataValue::Kind::Neutral)
    return AbstractValue::ofData(B.kind == DataValue::Kind::Neutral ? A : B);
  if (B.kind == DataValue::Kind::Neutral)
    return AbstractValue::ofData(A);
  // Two tagged values: the names they share must agree, except names one of
  // them has already reduced.
  std::set<std::string> Except = A.reduced;
  Except.insert(B.reduced.begin(), B.reduced.end());
  std::string What = Op == '*' ? "product" : Op == '/' ? "quotient" : Op == 'm' ? "max/min" : "sum";
  DataValue Out;
  Out.kind = DataValue::Kind::Tagged;
  for (const ProvenanceCase &X : A.cases)
    for (const ProvenanceCase &Y : B.cases) {
      // The prologue's case of one operand never meets the loop's case of
      // the other: their validities exclude each other.
      if (contradicts(X.validity, Y.validity))
        continue;
      requireAgreement(X, Y, Except, Site, What);
      Out.cases.push_back(mergeCases(X, Y));
    }
  Out.reduced = Except;
  Out.reductions = A.reductions;
  Out.reductions.insert(Out.reductions.end(), B.reductions.begin(), B.reductions.end());
  return AbstractValue::ofData(std::move(Out));
}

bool ProvenanceInterpreter::variesWithLoop(const Term *Value,
                                           const std::vector<const Term *> &Constraints,
                                           const LoopFrame &Frame,
                                           const std::set<const Term *> &Fixed) {
  // Two iterations, each with its own copy of the counter and of every
  // fresh symbol the value's constraints introduced: can the value differ?
  std::vector<const Term *> Symbols = collectSymbols(Value);
  for (const Term *C : Constraints)
    for (const Term *S : collectSymbols(C))
      Symbols.push_back(S);
  // A value built only from symbols that exist before the loop is the
  // same in every iteration, whatever its constraints say.
  bool PerIteration = false;
  for (const Term *S : collectSymbols(Value))
    if (S == Frame.span.counter ||
        (S->id() >= Frame.firstTermId && S->symbolKind() != SymbolKind::Other &&
         S->symbolKind() != SymbolKind::Param && !Fixed.count(S)))
      PerIteration = true;
  if (!PerIteration)
    return false;
  // Copied per iteration: the counter and the existential symbols the body
  // introduced (writer-thread copies, inner counters, fresh values); symbols
  // from before the loop (enclosing counters, parameters, slots) are shared.
  TermMap First, Second;
  for (const Term *S : Symbols) {
    bool Introduced = S->id() >= Frame.firstTermId && S->symbolKind() != SymbolKind::Other &&
                      S->symbolKind() != SymbolKind::Param && !Fixed.count(S);
    if (S == Frame.span.counter || Introduced) {
      // The same copies every time this loop is asked about S: the same
      // question for another variable (m, l and acc of one softmax) is then
      // the same term, answered from the cache.
      for (int Which = 0; Which < 2; ++Which) {
        const Term *&Copy = IterationCopies[{S, Frame.id, Which}];
        if (!Copy)
          Copy = T.freshCopy(S);
        (Which ? Second : First)[S] = Copy;
      }
    }
  }
  std::vector<const Term *> Query = Path;
  for (const TermMap *M : {&First, &Second}) {
    for (const Term *F : Frame.span.facts)
      Query.push_back(substitute(T, F, *M));
    for (const Term *C : Constraints)
      Query.push_back(substitute(T, C, *M));
  }
  Query.push_back(T.ne(substitute(T, Value, First), substitute(T, Value, Second)));
  SolverResult R = ask("varies with loop", T.allOf(Query));
  return R.status != SolverResult::Proven;
}

std::set<std::string> ProvenanceInterpreter::reduceOverLoop(DataValue &V, const LoopFrame &Frame) {
  // The contributions of this loop: drop the names that vary with it.
  std::set<std::string> Dropped;
  const Term *Contributes = T.falseTerm();
  for (const ProvenanceCase &C : V.cases)
    Contributes = T.logicalOr(Contributes, C.validity);
  for (ProvenanceCase &C : V.cases) {
    // Past the loop its counter is existential: keep its bounds with the
    // case, and the case's own validity, so copies stay consistent.
    C.constraints.insert(C.constraints.end(), Frame.span.facts.begin(), Frame.span.facts.end());
    std::vector<const Term *> WithValidity = C.constraints;
    WithValidity.push_back(C.validity);
    for (auto CI = C.coords.begin(); CI != C.coords.end();) {
      if (!variesWithLoop(CI->second, WithValidity, Frame)) {
        ++CI;
        continue;
      }
      Dropped.insert(CI->first);
      Reduction R;
      R.name = CI->first;
      R.term = CI->second;
      R.constraints = C.constraints;
      R.constraints.push_back(C.validity);
      R.loops.push_back(Frame.span);
      R.site = Frame.loop ? Frame.loop->getBeginLoc() : clang::SourceLocation();
      for (unsigned D = 0; D < 3; ++D)
        if (occursIn(Tid[D], R.term))
          R.partialOverThreadDims.push_back(D);
      R.contributes = Contributes;
      R.perThreadTerm = R.term;
      R.perThreadConstraints = R.constraints;
      // The same name from several cases is one reduction; keep the first.
      if (std::none_of(V.reductions.begin(), V.reductions.end(),
                       [&](const Reduction &X) { return X.name == R.name; }))
        V.reductions.push_back(std::move(R));
      CI = C.coords.erase(CI);
    }
  }
  // Reductions from inner loops extend over this loop when the index they
  // reduce moves with it, their own counters held fixed: `k0 + k` of a
  // tiled GEMM moves with k0, the `d` of a dot product finished inside the
  // iteration (attention's scores) does not.
  for (Reduction &R : V.reductions) {
    if (R.loops.back().counter == Frame.span.counter)
      continue;
    std::set<const Term *> Fixed;
    for (const ReductionLoop &L : R.loops)
      Fixed.insert(L.counter);
    std::vector<const Term *> Constraints = R.constraints;
    for (const ReductionLoop &L : R.loops)
      Constraints.insert(Constraints.end(), L.facts.begin(), L.facts.end());
    if (variesWithLoop(R.term, Constraints, Frame, Fixed))
      R.loops.push_back(Frame.span);
  }
  for (const std::string &Name : Dropped) {
    V.reduced.insert(Name);
    if (OutputNames.count(Name) && Opts.implicitInvariants) {
      Obligation O = makeObligation(ObligationKind::ReductionFreeName, nullptr);
      if (Frame.loop)
        O.range = Frame.loop->getSourceRange();
      O.summary = "the accumulation over '" + Frame.span.name + "' keeps '" + Name + "' fixed";
      O.failure = "the accumulation over loop '" + Frame.span.name + "' sums over '" + Name +
                  "', a free coordinate of the output";
      O.violation = T.trueTerm();
      Obligations.push_back(std::move(O));
    }
  }
  return Dropped;
}

void ProvenanceInterpreter::finishAccumulations(const LoopFrame &Frame,
                                                const CarriedVars &Carried) {
  for (const auto &[Var, Entry] : Carried) {
    const auto &[Before, Token] = Entry;
    auto It = Env.find(Var);
    if (It == Env.end())
      continue;
    // A vector accumulator (matrix-core results) accumulates per element.
    DataValue *V = nullptr;
    DataValue Pre;
    if (It->second.kind == AbstractValue::Kind::Data) {
      V = &It->second.data;
      Pre = Before.kind == AbstractValue::Kind::Data ? Before.data : DataValue::neutral();
    } else if (It->second.kind == AbstractValue::Kind::Array && It->second.array &&
               It->second.array->slotCounter &&
               It->second.array->slotValue.kind == AbstractValue::Kind::Data) {
      // Copy on write: the array may be shared with the pre-loop value.
      It->second.array = std::make_shared<PrivateArray>(*It->second.array);
      // The element index is the same in every iteration (written as
      // `acc[e]` by an inner loop over e, whose counter would otherwise
      // count as the iteration's own).
      PrivateArray &Arr = *It->second.array;
      const Term *Elem = T.freshSymbol("elem", SymbolKind::Other);
      Arr.slotValue.data = substituteData(T, Arr.slotValue.data, TermMap{{Arr.slotCounter, Elem}});
      Arr.slotCounter = Elem;
      V = &Arr.slotValue.data;
      if (Before.kind == AbstractValue::Kind::Array && Before.array)
        Pre = readPrivateElement(*Before.array, Elem).data;
    }
    // Not an accumulation (overwritten each iteration): its value after
    // the loop is the last iteration's, which the body value describes.
    if (!V || V->accumulator != Token)
      continue;
    reduceOverLoop(*V, Frame);
    V->rescales.clear(); // checked against every contribution already
    // After the loop: the value before it plus the contributions.
    V->accumulator = Pre.accumulator;
    if (Pre.kind == DataValue::Kind::Tagged) {
      V->cases.insert(V->cases.begin(), Pre.cases.begin(), Pre.cases.end());
      V->reduced.insert(Pre.reduced.begin(), Pre.reduced.end());
    }
    // An iteration that added nothing still leaves the value from before
    // the loop (`v = v + 0.0f` over a loaded v): tagged when that was.
    if (Pre.kind == DataValue::Kind::Unknown)
      *V = Pre;
    else
      V->kind = V->cases.empty() ? DataValue::Kind::Neutral : DataValue::Kind::Tagged;
  }
}

void ProvenanceInterpreter::emitCoverage(const Reduction &Partial, const clang::Expr *Site) {
  if (!Opts.implicitInvariants)
    return;
  // A partial sum that reached this store through shared memory from other
  // threads (its index mentions a writer thread's ids) is taken to be
  // combined over every thread of the block: the thread ids join the
  // iteration space. That the combination (an LDS tree, say) really visits
  // every thread once is assumed here, not proven.
  Reduction R = Partial;
  if (R.crossedThreads && !R.partialOverThreadDims.empty() && R.perThreadTerm) {
    TermMap AnyThread;
    std::vector<ReductionLoop> Threads;
    for (unsigned D : R.partialOverThreadDims) {
      const Term *Any = T.freshCopy(Tid[D]);
      AnyThread[Tid[D]] = Any;
      ReductionLoop L;
      L.counter = Any;
      L.name = std::string("threadIdx.") + "xyz"[D];
      L.facts = {T.ge(Any, T.constant(0)), T.lt(Any, BDim[D])};
      L.tripCount = LaunchBlock[D] ? T.constant(*LaunchBlock[D]) : BDim[D];
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
  }
  // The bound of the reduced name, from the first input tag declaring it.
  const Term *Bound = nullptr;
  std::string Tensor;
  for (const auto &[Decl, Info] : Tensors) {
    for (size_t I = 0; I < Info.coordNames.size(); ++I)
      if (Info.coordNames[I] == R.name && !Info.output) {
        Bound = Info.layout.coordinates[I].bound;
        Tensor = Info.tensor;
      }
  }
  if (!Bound)
    return;
  std::string Loops;
  for (auto It = R.loops.rbegin(); It != R.loops.rend(); ++It)
    Loops += (Loops.empty() ? "" : ", ") + It->name;

  // Injective: two different iteration points never reduce the same index.
  {
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
           S->name().find('\'') != std::string::npos)) {
        if (First.count(S))
          continue;
        First[S] = T.freshCopy(S);
        Second[S] = T.freshCopy(S);
      }
    Obligation O = makeObligation(ObligationKind::ReductionInjective, Site);
    O.range = clang::SourceRange(R.site, R.site);
    O.summary = "each '" + R.name + "' is reduced once over loops (" + Loops + ")";
    O.failure = "reduction over '" + R.name + "' counts an index twice";
    O.context = Path;
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
    Obligations.push_back(std::move(O));
  }
  // Complete: the iteration count equals the bound and every index lies in
  // range; with injectivity that covers [0, bound) exactly once.
  {
    Obligation O = makeObligation(ObligationKind::ReductionComplete, Site);
    O.range = clang::SourceRange(R.site, R.site);
    O.summary = "loops (" + Loops + ") reduce every '" + R.name + "' in [0, " + print(Bound) + ")";
    O.context = Path;
    const Term *Count = T.constant(1);
    for (const ReductionLoop &L : R.loops) {
      if (!L.tripCount) {
        O.unprovenReason = "loop '" + L.name + "' has no known trip count";
        break;
      }
      Count = T.mul(Count, L.tripCount);
    }
    if (O.unprovenReason.empty()) {
      std::vector<const Term *> InRange;
      for (const ReductionLoop &L : R.loops)
        InRange.insert(InRange.end(), L.facts.begin(), L.facts.end());
      InRange.insert(InRange.end(), R.constraints.begin(), R.constraints.end());
      const Term *OutOfRange = T.logicalAnd(
          T.allOf(InRange), T.logicalOr(T.lt(R.term, T.constant(0)), T.ge(R.term, Bound)));
      const Term *Skipped = T.falseTerm();
      if (R.contributes) {
        std::vector<const Term *> Iteration;
        for (const ReductionLoop &L : R.loops)
          Iteration.insert(Iteration.end(), L.facts.begin(), L.facts.end());
        Skipped = T.logicalAnd(T.allOf(Iteration), T.logicalNot(R.contributes));
      }
      O.violation = T.logicalOr(T.logicalOr(T.ne(Count, Bound), OutOfRange), Skipped);
      O.failure = "reduction over '" + R.name + "' does not cover " + Tensor + "'s '" + R.name +
                  "' exactly: the loops run " + print(Count) + " times for a bound of " +
                  print(Bound);
      O.observe = {{"iterations", Count}, {"bound", Bound}};
      if (R.contributes) {
        O.failure += ", or an iteration does not contribute";
        O.observe.push_back({"iteration contributes", R.contributes});
      }
    }
    Obligations.push_back(std::move(O));
  }
}

} // namespace ave::inv
