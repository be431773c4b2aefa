// Matrix-core instructions (MFMA, mma.sync through the project helper):
// the operands of one instruction live in the registers of every lane of the
// wave, so the provenance of "A(i, kk) as the instruction sees it" is the
// provenance of the operand element in lane aPlace(i, kk) — this thread's
// value with the lane substituted. Contraction agreement is checked for
// symbolic (i, j, kk); each result element gets the product's provenance at
// the (i, j) it holds, with kk summed away inside the instruction.
// ldmatrix (through the project helpers) is a load whose addresses other
// lanes give: slot s of this lane is the shared element at the row address
// of lane source(s), offset(s) on (LdmatrixModel), that lane's row pointer
// being this thread's with the lane substituted.

#include "ProvenanceInterpreter.h"

#include "clang/AST/ASTContext.h"

namespace ave::inv {

TermMap ProvenanceInterpreter::laneOfWave(const Term *Tid, unsigned Lanes, bool OneWave,
                                          const Term *Lane) {
  // The thread of this wave whose lane is Lane: tid := Lanes*(tid/Lanes) +
  // Lane. A value's own digits of tid are replaced first, by their values
  // at that thread (0 <= Lane < Lanes, tid >= 0): `tid % c` and `tid / c`
  // for c dividing Lanes are `Lane % c` and `(Lanes/c)*(tid/Lanes) + Lane/c`;
  // for c a multiple of Lanes, `Lanes*((tid/Lanes) % (c/Lanes)) + Lane` and
  // `(tid/Lanes) / (c/Lanes)`. Written whole, `(Lanes*(tid/Lanes) + Lane) % c`
  // leaves the solver a division per digit of every operand.
  if (OneWave)
    return {{Tid, Lane}};
  const Term *L = T.constant(int64_t(Lanes));
  const Term *Wave = T.div(Tid, L);
  TermMap Map{{Tid, T.add(T.mul(L, Wave), Lane)}};
  for (int64_t C = 2; C <= 4096; C *= 2) {
    const Term *CT = T.constant(C);
    if (C == int64_t(Lanes)) { // the lane's own wave: Lane / Lanes is 0
      Map[T.rem(Tid, CT)] = Lane;
      Map[T.div(Tid, CT)] = Wave;
    } else if (Lanes % C == 0) {
      Map[T.rem(Tid, CT)] = T.rem(Lane, CT);
      Map[T.div(Tid, CT)] = T.add(T.mul(T.constant(int64_t(Lanes) / C), Wave), T.div(Lane, CT));
    } else if (C % Lanes == 0) {
      const Term *Waves = T.constant(C / int64_t(Lanes));
      Map[T.rem(Tid, CT)] = T.add(T.mul(L, T.rem(Wave, Waves)), Lane);
      Map[T.div(Tid, CT)] = T.div(Wave, Waves);
    }
  }
  return Map;
}

ProvenanceInterpreter::WaveLanes ProvenanceInterpreter::waveLanes(unsigned Lanes) {
  // The hardware numbers a block's threads x fastest (x + X*(y + Y*z)) and
  // cuts that order into waves of Lanes threads. Where X is a multiple of
  // Lanes, a wave lies in one row and its lanes are threadIdx.x % Lanes;
  // otherwise a wave spans rows and the lane is the flat id % Lanes. A
  // block that is not whole waves leaves lanes without a thread, whose
  // operands the instruction still reads: not modelled.
  const KernelSymbols &S = Ctx.symbols;
  WaveLanes W;
  if (!S.launchBlock[0] || !S.launchBlock[1] || !S.launchBlock[2]) {
    W.problem = "the launch block is not known (#pragma ave launch block(...))";
    return W;
  }
  const int64_t L = Lanes, X = *S.launchBlock[0];
  const int64_t Threads = X * *S.launchBlock[1] * *S.launchBlock[2];
  if (Threads % L != 0) {
    W.problem = "the launch block (" + std::to_string(Threads) +
                " threads) is not whole waves of " + std::to_string(L) + " lanes";
    return W;
  }
  W.alongX = X % L == 0;
  W.oneWave = W.alongX ? X == L : Threads == L;
  const Term *Place = W.alongX ? S.tid[0] : Ctx.flatThread();
  W.ownLane = W.oneWave ? Place : T.rem(Place, T.constant(L));
  return W;
}

TermMap ProvenanceInterpreter::threadAtLane(const WaveLanes &W, unsigned Lanes, const Term *Lane) {
  if (W.alongX)
    return laneOfWave(Ctx.symbols.tid[0], Lanes, W.oneWave, Lane);
  const Term *L = T.constant(int64_t(Lanes));
  return Ctx.threadOfFlat(W.oneWave ? Lane : T.add(T.mul(L, T.div(Ctx.flatThread(), L)), Lane));
}

namespace {

// The symbols of V's cases that the read which made them introduced:
// thread and loop-counter copies in its constraints (a shared-memory read's
// writer thread and the writer loop's counter) that neither this thread's
// path nor its enclosing loops nor the kernel's facts know.
std::vector<const Term *> readExistentials(const DataValue &V, const FlowState &State,
                                           const AnalysisContext &Ctx) {
  TermSet Known;
  auto KnowAll = [&](const Term *F) {
    for (const Term *S : collectSymbols(F))
      Known.insert(S);
  };
  for (const Term *F : State.path)
    KnowAll(F);
  for (const Term *F : Ctx.kernelFacts)
    KnowAll(F);
  for (const LoopContext &L : Ctx.loopContexts()) {
    Known.insert(L.counter);
    for (const Term *F : L.facts)
      KnowAll(F);
  }
  std::vector<const Term *> Out;
  TermSet Seen;
  for (const ProvenanceCase &C : V.cases)
    for (const Term *F : C.constraints)
      for (const Term *S : collectSymbols(F)) {
        SymbolKind K = S->symbolKind();
        bool Copy = S->copiedFrom() && (K == SymbolKind::ThreadIdx || K == SymbolKind::LoopCounter);
        if (Copy && !Known.count(S) && Seen.insert(S).second)
          Out.push_back(S);
      }
  return Out;
}

} // namespace

// An operand read from shared memory before the instruction carries the
// read's existentials (the writer thread, its loop counter). Inside the
// instruction's k loop each k reads another element, so another writer:
// fresh copies, made after the loop's first term, are copied per
// iteration by the loop summary, as they would be had the read been in
// the loop's body. Renaming an existential keeps what the case says.
DataValue ProvenanceInterpreter::withFreshReadExistentials(const DataValue &V,
                                                           const FlowState &State) {
  TermMap Rename;
  for (const Term *S : readExistentials(V, State, Ctx))
    Rename[S] = T.freshCopy(S);
  return Rename.empty() ? V : substituteData(T, V, Rename);
}

AbstractValue ProvenanceInterpreter::matrixCore(const MatrixLaneModel &M, const AbstractValue &A,
                                                const AbstractValue &B, const AbstractValue &Acc,
                                                const clang::Expr *Site, const FlowState &State) {
  unsigned FirstTermId = unsigned(T.size());
  const Term *I = T.freshSymbol("i", SymbolKind::Fresh);
  const Term *J = T.freshSymbol("j", SymbolKind::Fresh);
  const Term *KK = T.freshSymbol("kk", SymbolKind::LoopCounter);
  // This thread's lane, and the thread holding lane L of the same wave.
  const WaveLanes Wave = waveLanes(M.lanes);
  if (!Wave.problem.empty()) {
    auto Out = std::make_shared<PrivateArray>();
    Out->slotCounter = T.freshSymbol("reg", SymbolKind::Other);
    Out->size = M.cElements;
    Out->slotValue = AbstractValue::ofData(
        DataValue::unknown("the matrix-core instruction '" + std::string(M.name) +
                           "' is not modelled here: " + Wave.problem));
    return AbstractValue::ofArray(std::move(Out));
  }
  const Term *OwnLane = Wave.ownLane;
  auto AtLane = [&](const Term *L) { return threadAtLane(Wave, M.lanes, L); };

  std::vector<const Term *> IndexRanges = {T.ge(I, T.constant(0)),  T.lt(I, T.constant(M.m)),
                                           T.ge(J, T.constant(0)),  T.lt(J, T.constant(M.n)),
                                           T.ge(KK, T.constant(0)), T.lt(KK, T.constant(M.k))};
  auto OperandAt = [&](const AbstractValue &V, LanePlace P) -> DataValue {
    AbstractValue Elem = V;
    if (V.kind == AbstractValue::Kind::Array)
      Elem = readElement(T, *V.array, P.element, Ctx.privateDecider(State, IndexRanges));
    if (Elem.kind != AbstractValue::Kind::Data)
      return DataValue::unknown("matrix-core operand is not a data value");
    return withFreshReadExistentials(substituteData(T, Elem.data, AtLane(P.lane)), State);
  };
  DataValue OA = OperandAt(A, M.aPlace(T, I, KK));
  DataValue OB = OperandAt(B, M.bPlace(T, KK, J));
  std::vector<const Term *> Bounds = {T.ge(I, T.constant(0)),  T.lt(I, T.constant(M.m)),
                                      T.ge(J, T.constant(0)),  T.lt(J, T.constant(M.n)),
                                      T.ge(KK, T.constant(0)), T.lt(KK, T.constant(M.k))};
  for (DataValue *V : {&OA, &OB})
    for (ProvenanceCase &C : V->cases)
      C.constraints.insert(C.constraints.end(), Bounds.begin(), Bounds.end());
  AbstractValue Product =
      combineData(AbstractValue::ofData(OA), AbstractValue::ofData(OB), '*', Site, State);
  if (Product.data.kind == DataValue::Kind::Unknown)
    return Product;

  // Result element `Slot` of this lane holds C(i, j) = cEntry(lane, Slot).
  // The result element index is this thread's own choice, not an
  // existential of the instruction: kind Other keeps it shared.
  const Term *Slot = T.freshSymbol("reg", SymbolKind::Other);
  auto [CI, CJ] = M.cEntry(T, OwnLane, Slot);
  DataValue AtSlot = substituteData(T, Product.data, TermMap{{I, CI}, {J, CJ}});
  for (ProvenanceCase &C : AtSlot.cases) {
    C.constraints.push_back(T.ge(Slot, T.constant(0)));
    C.constraints.push_back(T.lt(Slot, T.constant(M.cElements)));
  }

  // kk is summed inside the instruction: a loop of M.k iterations.
  LoopFrame Inside;
  Inside.loop = nullptr;
  Inside.firstTermId = FirstTermId;
  Inside.span.counter = KK;
  Inside.span.name = std::string(M.name) + " k";
  Inside.span.facts = {T.ge(KK, T.constant(0)), T.lt(KK, T.constant(M.k))};
  Inside.span.tripCount = T.constant(M.k);
  Summaries.reduceOverLoop(AtSlot, Inside, State);
  for (Reduction &R : AtSlot.reductions)
    if (!R.site.isValid() && Site)
      R.site = Site->getBeginLoc();

  AbstractValue AccAtSlot = AbstractValue::ofData(DataValue::neutral());
  if (Acc.kind == AbstractValue::Kind::Array)
    AccAtSlot =
        readElement(T, *Acc.array, Slot,
                    Ctx.privateDecider(State, {T.ge(Slot, T.constant(0)),
                                               T.lt(Slot, T.constant(int64_t(M.cElements)))}));
  else if (Acc.kind == AbstractValue::Kind::Data)
    AccAtSlot = Acc;
  AbstractValue Sum = combineData(AccAtSlot, AbstractValue::ofData(AtSlot), '+', Site, State);

  auto Out = std::make_shared<PrivateArray>();
  Out->slotCounter = Slot;
  Out->slotValue = Sum;
  Out->size = M.cElements;
  return AbstractValue::ofArray(std::move(Out));
}

AbstractValue ProvenanceInterpreter::ldmatrix(const LdmatrixModel &M, const AbstractValue &Row,
                                              const clang::CallExpr *Call, FlowState &State) {
  // The slot ranges over the fragment like a loop counter (its range is on
  // the read's path), so that the race check follows the read.
  const Term *Slot = T.freshSymbol("slot", SymbolKind::LoopCounter);
  auto Out = std::make_shared<PrivateArray>();
  Out->slotCounter = Slot;
  Out->size = M.slots();
  auto Unknown = [&](const std::string &Why) {
    Out->slotValue =
        AbstractValue::ofData(DataValue::unknown("'" + std::string(M.name) + "' " + Why));
    return AbstractValue::ofArray(Out);
  };
  if (Row.kind != AbstractValue::Kind::Pointer || !Row.pointer.base || !Row.pointer.offset ||
      Row.pointer.lanes > 1 || !Ctx.isSharedArray(Row.pointer.base))
    return Unknown("does not load from an element of a shared array, which is the load the "
                   "analysis models");
  if (Ctx.ast.getTypeSizeInChars(baseElementType(Row.pointer.base)).getQuantity() != 2)
    return Unknown("loads 16-bit elements, and '" + Row.pointer.base->getName().str() +
                   "' does not hold them");
  const WaveLanes Wave = waveLanes(M.lanes);
  if (!Wave.problem.empty())
    return Unknown("is not modelled here: " + Wave.problem);
  const Term *OwnLane = Wave.ownLane;
  // Every lane forms its row address (`&Bs[r][c]` past the array is an
  // error on the CPU executor, whatever the instruction then reads), and
  // the lanes whose rows the instruction reads give 16-byte aligned ones.
  requireSharedInBounds(Row.pointer.base, Row.pointer.offset, Call, State, "ldmatrix row address");
  FlowState Giving = State;
  Giving.path.push_back(T.lt(OwnLane, T.constant(int64_t(8 * M.matrices))));
  requireAlignedAccess({Row.pointer.base, Row.pointer.offset, 1}, 16, "ldmatrix row", Call, Giving,
                       "load");
  LanePlace P = M.source(T, OwnLane, Slot);
  const Term *Source = substitute(T, Row.pointer.offset, threadAtLane(Wave, M.lanes, P.lane));
  FlowState Reading = State;
  Reading.path.push_back(T.ge(Slot, T.constant(0)));
  Reading.path.push_back(T.lt(Slot, T.constant(int64_t(M.slots()))));
  Out->slotValue = loadScalar({Row.pointer.base, T.add(Source, P.element), 1}, Call, Reading);
  return AbstractValue::ofArray(Out);
}

} // namespace ave::inv
