#include "SharedMemoryModel.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

namespace ave::inv {

void SharedMemoryModel::recordAccess(const clang::ValueDecl *Array, const Term *Index,
                                     bool IsWrite, const clang::Expr *Site,
                                     const FlowState &State) {
  LdsAccess A;
  A.array = Array;
  A.address = Index;
  A.isWrite = IsWrite;
  clang::QualType Elem = Array->getType();
  while (const auto *AT = Ctx.ast.getAsArrayType(Elem))
    Elem = AT->getElementType();
  if (!Elem->isIncompleteType() && !Elem->isDependentType())
    A.elementBytes = unsigned(Ctx.ast.getTypeSizeInChars(Elem).getQuantity());
  A.guard = State.path;
  A.loops = Ctx.loopContexts();
  A.interval = Ctx.log.interval();
  A.seq = Ctx.log.nextSeq();
  A.expr = Site;
  if (Site)
    A.range = Site->getSourceRange();
  Ctx.log.addAccess(std::move(A));
}

void SharedMemoryModel::store(const clang::ValueDecl *Array, const Term *Index,
                              const DataValue &V, const clang::Expr *Site,
                              const FlowState &State) {
  recordAccess(Array, Index, true, Site, State);
  LdsWrite W;
  W.array = Array;
  W.address = Index;
  W.value = V;
  W.guard = State.path;
  W.loops = Ctx.loops;
  W.seq = Ctx.log.nextSeq();
  W.site = Site->getBeginLoc();
  W.text = Ctx.text(Site);
  Ctx.log.addLdsWrite(std::move(W));
}

void SharedMemoryModel::barrier(const clang::Expr *Call, const FlowState &State) {
  Ctx.log.addBarrier(Call, State.path, Ctx.loopContexts());
}

void SharedMemoryModel::reset(const clang::ValueDecl *Array) {
  std::erase_if(Ctx.log.ldsWrites(), [Array](const LdsWrite &W) { return W.array == Array; });
}

void SharedMemoryModel::setPreviousIterationWrites(unsigned LoopId, std::vector<LdsWrite> Writes) {
  if (!Writes.empty())
    PreviousIterationWrites[LoopId] = std::move(Writes);
}

bool SharedMemoryModel::solveWriterThread(const Term *WriterAddress, const Term *Index,
                                          const Term *Validity, const FlowState &State,
                                          std::vector<const Term *> &Writer,
                                          std::vector<WriterCounter> &Counters,
                                          std::vector<const Term *> &SideConditions) {
  // The write address as a layout over the writer's thread ids
  // (`ty'*16 + tx'`): matching the read address against it gives the writer
  // as a term of the reader's state (ty' = ty, tx' = k) instead of an
  // existential the solver has to search for.
  TermContext &T = Ctx.terms;
  TagLayout Layout;
  Layout.address = WriterAddress;
  std::vector<unsigned> Dims;
  for (unsigned D = 0; D < 3; ++D)
    if (occursIn(Writer[D], WriterAddress)) {
      if (!Ctx.symbols.launchBlock[D])
        return false;
      Layout.coordinates.push_back({Writer[D], T.constant(*Ctx.symbols.launchBlock[D])});
      Dims.push_back(D);
    }
  // The counters of the writer's own loops (`Ks[x / 64][x % 64]` stored for
  // x = tid, tid + 64, ...): coordinates of the layout too.
  std::vector<size_t> InAddress;
  for (size_t I = 0; I < Counters.size(); ++I)
    if (Counters[I].extent && occursIn(Counters[I].symbol, WriterAddress)) {
      Layout.coordinates.push_back({Counters[I].symbol, Counters[I].extent});
      InAddress.push_back(I);
    }
  if (Dims.empty() && InAddress.empty())
    return false;
  LayoutMatchResult M = Ctx.matcher.match(Layout, Index);
  if (!M.matched)
    return false;
  std::vector<const Term *> Query = State.path;
  Query.push_back(Validity);
  Query.push_back(T.logicalNot(T.allOf(M.sideConditions)));
  if (Ctx.ask("writer solved", T.allOf(Query)).status != SolverResult::Proven)
    return false;
  for (unsigned D : Dims)
    Writer[D] = M.coordinates.at(Writer[D]);
  for (size_t I : InAddress)
    Counters[I].symbol = M.coordinates.at(Counters[I].symbol);
  SideConditions = M.sideConditions;
  return true;
}

size_t SharedMemoryModel::commonLoops(const LdsWrite &W) const {
  size_t Common = 0;
  while (Common < W.loops.size() && Common < Ctx.loops.size() &&
         W.loops[Common].id == Ctx.loops[Common].id)
    ++Common;
  return Common;
}

std::vector<SharedMemoryModel::Candidate>
SharedMemoryModel::candidates(const clang::ValueDecl *Array) const {
  // Newest first: writes of this iteration, then the previous iteration's
  // writes of each enclosing loop (innermost first), then writes from
  // before the loops.
  std::vector<Candidate> Out;
  const std::vector<LdsWrite> &Writes = Ctx.log.ldsWrites();
  for (size_t Level = Ctx.loops.size() + 1; Level-- > 0;) {
    // Recorded writes whose deepest common loop with the read is `Level`.
    for (auto It = Writes.rbegin(); It != Writes.rend(); ++It)
      if (It->array == Array && commonLoops(*It) == Level)
        Out.push_back({&*It, nullptr});
    if (Level == 0)
      break;
    const LoopFrame &Loop = Ctx.loops[Level - 1];
    auto Prev = PreviousIterationWrites.find(Loop.id);
    bool Known = false;
    if (Prev != PreviousIterationWrites.end())
      for (auto It = Prev->second.rbegin(); It != Prev->second.rend(); ++It)
        if (It->array == Array) {
          Out.push_back({&*It, &Loop});
          Known = true;
        }
    // The first pass over a loop does not know its body's writes yet, but
    // knows that they exist: older writes then hold only in the first
    // iteration, exactly as in the second pass.
    if (!Known && Loop.writesShared.count(Array))
      Out.push_back({nullptr, &Loop});
  }
  return Out;
}

SharedMemoryModel::RenamedWrite SharedMemoryModel::rename(const Candidate &Cand,
                                                          const Term *Index,
                                                          const Term *Blocked,
                                                          const FlowState &State) {
  TermContext &T = Ctx.terms;
  const LdsWrite &W = *Cand.write;
  RenamedWrite R;
  R.validity = T.trueTerm();
  if (Cand.previousOf) {
    const LoopFrame &L = *Cand.previousOf;
    const Term *Prev = T.sub(L.span.counter, L.step);
    R.map[L.span.counter] = Prev;
    R.validity = T.ge(Prev, L.init);
  }
  for (unsigned D = 0; D < 3; ++D) {
    R.writer.push_back(T.freshCopy(Ctx.symbols.tid[D]));
    R.map[Ctx.symbols.tid[D]] = R.writer.back();
  }
  std::vector<WriterCounter> Counters;
  for (size_t L = commonLoops(W); L < W.loops.size(); ++L)
    if (!(Cand.previousOf && W.loops[L].id == Cand.previousOf->id)) {
      const LoopFrame &F = W.loops[L];
      R.map[F.span.counter] = T.freshCopy(F.span.counter);
      // A canonical loop's bound `counter < B` is the counter's extent.
      const Term *Extent =
          F.canonical && F.span.facts.size() > 1 && F.span.facts[1]->kind() == TermKind::Lt
              ? F.span.facts[1]->operand(1)
              : nullptr;
      Counters.push_back({F.span.counter, R.map[F.span.counter], Extent});
    }
  const Term *WriterAddress = substitute(T, W.address, R.map);
  std::vector<const Term *> SideConditions;
  bool Solved =
      solveWriterThread(WriterAddress, Index, T.logicalAnd(R.validity, T.logicalNot(Blocked)),
                        State, R.writer, Counters, SideConditions);
  if (Solved)
    for (const WriterCounter &C : Counters)
      R.map[C.original] = C.symbol;
  for (unsigned D = 0; D < 3; ++D) {
    R.map[Ctx.symbols.tid[D]] = R.writer[D];
    if (R.writer[D]->isSymbol() && R.writer[D]->symbolKind() == SymbolKind::ThreadIdx) {
      R.constraints.push_back(T.ge(R.writer[D], T.constant(0)));
      R.constraints.push_back(T.lt(R.writer[D], Ctx.symbols.bdim[D]));
    }
  }
  for (const Term *G : W.guard)
    R.constraints.push_back(substitute(T, G, R.map));
  if (Solved)
    R.constraints.insert(R.constraints.end(), SideConditions.begin(), SideConditions.end());
  else
    R.constraints.push_back(T.eq(WriterAddress, Index));
  return R;
}

AbstractValue SharedMemoryModel::load(const clang::ValueDecl *Array, const Term *Index,
                                      const FlowState &State) {
  TermContext &T = Ctx.terms;
  Ctx.log.nextSeq();
  std::vector<Candidate> Candidates = candidates(Array);
  if (Candidates.empty())
    return AbstractValue::ofData(DataValue::unknown("shared array read before any write"));
  DataValue Result;
  // Writes that can reach the read so far shadow older ones only in the
  // iterations they cover: `Covered` is the condition under which a newer
  // candidate applies.
  const Term *Covered = T.falseTerm();
  const Term *CoveredForSolve = T.falseTerm();
  for (const Candidate &Cand : Candidates) {
    if (!Cand.write) {
      // Only the writer's solution may assume it: the value keeps applying
      // to every iteration, as the first pass cannot offer another case.
      const LoopFrame &L = *Cand.previousOf;
      CoveredForSolve = T.logicalOr(CoveredForSolve, T.ge(T.sub(L.span.counter, L.step), L.init));
      continue;
    }
    RenamedWrite R = rename(Cand, Index, T.logicalOr(Covered, CoveredForSolve), State);
    // A write that can never hold this element is not the writer.
    std::vector<const Term *> Query = State.path;
    Query.push_back(R.validity);
    Query.push_back(T.logicalNot(Covered));
    Query.insert(Query.end(), R.constraints.begin(), R.constraints.end());
    if (Ctx.ask("lds writer reachable", T.allOf(Query)).status == SolverResult::Proven)
      continue;
    DataValue Copied = substituteData(T, Cand.write->value, R.map);
    for (Reduction &Red : Copied.reductions)
      Red.crossedThreads = true;
    if (Copied.kind == DataValue::Kind::Unknown)
      return AbstractValue::ofData(Copied);
    const Term *Applies = T.logicalAnd(R.validity, T.logicalNot(Covered));
    if (Copied.kind == DataValue::Kind::Tagged) {
      Result.kind = DataValue::Kind::Tagged;
      for (ProvenanceCase &C : Copied.cases) {
        C.validity = T.logicalAnd(C.validity, Applies);
        C.constraints.insert(C.constraints.end(), R.constraints.begin(), R.constraints.end());
        C.origins.push_back({Cand.write->site, Cand.write->text, R.writer, Index});
        Result.cases.push_back(std::move(C));
      }
      Result.reduced.insert(Copied.reduced.begin(), Copied.reduced.end());
      Result.reductions.insert(Result.reductions.end(), Copied.reductions.begin(),
                               Copied.reductions.end());
    }
    // A same-iteration write (no validity condition) covers every iteration;
    // a previous-iteration write covers all but the first.
    Covered = T.logicalOr(Covered, R.validity);
    if (R.validity->isConstant(1))
      break;
  }
  return AbstractValue::ofData(std::move(Result));
}

} // namespace ave::inv
