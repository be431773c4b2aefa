// A warp-shuffle reduction loop, or a run of shuffle combinations written
// out one after another (ShuffleReduction.h), as one transfer: the
// combined variable keeps its per-thread partial sum, marked as crossed to
// other lanes through the loop (the run: through the variable itself), and
// the lane combination is run once for the target's wave size; reduction
// coverage takes the storing thread's wave with it. What the combination
// cannot be made of (a value that is not a per-thread partial sum, lanes
// holding different coordinates, a loop under a condition) makes the
// variable unknown, with the reason.
#include "ProvenanceInterpreter.h"

#include "clang/AST/Stmt.h"

#include <algorithm>

namespace ave::inv {

namespace {

bool atKernelTopLevel(const clang::Stmt *S, const clang::FunctionDecl *Kernel) {
  const auto *Body =
      Kernel ? llvm::dyn_cast_or_null<clang::CompoundStmt>(Kernel->getBody()) : nullptr;
  return Body && std::find(Body->body_begin(), Body->body_end(), S) != Body->body_end();
}

} // namespace

ProvenanceInterpreter::SideExits ProvenanceInterpreter::shuffleLoop(const ShuffleLoop &L,
                                                                    FlowState &State) {
  State.env[L.counter] =
      AbstractValue::ofInt(Ctx.terms.approximation(L.counter->getNameAsString()));
  combineShuffled(L, L.counter, L.loop, State);
  return SideExits{};
}

bool ProvenanceInterpreter::shuffleRun(const clang::Expr *E, FlowState &State) {
  if (Ctx.shuffleRunFollowers.count(E))
    return true; // the run's first statement did the whole run
  const auto *Body = llvm::dyn_cast_or_null<clang::CompoundStmt>(
      Ctx.annotations.kernel ? Ctx.annotations.kernel->getBody() : nullptr);
  std::optional<ShuffleLoop> L = matchShuffleRun(Body, E);
  if (!L)
    return false;
  Ctx.shuffleRunFollowers.insert(L->statements.begin() + 1, L->statements.end());
  combineShuffled(*L, L->value, E, State);
  return true;
}

void ProvenanceInterpreter::combineShuffled(const ShuffleLoop &L, const clang::ValueDecl *Key,
                                            const clang::Stmt *At, FlowState &State) {
  TermContext &T = Ctx.terms;
  std::string Name = L.value->getNameAsString();
  auto Unknown = [&](const std::string &Why) {
    State.env[L.value] = AbstractValue::ofData(
        DataValue::unknown("the warp shuffle reduction of '" + Name + "': " + Why));
  };
  if (!atKernelTopLevel(At, Ctx.annotations.kernel))
    return Unknown("it runs under a condition or in a loop, where lanes may be inactive");
  const LaneCombination &Lanes = Ctx.laneCombinations[Key] =
      combineLanes(Ctx.ast, *Ctx.annotations.kernel, L, Ctx.opts.waveSize, Ctx.symbols.launchBlock);
  if (!Lanes.unmodelled.empty())
    return Unknown(Lanes.unmodelled);
  auto It = State.env.find(L.value);
  if (It == State.env.end() || It->second.kind != AbstractValue::Kind::Data)
    return Unknown("its value before the shuffles is not followed");
  DataValue V = It->second.data;
  if (V.kind != DataValue::Kind::Tagged)
    return; // a constant or an unknown stays what it is
  if (V.reductions.empty())
    return Unknown("it is not a partial sum per thread (each lane's own element combined across "
                   "lanes is not modelled)");
  const Term *Flat = Ctx.flatThread();
  if (!Flat)
    return Unknown("the block shape is not fixed by a launch pragma");
  // Every lane of the wave must hold the same coordinates (the same row).
  int64_t Wave = static_cast<int64_t>(Lanes.times.size());
  const Term *Other = T.freshCopy(Ctx.symbols.tid[0]);
  TermMap OtherLane =
      Ctx.threadOfFlat(T.add(T.mul(T.div(Flat, T.constant(Wave)), T.constant(Wave)), Other));
  // Every lane of the wave must reach the shuffles: a lane that returned
  // before them (`if (tid >= 48) return;`) gives no value, and the lanes
  // that read it were proven to sum it.
  {
    std::vector<const ave::inv::Term *> Left = State.path;
    Left.push_back(T.ge(Other, T.constant(0)));
    Left.push_back(T.lt(Other, T.constant(Wave)));
    Left.push_back(T.logicalNot(substitute(T, T.allOf(State.path), OtherLane)));
    if (Ctx.ask("every lane reaches the shuffles", T.allOf(Left)).status != SolverResult::Proven)
      return Unknown("lanes of the wave may not reach it (an early return or a condition on the "
                     "lane before it), and a shuffle from such a lane has no value");
  }
  for (const ProvenanceCase &C : V.cases)
    for (const auto &[Coord, Term] : C.coords) {
      if (V.reduced.count(Coord))
        continue;
      std::vector<const ave::inv::Term *> Query = State.path;
      Query.push_back(T.ge(Other, T.constant(0)));
      Query.push_back(T.lt(Other, T.constant(Wave)));
      Query.push_back(T.ne(Term, substitute(T, Term, OtherLane)));
      if (Ctx.ask("shuffled lanes hold one coordinate", T.allOf(Query)).status !=
          SolverResult::Proven)
        return Unknown("the lanes it combines may hold different '" + Coord + "'");
    }
  for (Reduction &R : V.reductions) {
    bool PerThread = true;
    forEachPiece(R, [&](Reduction &Piece) {
      PerThread = PerThread && !Piece.partialOverThreadDims.empty() && Piece.perThreadTerm;
    });
    if (!PerThread)
      return Unknown("a partial sum that is the same in every lane would be taken once per lane");
    markCrossed(R, Key);
  }
  State.env[L.value] = AbstractValue::ofData(std::move(V));
}

} // namespace ave::inv
