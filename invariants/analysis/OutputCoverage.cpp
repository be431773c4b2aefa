#include "OutputCoverage.h"

#include "WriterSolver.h"
#include "ave/invariants/RangeSimplifier.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>
#include <functional>
#include <iterator>
#include <optional>
#include <set>

namespace ave::inv {

std::string lineOf(const clang::SourceManager &SM, clang::SourceLocation At) {
  clang::PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(At));
  return P.isValid() ? "line " + std::to_string(P.getLine()) : "an unknown line";
}

OutputWrite OutputCoverage::makeWrite(const TensorInfo &TI, const Term *Index,
                                      const LayoutMatchResult &M, const clang::Expr *Site,
                                      const FlowState &State) {
  OutputWrite W;
  W.tensor = TI.tag->decl;
  W.index = Index;
  if (M.matched)
    for (const auto &[Sym, Value] : M.coordinates)
      W.destination[TI.nameOfSymbol.at(Sym)] = Value;
  else
    W.unmatched = M.reason.empty() ? "layout did not match" : M.reason;
  for (const Term *C : State.path)
    if (!Ctx.reachedByAllWays.count(C))
      W.path.push_back(C);
  W.loops = Ctx.loops;
  W.site = Site->getBeginLoc();
  return W;
}

void OutputCoverage::record(const TensorInfo &TI, const Term *Index, const LayoutMatchResult &M,
                            const clang::Expr *Site, const FlowState &State, bool Constant) {
  if (!Ctx.opts.implicitInvariants || !Site)
    return;
  OutputWrite W = makeWrite(TI, Index, M, Site, State);
  W.constant = Constant;
  Ctx.log.addOutputWrite(std::move(W));
}

OutputCoverage::Element OutputCoverage::makeElement(const TensorInfo &TI) {
  TermContext &T = Ctx.terms;
  Element E;
  TermMap ToElement;
  for (size_t I = 0; I < TI.coordNames.size(); ++I) {
    const Term *C = T.freshSymbol(TI.coordNames[I], SymbolKind::Fresh);
    E.coords.push_back({TI.coordNames[I], C});
    ToElement[TI.layout.coordinates[I].symbol] = C;
  }
  for (size_t I = 0; I < TI.coordNames.size(); ++I) {
    const Term *C = E.coords[I].second;
    E.domain.push_back(T.ge(C, T.constant(0)));
    E.domain.push_back(T.lt(C, substitute(T, TI.layout.coordinates[I].bound, ToElement)));
  }
  E.address = substitute(T, Ctx.matcher.addressOf(TI.layout), ToElement);
  return E;
}

OutputCoverage::WriterSolution OutputCoverage::solve(const OutputWrite &W, const Element &E) {
  WriterSolution S;
  if (!W.unmatched.empty()) {
    S.unsolved = "its index did not resolve to coordinates (" + W.unmatched + ")";
    return S;
  }
  // `threadIdx.x % 64` of a block of 64 is threadIdx.x: the launch's ranges
  // first, so that what is left to split is one level of digits.
  OutputWrite Simplified = W;
  RangeSimplifier Ranges(Ctx.terms);
  for (const Term *F : Ctx.kernelFacts)
    Ranges.addFacts(F);
  for (const LoopFrame &F : W.loops) // the store runs inside them
    for (const Term *Fact : F.span.facts)
      Ranges.addFacts(Fact);
  for (const Term *&P : Simplified.path)
    P = Ranges.simplify(P);
  for (auto &[Name, D] : Simplified.destination)
    D = Ranges.simplify(D);
  Element Through = E;
  invertPermutations(Simplified, Through, S);
  WriterSolver Solver(Ctx, Simplified);
  S.writes = Solver.solve(Through.coords, S.unsolved);
  return S;
}

void OutputCoverage::invertPermutations(OutputWrite &W, Element &E, WriterSolution &S) {
  TermContext &T = Ctx.terms;
  for (auto &[Name, D] : W.destination) {
    const clang::ValueDecl *Array = Ctx.indexArrayOf(D);
    auto Coordinate = std::find_if(E.coords.begin(), E.coords.end(),
                                   [&](const auto &C) { return C.first == Name; });
    if (!Array || !Ctx.indexArrays.at(Array).permutation || Coordinate == E.coords.end())
      continue;
    const Term *Element = Coordinate->second;
    const Term *Row = Ctx.inverseIndex(Array, Element);
    const Term *Count = Ctx.indexArrays.at(Array).count;
    // A permutation of [0, Count) is onto: every value has its row.
    S.facts.push_back(T.logicalOr(
        T.logicalNot(Ctx.inDomain(Element, Count)),
        T.logicalAnd(Ctx.inDomain(Row, Count), T.eq(T.apply(D->name(), {Row}), Element))));
    D = D->operand(0);
    Coordinate->second = Row;
  }
}

std::string OutputCoverage::confirm(const std::vector<OutputWrite> &Writes, const Element &E,
                                    const SolverResult &R, std::vector<const Term *> &Pins) {
  TermContext &T = Ctx.terms;
  const clang::SourceManager &SM = Ctx.ast.getSourceManager();
  auto Value = [&](const Term *S) -> std::optional<int64_t> {
    auto It = R.assignment.find(S);
    return It == R.assignment.end() ? std::nullopt : std::optional<int64_t>(It->second);
  };
  std::string Where;
  TermSet Fixed;
  std::vector<const Term *> Mentioned = E.domain;
  for (const OutputWrite &W : Writes) {
    Mentioned.push_back(W.index);
    Mentioned.insert(Mentioned.end(), W.path.begin(), W.path.end());
    for (const auto &[Name, D] : W.destination)
      Mentioned.push_back(D);
  }
  for (const Term *F : Ctx.kernelFacts)
    Mentioned.push_back(F);
  for (const Term *X : Mentioned)
    for (const Term *S : collectSymbols(X))
      if (!S->isFresh() &&
          (S->symbolKind() == SymbolKind::Param || S->symbolKind() == SymbolKind::BlockDim ||
           S->symbolKind() == SymbolKind::GridDim))
        Fixed.insert(S);
  for (const auto &[Name, C] : E.coords) {
    std::optional<int64_t> V = Value(C);
    if (!V)
      return "the model does not fix the element";
    Pins.push_back(T.eq(C, T.constant(*V)));
    Where += (Where.empty() ? "" : ", ") + Name + "=" + std::to_string(*V);
  }
  for (const Term *S : Fixed)
    if (std::optional<int64_t> V = Value(S))
      Pins.push_back(T.eq(S, T.constant(*V)));
  for (const OutputWrite &W : Writes) {
    std::vector<const Term *> Query = W.path;
    Query.insert(Query.end(), Pins.begin(), Pins.end());
    if (E.address) {
      Query.push_back(T.eq(W.index, E.address));
    } else {
      // An extended element (an accumulation's): by its coordinates.
      for (const auto &[Name, C] : E.coords)
        Query.push_back(T.eq(W.destination.at(Name), C));
    }
    SolverResult Any = Ctx.ask("output writer exists", T.allOf(Query));
    if (Any.status == SolverResult::Violated)
      return "the store at " + lineOf(SM, W.site) + " can write element (" + Where +
             "), which the writer solution missed";
    if (Any.status == SolverResult::Unknown)
      return "whether the store at " + lineOf(SM, W.site) + " writes element (" + Where +
             ") is not decided: " + Any.reason;
  }
  return "";
}

void OutputCoverage::askEveryElement(Obligation &O, const std::vector<OutputWrite> &Writes,
                                     const Element &E, const std::string &Done,
                                     const std::string &Tensor) {
  TermContext &T = Ctx.terms;
  const clang::SourceManager &SM = Ctx.ast.getSourceManager();
  const Term *Any = T.falseTerm();
  std::string Unsolved;
  std::vector<const Term *> Facts;
  for (const OutputWrite &W : Writes) {
    WriterSolution S = solve(W, E);
    Facts.insert(Facts.end(), S.facts.begin(), S.facts.end());
    if (S.writes)
      Any = T.logicalOr(Any, S.writes);
    else if (Unsolved.empty())
      Unsolved =
          "the writer of the store at " + lineOf(SM, W.site) + " is not solved: " + S.unsolved;
  }
  std::vector<const Term *> Parts = E.domain;
  Parts.insert(Parts.end(), Facts.begin(), Facts.end());
  Parts.push_back(T.logicalNot(Any));
  O.violation = T.allOf(Parts);
  for (const auto &[Name, C] : E.coords)
    O.observe.push_back({"element " + Name, C});
  // Asked during the interpretation: bounded, so that the kernel's time
  // limit is left to the other obligations (and to this one's re-check):
  // a third of it, 3.3 s at the default limit (a fifth left the lanes of a
  // register-tiled GEMM's float4 epilogue undecided in some runs).
  SolverResult R =
      Ctx.solver.checkWithin(O.violation, std::max(2000u, Ctx.opts.kernelTimeLimitMs / 3));
  if (R.status == SolverResult::Unknown) {
    O.violation = nullptr;
    O.unprovenReason = "whether no element of " + Tensor + " is " + Done + " is not decided (" +
                       R.reason + ")" + (Unsolved.empty() ? "" : "; " + Unsolved);
    return;
  }
  if (R.status == SolverResult::Proven)
    return;
  // The element Z3 picks may be one the writer solution misses only through
  // an alias (a store past a row's end reaches the next row's first element):
  // a few other elements are tried before the violation is left unconfirmed.
  std::string Missed;
  const Term *Question = O.violation;
  for (int Try = 0; Try < 4 && R.status == SolverResult::Violated; ++Try) {
    std::vector<const Term *> Pins;
    Missed = confirm(Writes, E, R, Pins);
    if (Missed.empty()) {
      O.context = Pins; // the confirmed element, and only it
      return;
    }
    std::vector<const Term *> Same;
    for (const auto &[Name, C] : E.coords)
      if (auto It = R.assignment.find(C); It != R.assignment.end())
        Same.push_back(T.eq(C, T.constant(It->second)));
    Question = T.logicalAnd(Question, T.logicalNot(T.allOf(Same)));
    R = Ctx.solver.checkWithin(Question, 500);
  }
  O.unconfirmedViolation = "an element of " + Tensor + " may be " + Done +
                           ", but this is not confirmed: " + Missed +
                           (Unsolved.empty() ? "" : "; " + Unsolved);
}

void OutputCoverage::emitFor(const clang::ValueDecl *Tensor, const TensorInfo &TI) {
  Obligation O;
  O.kind = ObligationKind::OutputWritten;
  O.range = TI.tag->specRange;
  O.summary = "every element of " + TI.tensor + " is written by some thread of the launch";
  O.failure = "an element of " + TI.tensor + " that no thread writes";
  const ann::BoundPragma *Launch = Ctx.annotations.launch();
  if (!Launch || Launch->pragma.launch.grid.empty()) {
    O.unprovenReason = "the launch pragma gives no grid, so which blocks run (and which elements "
                       "of " +
                       TI.tensor + " they write) is not specified";
    Ctx.log.addObligation(std::move(O));
    return;
  }
  // Only a computed value counts: an element that only a constant store
  // reaches (`if (c == 3) C[i] = 0.0f; else C[i] = acc;`) is not the
  // einsum's. An output that only constants reach is unproven apart
  // (SpecificationChecks.cpp); its stores are all counted.
  std::vector<OutputWrite> Writes = writesOf(Tensor), Computed;
  std::copy_if(Writes.begin(), Writes.end(), std::back_inserter(Computed),
               [](const OutputWrite &W) { return !W.constant; });
  bool Constants = !Computed.empty() && Computed.size() < Writes.size();
  if (Constants) {
    O.summary = "every element of " + TI.tensor + " is given a computed value by some thread";
    O.failure = "an element of " + TI.tensor +
                " that no thread gives a computed value (a "
                "constant store may reach it)";
  }
  if (auto Call = Ctx.outputsGivenToCalls.find(Tensor); Call != Ctx.outputsGivenToCalls.end())
    O.unconfirmedViolation = "a call the analysis does not follow (`" + Call->second +
                             "`) is given an address in " + TI.tensor +
                             " and may write elements the stores seen do not";
  Element E = makeElement(TI);
  askEveryElement(O, Constants ? Computed : Writes, E,
                  Constants ? "given no computed value" : "unwritten", TI.tensor);
  Ctx.log.addObligation(std::move(O));
  if (Constants)
    emitConstantStores(Tensor, TI);
}

void OutputCoverage::emit() {
  if (!Ctx.opts.implicitInvariants)
    return;
  std::set<const clang::ValueDecl *> Stored;
  for (const OutputWrite &W : Ctx.log.outputWrites())
    Stored.insert(W.tensor);
  for (const auto &[Decl, Info] : Ctx.tensors) {
    if (!Info.output || !Stored.count(Decl))
      continue;
    // An output only atomic adds reach is covered by their two questions
    // (an element whose contracted range is empty keeps its initial 0, the
    // empty sum, without a write).
    std::vector<OutputWrite> Writes = writesOf(Decl);
    auto Accumulates = [](const OutputWrite &W) { return W.accumulates; };
    if (!std::all_of(Writes.begin(), Writes.end(), Accumulates))
      emitFor(Decl, Info);
    if (std::any_of(Writes.begin(), Writes.end(), Accumulates))
      emitAccumulated(Decl, Info);
  }
}

std::vector<OutputWrite> OutputCoverage::writesOf(const clang::ValueDecl *Tensor) const {
  std::vector<OutputWrite> Writes;
  for (const OutputWrite &W : Ctx.log.outputWrites())
    if (W.tensor == Tensor)
      Writes.push_back(W);
  return Writes;
}

} // namespace ave::inv
