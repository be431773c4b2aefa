// The transfer of an atomic add into a tagged output: `atomicAdd(&Y[i], v)`
// is `Y[i] += v` by every thread that runs it, in some order. The element
// ends as its initial value plus each thread's v, so the value's output
// coordinates are checked as a store's, its contracted coordinates are
// summed over the threads (and the loops around the add, and the loops
// that reduced v) and their coverage is the output's (OutputCoverage), and
// the output must start at the neutral element of the sum, which only the
// specification can say (`#pragma ave assume tag(Y) == 0`).

#include "ProvenanceInterpreter.h"

#include <algorithm>

namespace ave::inv {

std::string ProvenanceInterpreter::accumulationUnmodelled(const TensorInfo &TI,
                                                          const DataValue &V) const {
  if (V.kind == DataValue::Kind::Unknown)
    return V.reason;
  if (V.kind != DataValue::Kind::Tagged)
    return "the value added is not computed from the tagged inputs";
  // Several cases (the writers of an LDS element) are alternatives of one
  // another: fine where none carries a contracted coordinate of its own.
  for (const ProvenanceCase &C : V.cases)
    for (const auto &[Name, Coordinate] : C.coords)
      if (V.cases.size() > 1 &&
          std::find(TI.coordNames.begin(), TI.coordNames.end(), Name) == TI.coordNames.end())
        return "the value added has several alternatives (an if/else, a join of paths) that "
               "carry '" +
               Name + "'";
  if (V.accumulates() || V.severalContributions)
    return "the value added is a running accumulation, added to more than once per iteration";
  for (const Reduction &R : V.reductions) {
    if (!R.notModelled.empty())
      return R.notModelled;
    if (!R.earlier.empty() || R.applies)
      return "the value added reduces '" + R.name + "' in several pieces or under a condition";
    if (R.crossedThreads)
      return "the value added combines '" + R.name + "' across threads in a way not followed";
    for (const ReductionLoop &L : R.loops)
      if (!L.start || !L.step || !L.tripCount)
        return "the value added reduces '" + R.name + "' in loop '" + L.name +
               "', which is not a canonical for loop that runs to its bound";
  }
  return "";
}

DataValue ProvenanceInterpreter::overAddingThreads(const DataValue &V, const FlowState &State) {
  // A partial sum combined across the block (an LDS tree, a shuffle loop)
  // before one thread adds it: the combined threads join its loops, as a
  // plain store's coverage takes them, where the combination is followed
  // and takes each thread once. Otherwise it stays crossed (not followed).
  DataValue Out = V;
  for (Reduction &R : Out.reductions) {
    if (!R.crossedThreads)
      continue;
    bool Assumed = false;
    std::vector<Reduction> Layers = Coverage.overThreads(R, State, &Assumed);
    if (Assumed || Layers.size() != 1 || !R.earlier.empty()) {
      R.notModelled = "the value added combines '" + R.name + "' across threads (" +
                      (Assumed ? "a combination not followed for this launch"
                               : "some thread's partial taken more than once, or in pieces") +
                      ")";
      continue;
    }
    R = Layers.front();
  }
  return Out;
}

void ProvenanceInterpreter::accumulateOutput(const TensorInfo &TI, const Term *Index,
                                             const DataValue &V, const clang::Expr *Site,
                                             const FlowState &State) {
  if (!Ctx.opts.implicitInvariants)
    return;
  Ctx.storedOutputs.insert(TI.tag->decl);
  LayoutMatchResult M = matchTagLayout(TI, Index, State);
  DataValue Added = overAddingThreads(V, State);
  std::string Unmodelled = accumulationUnmodelled(TI, Added);
  Outputs.recordAccumulation(TI, Index, M, Added, Unmodelled, Site, State);
  requireInBounds(TI, M, Site, State, "atomic add");
  requireNoOverflow(TI, Index, Site, State, "atomic add");
  Obligation Start = Ctx.makeObligation(ObligationKind::StoreCoordinates, Site, State);
  Start.summary = TI.tensor + " starts at 0, the neutral element of its atomic sum";
  Start.failure = TI.tensor + " does not start at 0";
  Start.violation = T.falseTerm();
  if (!Ctx.outputsStartAtZero.count(TI.tag->decl))
    Start.unprovenReason = TI.tensor +
                           " is accumulated into with an atomic add, so its value before the "
                           "launch is part of the result; state it with '#pragma ave assume "
                           "tag(" +
                           TI.tag->decl->getNameAsString() + ") == 0'";
  Ctx.log.addObligation(std::move(Start));
  Obligation Base = Ctx.makeObligation(ObligationKind::StoreCoordinates, Site, State);
  Base.failure = "atomic add into " + TI.tensor + " has the wrong coordinates";
  if (V.kind != DataValue::Kind::Neutral)
    Ctx.outputsGivenValues.insert(TI.tag->decl); // its own reason, not "a constant"
  if (std::string Factor = storedArithmeticProblem(V); !Factor.empty()) {
    Obligation Scaled = Base;
    Scaled.summary = "arithmetic of the value added to " + TI.tensor;
    Scaled.unprovenReason = std::move(Factor);
    Ctx.log.addObligation(std::move(Scaled));
  }
  if (V.kind != DataValue::Kind::Tagged) {
    Base.summary = "value added to " + TI.tensor;
    Base.unprovenReason = V.kind == DataValue::Kind::Unknown
                              ? V.reason
                              : "the value added is not computed from the tagged inputs (a "
                                "constant or a parameter: a count, not a sum of products)";
    Ctx.log.addObligation(std::move(Base));
    return;
  }
  requireStoredValue(TI, V, M, Base, /*AcrossThreads=*/true);
}

} // namespace ave::inv
