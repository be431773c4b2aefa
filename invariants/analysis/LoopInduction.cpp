// Variables a loop moves besides its counter: `acc += *a++ * *b; b += N;`
// walks A's row and B's column, and `acc += A[ia] * B[ib]; ia++; ib += N;`
// does the same with integer indices. Each loop is interpreted once over a
// symbolic iteration, so a variable it assigns must get its value in that
// iteration; keeping its entry value read one element K times (a correct
// GEMM was reported violated), a pointer reset in the body (`p = A;`) was
// followed as if it had not been, and an index moved in a canonical `for`
// (`A[ia + k]; ia += 1;`, which reads row * K + 2k) was proven.
//
// The step is found by running the body once from a symbolic start S
// (outputs rolled back, as for the previous iteration's shared writes): a
// variable that comes back as S + D (a pointer: to the same memory at
// offset S + D), with D fixed for the launch (a constant, the launch's sizes
// and ids, kernel parameters), moves by D every iteration, continue paths
// included (they join at the back edge). An integer that two iterations
// bring back (`buf ^= 1`, `s = 1 - s`: a double buffer's index) alternates
// between its entry value and that after one iteration. Any other variable
// is widened: an
// integer becomes a value the analysis does not follow, a pointer keeps its
// memory with an unknown offset, or becomes unknown where it may change
// memory. (A widened loop's integers were widened before it ran:
// visitWhileLike.)

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

// The variables a loop's induction follows: local pointers, and in a
// canonical `for` (whose counter bounds its iterations) local integers
// other than the counter.
bool followed(const clang::VarDecl *VD, const AbstractValue &V, const LoopFrame &Frame) {
  if (V.kind == AbstractValue::Kind::Pointer)
    return true;
  return Frame.counterVar && VD != Frame.counterVar && V.kind == AbstractValue::Kind::Int && V.term;
}

// Whether Back points into the same memory, the same way, as Entry.
bool sameMemory(const AbstractValue &Entry, const AbstractValue &Back) {
  return Entry.kind == AbstractValue::Kind::Pointer && Back.kind == AbstractValue::Kind::Pointer &&
         Back.pointer.base == Entry.pointer.base && Back.pointer.lanes == Entry.pointer.lanes;
}

} // namespace

const Term *ProvenanceInterpreter::inductionStep(const AbstractValue &Entry,
                                                 const AbstractValue &Back, const Term *Start) {
  const Term *Moved = nullptr;
  if (Entry.kind == AbstractValue::Kind::Int && Back.kind == AbstractValue::Kind::Int && Back.term)
    Moved = Back.term;
  else if (sameMemory(Entry, Back))
    Moved = Back.pointer.offset;
  if (!Moved)
    return nullptr;
  const Term *Step = normalize(T, T.sub(Moved, Start));
  return !occursIn(Start, Step) && launchFixed(Step) ? Step : nullptr;
}

ProvenanceInterpreter::LoopInduction ProvenanceInterpreter::inductVariables(const CfgLoop &L,
                                                                            const clang::Stmt *Body,
                                                                            FlowState &State) {
  LoopInduction Out;
  // A copy: the body's inner loops push frames (the vector may move).
  const LoopFrame Frame = Ctx.loops.back();
  std::set<const clang::VarDecl *> Assigned = assignedInLoop(L.stmt, Body);
  FlowState Scratch = State;
  std::map<const clang::VarDecl *, const Term *> Start;
  for (const clang::VarDecl *VD : Assigned) {
    auto It = State.env.find(VD);
    if (It == State.env.end() || !followed(VD, It->second, Frame))
      continue;
    Out.entry[VD] = It->second;
    Start[VD] = T.freshSymbol(VD->getName().str() + "_start");
    if (It->second.kind == AbstractValue::Kind::Int)
      Scratch.env[VD] = AbstractValue::ofInt(Start[VD]);
    else
      Scratch.env[VD].pointer.offset = Start[VD];
  }
  if (Out.entry.empty())
    return Out;
  AnalysisLog::Mark Before = Ctx.log.mark();
  const size_t GapsBefore = CaseGaps.size(); // the assertions asked are rolled back too
  std::vector<FlowState> Breaks;
  SideExits Sides;
  iterate(L, Scratch, Breaks, Sides);
  Ctx.log.rollback(Before);
  CaseGaps.erase(CaseGaps.begin() + long(GapsBefore), CaseGaps.end());
  const Term *Iteration = T.sub(Frame.span.counter, Frame.init);
  if (!(Frame.step->isConstant() && Frame.step->value() == 1))
    Iteration = T.div(Iteration, Frame.step);
  for (const auto &[VD, Entry] : Out.entry) {
    auto Back = Scratch.env.find(VD);
    const AbstractValue *Moved = Back != Scratch.env.end() ? &Back->second : nullptr;
    // Only a canonical `for` bounds its counter by the loop's own facts: a
    // widened loop's iteration count is not tied to its condition, and an
    // exact pointer there reached past its memory in iterations that never
    // run (a violated bound execution does not show).
    const Term *Step =
        Frame.counterVar && Moved ? inductionStep(Entry, *Moved, Start[VD]) : nullptr;
    const Term *Toggle =
        Frame.counterVar && Moved && !Step ? alternation(Entry, *Moved, Start[VD]) : nullptr;
    const Term *At = nullptr;
    if (Step) {
      Out.step[VD] = Step;
      At = T.add(startOf(Entry), T.mul(Iteration, Step));
    } else if (Toggle) {
      Out.toggle[VD] = {Toggle, Start[VD]};
      At = alternated(Entry.term, Toggle, Start[VD], Iteration);
    }
    setInductionValue(VD, Entry, At, Moved && sameMemory(Entry, *Moved), State.env[VD]);
  }
  return Out;
}

const Term *ProvenanceInterpreter::alternation(const AbstractValue &Entry,
                                               const AbstractValue &Back, const Term *Start) {
  if (Entry.kind != AbstractValue::Kind::Int || Back.kind != AbstractValue::Kind::Int || !Back.term)
    return nullptr;
  for (const Term *S : collectSymbols(Back.term))
    if (S != Start && !isLaunchOrParameter(S->symbolKind()))
      return nullptr;
  TermMap Again;
  Again.emplace(Start, Back.term);
  const Term *Twice = substitute(T, Back.term, Again);
  if (Ctx.ask("a variable two iterations bring back", T.ne(Twice, Start)).status !=
      SolverResult::Proven)
    return nullptr;
  return Back.term;
}

const Term *ProvenanceInterpreter::alternated(const Term *Entry, const Term *Once,
                                              const Term *Start, const Term *Count) {
  TermMap First;
  First.emplace(Start, Entry);
  return T.select(T.eq(T.rem(Count, T.constant(2)), T.constant(0)), Entry,
                  substitute(T, Once, First));
}

const Term *ProvenanceInterpreter::startOf(const AbstractValue &Entry) {
  return Entry.kind == AbstractValue::Kind::Int ? Entry.term : Entry.pointer.offset;
}

void ProvenanceInterpreter::setInductionValue(const clang::VarDecl *VD, const AbstractValue &Entry,
                                              const Term *At, bool SameMemory, AbstractValue &Now) {
  std::string Name = VD->getName().str();
  if (Entry.kind == AbstractValue::Kind::Int) {
    Now = AbstractValue::ofInt(At ? At : T.approximation(Name, SymbolKind::Fresh));
  } else if (At || SameMemory) {
    Now = AbstractValue::ofPointer(Entry.pointer.base, At ? At : T.approximation(Name + "_offset"));
    Now.pointer.lanes = Entry.pointer.lanes;
  } else {
    Now = AbstractValue::ofData(DataValue::unknown(
        "pointer '" + Name + "' is assigned in a loop in a way the analysis does not follow"));
  }
}

void ProvenanceInterpreter::variablesAfterLoop(const LoopInduction &P, const LoopFrame &Done,
                                               bool LeftEarly, FlowState &State) {
  for (const auto &[VD, Entry] : P.entry) {
    auto Step = P.step.find(VD);
    AbstractValue &Now = State.env[VD];
    const Term *At = Step != P.step.end() && Done.span.tripCount && !LeftEarly
                         ? T.add(startOf(Entry), T.mul(Done.span.tripCount, Step->second))
                         : nullptr;
    if (auto Toggle = P.toggle.find(VD);
        Toggle != P.toggle.end() && Done.span.tripCount && !LeftEarly)
      At = alternated(Entry.term, Toggle->second.first, Toggle->second.second, Done.span.tripCount);
    // A pointer the loop moves another way keeps its memory (unknown
    // offset), or stays unknown where the body made it so.
    if (Entry.kind == AbstractValue::Kind::Pointer && Step == P.step.end()) {
      if (Now.kind == AbstractValue::Kind::Pointer)
        Now.pointer.offset = T.approximation(VD->getName().str() + "_offset");
      continue;
    }
    setInductionValue(VD, Entry, At, /*SameMemory=*/true, Now);
  }
}

} // namespace ave::inv
