// Coverage of an output that atomic adds accumulate into: each element of
// the output, for each index of the coordinates the value contracts (`c` of
// `atomicAdd(&Y[r], X[r * C + c])`), must be added exactly once by the
// launch. Where a plain store writes each element once and its reduction
// loops count each index once, an atomic sum is spread over threads: the
// thread that adds (r, c) is found from the extended destination (its
// output coordinates and the contracted ones, as terms of its ids and loop
// counters). At least once: the writer of an arbitrary (r, c) is solved as
// for output-written, and the model confirmed. At most once: two different
// adding points (threads, iterations of the loops around the add and of the
// loops that reduced the value) with the same extended destination.

#include "OutputCoverage.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>
#include <set>

namespace ave::inv {

namespace {

// W as the exactly-once questions see it: its destination extended by the
// contracted coordinates, its path by where the value is added.
OutputWrite extended(const OutputWrite &W) {
  OutputWrite X = W;
  for (const auto &[Name, D] : W.contracted)
    X.destination[Name] = D;
  X.path.insert(X.path.end(), W.addedWhere.begin(), W.addedWhere.end());
  X.loops.insert(X.loops.end(), W.reducing.begin(), W.reducing.end());
  return X;
}

std::vector<std::string> keysOf(const std::map<std::string, const Term *> &M) {
  std::vector<std::string> Keys;
  for (const auto &[Name, D] : M)
    Keys.push_back(Name);
  return Keys;
}

// Two copies of one write's adding point: its thread and block ids and the
// counters of its loops (those around the add and those that reduced the
// value; they tell two points apart), and the symbols its path quantifies
// (a writer's copy behind an LDS read, a value the analysis approximates:
// Approx names the first of those); launch sizes and parameters are shared.
struct AddingPoint {
  TermMap first, second;
  std::vector<const Term *> ids;
  std::string approximated;
};

AddingPoint addingPoint(TermContext &T, const KernelSymbols &K, const OutputWrite &W) {
  AddingPoint P;
  auto Copy = [&](const Term *S) {
    P.first[S] = T.freshCopy(S);
    P.second[S] = T.freshCopy(S);
  };
  // Every thread and block id, used or not: a block of 64x2 whose
  // threadIdx.y the add ignores adds each value twice.
  for (unsigned D = 0; D < 3; ++D)
    for (const Term *S : {K.tid[D], K.bid[D]}) {
      Copy(S);
      P.ids.push_back(S);
    }
  for (const LoopFrame &F : W.loops)
    if (!P.first.count(F.span.counter)) {
      Copy(F.span.counter);
      P.ids.push_back(F.span.counter);
    }
  std::vector<const Term *> All = W.path;
  for (const auto &[Name, D] : W.destination)
    All.push_back(D);
  for (const Term *X : All)
    for (const Term *S : collectSymbols(X)) {
      SymbolKind Kind = S->symbolKind();
      bool Fixed = !S->isFresh() && (Kind == SymbolKind::Param || Kind == SymbolKind::BlockDim ||
                                     Kind == SymbolKind::GridDim);
      if (Fixed || P.first.count(S))
        continue;
      Copy(S);
      if ((Kind == SymbolKind::Fresh || Kind == SymbolKind::Other) && P.approximated.empty())
        P.approximated = S->baseName();
    }
  return P;
}

} // namespace

void OutputCoverage::recordAccumulation(const TensorInfo &TI, const Term *Index,
                                        const LayoutMatchResult &M, const DataValue &V,
                                        const std::string &Unmodelled, const clang::Expr *Site,
                                        const FlowState &State) {
  if (!Ctx.opts.implicitInvariants || !Site)
    return;
  OutputWrite W = makeWrite(TI, Index, M, Site, State);
  W.accumulates = true;
  W.unmodelled = Unmodelled;
  if (W.unmodelled.empty() && !M.matched)
    W.unmodelled = "its index did not resolve to coordinates (" + W.unmatched + ")";
  if (!W.unmodelled.empty()) {
    Ctx.log.addOutputWrite(std::move(W));
    return;
  }
  // A lone case may carry contracted coordinates of its own (`c` of
  // X[r * C + c]): they hold where it is valid. Otherwise the cases only
  // say where the value comes from (the writers behind an LDS read, whose
  // symbols the reduction's own facts do not need), as for a store's
  // coverage.
  for (const ProvenanceCase &C : V.cases)
    for (const auto &[Name, Coordinate] : C.coords)
      if (std::find(TI.coordNames.begin(), TI.coordNames.end(), Name) == TI.coordNames.end()) {
        W.contracted[Name] = Coordinate;
        W.addedWhere.push_back(C.validity);
        W.addedWhere.insert(W.addedWhere.end(), C.constraints.begin(), C.constraints.end());
      }
  // One record per reduced name: a value combined from several threads
  // carries one per contribution, all describing the same sum (the store's
  // coverage asks the first, too).
  std::set<std::string> Reduced;
  for (const Reduction &R : V.reductions) {
    if (!Reduced.insert(R.name).second)
      continue;
    W.contracted[R.name] = R.term;
    W.addedWhere.insert(W.addedWhere.end(), R.constraints.begin(), R.constraints.end());
    if (R.contributes)
      W.addedWhere.push_back(R.contributes);
    for (const ReductionLoop &L : R.loops) {
      LoopFrame F;
      F.span = L;
      F.init = L.start;
      F.step = L.step;
      F.canonical = true;
      W.addedWhere.insert(W.addedWhere.end(), L.facts.begin(), L.facts.end());
      W.reducing.push_back(std::move(F));
    }
  }
  Ctx.log.addOutputWrite(std::move(W));
}

bool OutputCoverage::extendElement(Element &E, const std::vector<std::string> &Names,
                                   std::string &Why) {
  // Each contracted name over its bound in the first input tag declaring
  // it, with that tag's other coordinates taken as the element's.
  TermContext &T = Ctx.terms;
  for (const std::string &Name : Names) {
    const Term *Bound = nullptr;
    TermMap ToElement;
    for (const auto &[Decl, Info] : Ctx.tensors) {
      auto It = std::find(Info.coordNames.begin(), Info.coordNames.end(), Name);
      if (Info.output || It == Info.coordNames.end() || Bound)
        continue;
      Bound = Info.layout.coordinates[It - Info.coordNames.begin()].bound;
      for (size_t I = 0; I < Info.coordNames.size(); ++I)
        for (const auto &[Have, Symbol] : E.coords)
          if (Have == Info.coordNames[I])
            ToElement[Info.layout.coordinates[I].symbol] = Symbol;
    }
    if (!Bound) {
      Why = "no input tag declares the coordinate '" + Name + "' the atomic add sums";
      return false;
    }
    const Term *Symbol = T.freshSymbol(Name, SymbolKind::Fresh);
    Bound = substitute(T, Bound, ToElement);
    for (const Term *S : collectSymbols(Bound))
      if (S->symbolKind() == SymbolKind::Coordinate) {
        Why = "the bound of '" + Name + "' depends on a coordinate (" + S->baseName() +
              ") the output does not have";
        return false;
      }
    E.coords.push_back({Name, Symbol});
    E.domain.push_back(T.ge(Symbol, T.constant(0)));
    E.domain.push_back(T.lt(Symbol, Bound));
  }
  E.address = nullptr;
  return true;
}

void OutputCoverage::emitAccumulated(const clang::ValueDecl *Tensor, const TensorInfo &TI) {
  const clang::SourceManager &SM = Ctx.ast.getSourceManager();
  std::vector<OutputWrite> Writes;
  std::vector<std::string> Names;
  std::string Why;
  clang::SourceRange At;
  for (const OutputWrite &W : writesOf(Tensor)) {
    if (!W.accumulates) {
      if (Why.empty())
        Why = TI.tensor + " is both stored into (at " + lineOf(SM, W.site) +
              ") and accumulated into with atomic adds";
      continue;
    }
    if (At.isInvalid())
      At = clang::SourceRange(W.site, W.site);
    if (!W.unmodelled.empty() && Why.empty())
      Why = "the atomic add at " + lineOf(SM, W.site) + " is not followed: " + W.unmodelled;
    if (Writes.empty())
      Names = keysOf(W.contracted);
    else if (keysOf(W.contracted) != Names && Why.empty())
      Why = "the atomic adds into " + TI.tensor + " sum different coordinates";
    Writes.push_back(extended(W));
  }
  std::string Sum = TI.tensor;
  for (const std::string &Name : Names)
    Sum += (Sum == TI.tensor ? " summed over " : ", ") + Name;
  const ann::BoundPragma *Launch = Ctx.annotations.launch();
  if (Why.empty() && (!Launch || Launch->pragma.launch.grid.empty()))
    Why = "the launch pragma gives no grid, so which blocks add to " + TI.tensor +
          " is not specified";
  Element E = makeElement(TI);
  if (Why.empty())
    extendElement(E, Names, Why);
  Obligation Most = addedOnceAtMost(Writes, E, At);
  Obligation Least = Ctx.makeObligation(ObligationKind::ReductionComplete, nullptr, FlowState());
  Least.range = At;
  Least.summary = "the atomic adds add every element of " + Sum;
  Least.failure = "an element of " + Sum + " that no atomic add adds";
  Most.summary = "the atomic adds add each element of " + Sum + " once";
  Most.failure = "two atomic adds add the same element of " + Sum;
  if (!Why.empty()) {
    Most.violation = Least.violation = nullptr;
    Most.unprovenReason = Least.unprovenReason = Why;
  } else {
    askEveryElement(Least, Writes, E, "left out of its sum", Sum);
  }
  Ctx.log.addObligation(std::move(Most));
  Ctx.log.addObligation(std::move(Least));
}

Obligation OutputCoverage::addedOnceAtMost(const std::vector<OutputWrite> &Writes, const Element &E,
                                           const clang::SourceRange &At) {
  TermContext &T = Ctx.terms;
  const KernelSymbols &K = Ctx.symbols;
  Obligation O;
  O.kind = ObligationKind::ReductionInjective;
  O.range = At;
  if (Writes.empty() || E.address)
    return O; // not asked: the caller says why
  std::vector<AddingPoint> Points;
  for (const OutputWrite &W : Writes)
    Points.push_back(addingPoint(T, K, W));
  // A copy's ids lie in the launch (the kernel facts hold for the
  // originals only).
  auto InLaunch = [&](const TermMap &Copy) {
    std::vector<const Term *> Facts;
    for (const auto &[S, C] : Copy)
      for (unsigned D = 0; D < 3; ++D)
        if (S == K.tid[D] || S == K.bid[D]) {
          Facts.push_back(T.ge(C, T.constant(0)));
          Facts.push_back(T.lt(C, S == K.tid[D] ? K.bdim[D] : K.gdim[D]));
        }
    return Facts;
  };
  const Term *Twice = T.falseTerm();
  for (size_t I = 0; I < Writes.size(); ++I)
    for (size_t J = I; J < Writes.size(); ++J) {
      const TermMap &A = Points[I].first, &B = Points[J].second;
      std::vector<const Term *> Both = InLaunch(A);
      for (const Term *F : InLaunch(B))
        Both.push_back(F);
      for (const Term *P : Writes[I].path)
        Both.push_back(substitute(T, P, A));
      for (const Term *P : Writes[J].path)
        Both.push_back(substitute(T, P, B));
      if (I == J) {
        const Term *Differ = T.falseTerm();
        for (const Term *S : Points[I].ids)
          Differ = T.logicalOr(Differ, T.ne(A.at(S), B.at(S)));
        Both.push_back(Differ);
      }
      for (const auto &[Name, C] : E.coords)
        Both.push_back(T.eq(substitute(T, Writes[I].destination.at(Name), A),
                            substitute(T, Writes[J].destination.at(Name), B)));
      Twice = T.logicalOr(Twice, T.allOf(Both));
    }
  O.violation = Twice;
  for (size_t I = 0; I < Writes.size(); ++I) {
    std::string Of = Writes.size() == 1 ? "" : " of add " + std::to_string(I + 1);
    for (const Term *S : Points[I].ids) {
      bool OneThreadWide = false; // threadIdx.z of a flat block: always 0
      for (unsigned D = 0; D < 3; ++D)
        OneThreadWide |= S == K.tid[D] && K.launchBlock[D] == 1;
      if (OneThreadWide)
        continue;
      O.observe.push_back({S->baseName() + Of + " (first)", Points[I].first.at(S)});
      O.observe.push_back({S->baseName() + Of + " (second)", Points[I].second.at(S)});
    }
    if (!Points[I].approximated.empty() && O.unconfirmedViolation.empty())
      O.unconfirmedViolation = "where the atomic adds add depends on a value the analysis "
                               "approximates (" +
                               Points[I].approximated +
                               "), so two adds of one element found "
                               "are not known to be a real execution";
  }
  if (Writes.size() == 1)
    for (const auto &[Name, C] : E.coords)
      O.observe.push_back(
          {"element " + Name, substitute(T, Writes.front().destination.at(Name), Points[0].first)});
  return O;
}

} // namespace ave::inv
