// Pointers a loop moves: `acc += *a++ * *b; b += N;` walks A's row and B's
// column. Each loop is interpreted once over a symbolic iteration, so a
// pointer it assigns must get its value in that iteration; keeping its entry
// value read one element K times (a correct GEMM was reported violated), and
// a pointer reset in the body (`p = A;`) was followed as if it had not been.
//
// The step is found by running the body once from a symbolic offset S
// (outputs rolled back, as for the previous iteration's shared writes): a
// pointer that comes back to the same memory at S + D, with D fixed for the
// launch (a constant, the launch's sizes and ids, kernel parameters), moves
// by D every iteration, continue paths included (they join at the back
// edge). Any other pointer keeps its memory with an unknown offset, or
// becomes unknown where it may change memory.

#include "LoopBodyScan.h"
#include "ProvenanceInterpreter.h"
#include "ave/invariants/Polynomial.h"

#include "clang/AST/Stmt.h"

namespace ave::inv {

namespace {

// Whether Step is the same in every iteration of every loop: made of
// constants and symbols fixed for a thread's whole run.
bool launchFixed(const Term *Step) {
  for (const Term *S : collectSymbols(Step))
    if (!isLaunchOrParameter(S->symbolKind()))
      return false;
  return true;
}

} // namespace

ProvenanceInterpreter::LoopPointers
ProvenanceInterpreter::inductPointers(const CfgLoop &L, const clang::Stmt *Body, FlowState &State) {
  LoopPointers Out;
  // Only a local pointer can be assigned: without one, nothing to scan.
  if (std::none_of(State.env.begin(), State.env.end(), [](const auto &Entry) {
        return Entry.second.kind == AbstractValue::Kind::Pointer &&
               llvm::isa<clang::VarDecl>(Entry.first);
      }))
    return Out;
  std::set<const clang::VarDecl *> Assigned = assignedInLoop(L.stmt, Body);
  FlowState Scratch = State;
  std::map<const clang::VarDecl *, const Term *> Start;
  for (const clang::VarDecl *VD : Assigned) {
    auto It = State.env.find(VD);
    if (It == State.env.end() || It->second.kind != AbstractValue::Kind::Pointer)
      continue;
    Out.entry[VD] = It->second.pointer;
    Start[VD] = T.freshSymbol(VD->getName().str() + "_offset");
    Scratch.env[VD].pointer.offset = Start[VD];
  }
  if (Out.entry.empty())
    return Out;
  AnalysisLog::Mark Before = Ctx.log.mark();
  std::vector<FlowState> Breaks;
  SideExits Sides;
  iterate(L, Scratch, Breaks, Sides);
  Ctx.log.rollback(Before);
  const LoopFrame &Frame = Ctx.loops.back();
  const Term *Iteration = T.sub(Frame.span.counter, Frame.init);
  if (!(Frame.step->isConstant() && Frame.step->value() == 1))
    Iteration = T.div(Iteration, Frame.step);
  for (const auto &[VD, Entry] : Out.entry) {
    auto Back = Scratch.env.find(VD);
    bool SameMemory =
        Back != Scratch.env.end() && Back->second.kind == AbstractValue::Kind::Pointer &&
        Back->second.pointer.base == Entry.base && Back->second.pointer.lanes == Entry.lanes;
    const Term *Step =
        SameMemory ? normalize(T, T.sub(Back->second.pointer.offset, Start[VD])) : nullptr;
    AbstractValue &Now = State.env[VD];
    // Only a canonical `for` bounds its counter by the loop's own facts: a
    // widened loop's iteration count is not tied to its condition, and an
    // exact pointer there reached past its memory in iterations that never
    // run (a violated bound execution does not show).
    if (Frame.counterVar && Step && !occursIn(Start[VD], Step) && launchFixed(Step)) {
      Out.step[VD] = Step;
      Now.pointer.offset = T.add(Entry.offset, T.mul(Iteration, Step));
    } else if (SameMemory) {
      Now.pointer.offset = T.approximation(VD->getName().str() + "_offset");
    } else {
      Now = AbstractValue::ofData(
          DataValue::unknown("pointer '" + VD->getName().str() +
                             "' is assigned in a loop in a way the analysis does not follow"));
    }
  }
  return Out;
}

void ProvenanceInterpreter::pointersAfterLoop(const LoopPointers &P, const LoopFrame &Done,
                                              bool LeftEarly, FlowState &State) {
  for (const auto &[VD, Entry] : P.entry) {
    auto Step = P.step.find(VD);
    AbstractValue &Now = State.env[VD];
    if (Step == P.step.end()) {
      if (Now.kind == AbstractValue::Kind::Pointer)
        Now.pointer.offset = T.approximation(VD->getName().str() + "_offset");
      continue;
    }
    Now = AbstractValue::ofPointer(Entry.base, Entry.offset);
    Now.pointer.lanes = Entry.lanes;
    Now.pointer.offset = Done.span.tripCount && !LeftEarly
                             ? T.add(Entry.offset, T.mul(Done.span.tripCount, Step->second))
                             : T.approximation(VD->getName().str() + "_offset");
  }
}

} // namespace ave::inv
