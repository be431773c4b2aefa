// Memory: global loads take their provenance from the tag layout, stores
// into tagged outputs are checked, and shared memory is followed across
// threads: a read gets the provenance of the writer whose address equals the
// read address, over a fresh copy of the writer's thread ids.

#include "ProvenanceInterpreter.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/Lex/Lexer.h"

namespace ave::inv {

DataValue substituteData(TermContext &T, const DataValue &V, const TermMap &Map) {
  DataValue Out = V;
  for (std::vector<ProvenanceCase> *Cases : {&Out.cases, &Out.rescales})
    for (ProvenanceCase &C : *Cases) {
      C.validity = substitute(T, C.validity, Map);
      for (const Term *&K : C.constraints)
        K = substitute(T, K, Map);
      for (auto &[Name, Term] : C.coords)
        Term = substitute(T, Term, Map);
      for (ValueOrigin &O : C.origins) {
        for (const Term *&W : O.writerThread)
          W = substitute(T, W, Map);
        if (O.element)
          O.element = substitute(T, O.element, Map);
      }
    }
  for (Reduction &R : Out.reductions) {
    R.term = substitute(T, R.term, Map);
    for (const Term *&K : R.constraints)
      K = substitute(T, K, Map);
  }
  return Out;
}

AbstractValue ProvenanceInterpreter::readPrivateElement(const PrivateArray &Arr,
                                                        const Term *Index) {
  if (Index->isConstant()) {
    auto Slot = Arr.constantSlots.find(Index->value());
    if (Slot != Arr.constantSlots.end())
      return Slot->second;
  }
  if (Arr.slotCounter) {
    AbstractValue V = Arr.slotValue;
    TermMap Map{{Arr.slotCounter, Index}};
    if (V.kind == AbstractValue::Kind::Data)
      V.data = substituteData(T, V.data, Map);
    else if (V.kind == AbstractValue::Kind::Int)
      V.term = substitute(T, V.term, Map);
    return V;
  }
  // `float4 acc = {0, 0, 0, 0}` read at any index: every slot is neutral.
  if (!Arr.constantSlots.empty() &&
      std::all_of(Arr.constantSlots.begin(), Arr.constantSlots.end(), [](const auto &S) {
        return S.second.kind == AbstractValue::Kind::Data &&
               S.second.data.kind == DataValue::Kind::Neutral && !S.second.data.accumulator;
      }))
    return AbstractValue::ofData(DataValue::neutral());
  return AbstractValue::ofData(DataValue::unknown("private array element never written"));
}

unsigned ProvenanceInterpreter::vectorLanes(const clang::ValueDecl *Base,
                                            clang::QualType Pointee) const {
  // Elements of the base per pointee, when the pointee is a vector of them.
  clang::QualType Elem = Base->getType();
  if (Elem->isPointerType())
    Elem = Elem->getPointeeType();
  while (const auto *AT = Ctx.getAsArrayType(Elem))
    Elem = AT->getElementType();
  if (Elem->isIncompleteType() || Pointee->isIncompleteType() || Elem->isVoidType() ||
      Elem->isDependentType() || Pointee->isDependentType())
    return 1;
  uint64_t ElemBytes = Ctx.getTypeSizeInChars(Elem).getQuantity();
  uint64_t PointeeBytes = Ctx.getTypeSizeInChars(Pointee).getQuantity();
  bool VectorLike = Pointee->isVectorType() || Pointee->isRecordType();
  if (!VectorLike || ElemBytes == 0 || PointeeBytes % ElemBytes != 0)
    return 1;
  return unsigned(PointeeBytes / ElemBytes);
}

bool ProvenanceInterpreter::isSharedArray(const clang::ValueDecl *D) const {
  return D && D->hasAttr<clang::CUDASharedAttr>();
}

std::string ProvenanceInterpreter::text(const clang::Stmt *S) const {
  const clang::SourceManager &SM = Ctx.getSourceManager();
  clang::CharSourceRange R = clang::CharSourceRange::getTokenRange(S->getSourceRange());
  return clang::Lexer::getSourceText(R, SM, Ctx.getLangOpts()).str();
}

ProvenanceInterpreter::Address ProvenanceInterpreter::addressOf(const clang::Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *DRE = llvm::dyn_cast<clang::DeclRefExpr>(E)) {
    AbstractValue V = evalDeclRef(DRE);
    if (V.kind == AbstractValue::Kind::Pointer)
      return {V.pointer.base, V.pointer.offset};
    if (V.kind == AbstractValue::Kind::Array)
      return {DRE->getDecl(), T.constant(0)};
    return {};
  }
  if (const auto *UO = llvm::dyn_cast<clang::UnaryOperator>(E)) {
    if (UO->getOpcode() != clang::UO_Deref)
      return {};
    AbstractValue P = eval(UO->getSubExpr());
    if (P.kind == AbstractValue::Kind::Pointer)
      return {P.pointer.base, P.pointer.offset, P.pointer.lanes};
    return {};
  }
  const auto *AS = llvm::dyn_cast<clang::ArraySubscriptExpr>(E);
  if (!AS)
    return {};
  const Term *Index = evalInt(AS->getIdx());
  if (!Index)
    return {};
  const clang::Expr *Base = AS->getBase()->IgnoreParenImpCasts();
  // `As[ty][tx]`: the inner subscript selects a row of the row type's size.
  uint64_t Stride = 1;
  if (const auto *CAT = Ctx.getAsConstantArrayType(AS->getType())) {
    Stride = 1;
    const clang::ConstantArrayType *Row = CAT;
    while (Row) {
      Stride *= Row->getSize().getZExtValue();
      Row = Ctx.getAsConstantArrayType(Row->getElementType());
    }
  }
  const Term *Scaled = Stride == 1 ? Index : T.mul(Index, T.constant(int64_t(Stride)));
  if (llvm::isa<clang::ArraySubscriptExpr>(Base) || llvm::isa<clang::DeclRefExpr>(Base)) {
    if (const auto *DRE = llvm::dyn_cast<clang::DeclRefExpr>(Base)) {
      AbstractValue V = evalDeclRef(DRE);
      if (V.kind == AbstractValue::Kind::Pointer)
        return {V.pointer.base, T.add(V.pointer.offset, T.mul(Scaled, T.constant(V.pointer.lanes))),
                V.pointer.lanes};
      if (V.kind == AbstractValue::Kind::Array)
        return {DRE->getDecl(), Scaled};
      return {};
    }
    Address Inner = addressOf(Base);
    if (!Inner.valid())
      return {};
    return {Inner.base, T.add(Inner.offset, Scaled)};
  }
  AbstractValue P = eval(Base);
  if (P.kind == AbstractValue::Kind::Pointer)
    return {P.pointer.base, T.add(P.pointer.offset, T.mul(Scaled, T.constant(P.pointer.lanes))),
            P.pointer.lanes};
  return {};
}

AbstractValue ProvenanceInterpreter::evalSubscriptLoad(const clang::Expr *E) {
  Address A = addressOf(E);
  if (!A.valid()) {
    if (E->getType()->isIntegralOrEnumerationType())
      return AbstractValue::ofInt(T.freshSymbol("load", SymbolKind::Fresh));
    return AbstractValue::ofData(
        DataValue::unknown("load through an address the analysis does not follow"));
  }
  if (A.lanes > 1) {
    // A float4-style load: one value per element, each from its own address.
    AbstractValue Vec;
    Vec.kind = AbstractValue::Kind::Array;
    Vec.array = std::make_shared<PrivateArray>();
    Vec.array->size = A.lanes;
    for (unsigned L = 0; L < A.lanes; ++L) {
      Address Elem{A.base, T.add(A.offset, T.constant(L)), 1};
      Vec.array->constantSlots[L] = loadScalar(Elem, E);
    }
    return Vec;
  }
  return loadScalar(A, E);
}

AbstractValue ProvenanceInterpreter::loadScalar(const Address &A, const clang::Expr *E) {
  if (E->getType()->isArrayType())
    return AbstractValue::ofPointer(A.base, A.offset); // a row of a 2-D array
  if (isSharedArray(A.base)) {
    recordAccess(A.base, A.offset, false, E);
    if (E->getType()->isIntegralOrEnumerationType())
      return AbstractValue::ofInt(T.apply(A.base->getName().str(), {A.offset}));
    return loadShared(A.base, A.offset);
  }
  auto TI = Tensors.find(A.base);
  if (TI != Tensors.end())
    return loadGlobal(TI->second, A.offset, E);
  auto Local = Env.find(A.base);
  if (Local != Env.end() && Local->second.kind == AbstractValue::Kind::Array) {
    AbstractValue V = readPrivateElement(*Local->second.array, A.offset);
    if (V.kind == AbstractValue::Kind::Data && E->getType()->isIntegralOrEnumerationType())
      return AbstractValue::ofInt(T.freshSymbol("elem", SymbolKind::Fresh));
    return V;
  }
  // Untagged memory: an integer read from it (a gather index) is an
  // uninterpreted function of its index; data carries no tag.
  if (E->getType()->isIntegralOrEnumerationType())
    return AbstractValue::ofInt(T.apply(A.base->getName().str(), {A.offset}));
  return AbstractValue::ofData(DataValue::neutral());
}

bool ProvenanceInterpreter::isLinearLayout(const TagLayout &L) {
  // Constant strides: division by them is linear.
  const Term *Address = Matcher.addressOf(L);
  for (const LayoutCoordinate &C : L.coordinates)
    for (const Term *S : collectSymbols(Address))
      if (S != C.symbol && S->symbolKind() != SymbolKind::Coordinate)
        return false;
  return true;
}

LayoutMatchResult ProvenanceInterpreter::matchTagLayout(const TensorInfo &TI, const Term *Index) {
  // Coefficient matching reads `row*K + K - 1 - k` as m = row + 1,
  // k = -1 - k with side conditions that never hold; assuming them would
  // make every obligation on the value vacuous. Its result is used only when
  // the path implies its side conditions; otherwise the mixed-radix
  // division, whose side conditions are exactly "the access is in bounds".
  LayoutMatchResult M = Matcher.match(TI.layout, Index);
  if (M.matched) {
    std::vector<const Term *> Query = Path;
    Query.push_back(T.logicalNot(T.allOf(M.sideConditions)));
    if (ask("layout side conditions", T.allOf(Query)).status == SolverResult::Proven)
      return M;
  }
  LayoutMatchResult D = Matcher.match(TI.layout, Index, LayoutMatchStrategy::Division);
  if (D.matched && (!M.matched || isLinearLayout(TI.layout)))
    return D;
  // Division by a symbolic stride is nonlinear (Z3 times out). The
  // coefficient match stays usable when its side conditions can hold at all:
  // they then restrict the obligations to the in-bounds executions, which is
  // the assumption every global load makes. Side conditions that can never
  // hold would make the obligations vacuous, so that match is refused.
  if (M.matched) {
    std::vector<const Term *> Query = Path;
    Query.push_back(T.allOf(M.sideConditions));
    if (ask("layout side conditions satisfiable", T.allOf(Query)).status == SolverResult::Violated)
      return M;
  }
  return D.matched ? D : M;
}

AbstractValue ProvenanceInterpreter::loadGlobal(const TensorInfo &TI, const Term *Index,
                                                const clang::Expr *Site) {
  LayoutMatchResult M = matchTagLayout(TI, Index);
  if (!M.matched)
    return AbstractValue::ofData(
        DataValue::unknown("layout of " + TI.tensor + " did not match the index: " + M.reason));
  ProvenanceCase C;
  C.validity = T.trueTerm();
  for (auto &[Sym, Value] : M.coordinates)
    C.coords[TI.nameOfSymbol.at(Sym)] = Value;
  // In-bounds access is assumed, not checked: it is what gives `m < M`.
  C.constraints = M.sideConditions;
  C.tensors.insert(TI.tensor);
  if (Site)
    C.origins.push_back({Site->getBeginLoc(), text(Site), {}, nullptr});
  DataValue V;
  V.kind = DataValue::Kind::Tagged;
  V.cases.push_back(std::move(C));
  return AbstractValue::ofData(std::move(V));
}

void ProvenanceInterpreter::recordAccess(const clang::ValueDecl *Array, const Term *Index,
                                         bool IsWrite, const clang::Expr *Site) {
  LdsAccess A;
  A.array = Array;
  A.address = Index;
  A.isWrite = IsWrite;
  clang::QualType Elem = Array->getType();
  while (const auto *AT = Ctx.getAsArrayType(Elem))
    Elem = AT->getElementType();
  if (!Elem->isIncompleteType() && !Elem->isDependentType())
    A.elementBytes = unsigned(Ctx.getTypeSizeInChars(Elem).getQuantity());
  A.guard = Path;
  A.loops = loopContexts();
  A.epoch = Epoch;
  A.seq = ++Seq;
  A.expr = Site;
  if (Site)
    A.range = Site->getSourceRange();
  Accesses.push_back(std::move(A));
}

void ProvenanceInterpreter::storeShared(const clang::ValueDecl *Array, const Term *Index,
                                        const DataValue &V, const clang::Expr *Site) {
  recordAccess(Array, Index, true, Site);
  LdsWrite W;
  W.array = Array;
  W.address = Index;
  W.value = V;
  W.guard = Path;
  W.loops = Loops;
  W.seq = ++Seq;
  W.site = Site->getBeginLoc();
  W.text = text(Site);
  LdsWrites.push_back(std::move(W));
}

bool ProvenanceInterpreter::solveWriterThread(const Term *WriterAddress, const Term *Index,
                                              const Term *Validity,
                                              std::vector<const Term *> &Writer,
                                              std::vector<WriterCounter> &Counters,
                                              std::vector<const Term *> &SideConditions) {
  // The write address as a layout over the writer's thread ids
  // (`ty'*16 + tx'`): matching the read address against it gives the writer
  // as a term of the reader's state (ty' = ty, tx' = k) instead of an
  // existential the solver has to search for.
  TagLayout Layout;
  Layout.address = WriterAddress;
  std::vector<unsigned> Dims;
  for (unsigned D = 0; D < 3; ++D)
    if (occursIn(Writer[D], WriterAddress)) {
      if (!LaunchBlock[D])
        return false;
      Layout.coordinates.push_back({Writer[D], T.constant(*LaunchBlock[D])});
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
  LayoutMatchResult M = Matcher.match(Layout, Index);
  if (!M.matched)
    return false;
  std::vector<const Term *> Query = Path;
  Query.push_back(Validity);
  Query.push_back(T.logicalNot(T.allOf(M.sideConditions)));
  if (ask("writer solved", T.allOf(Query)).status != SolverResult::Proven)
    return false;
  for (unsigned D : Dims)
    Writer[D] = M.coordinates.at(Writer[D]);
  for (size_t I : InAddress)
    Counters[I].symbol = M.coordinates.at(Counters[I].symbol);
  SideConditions = M.sideConditions;
  return true;
}

AbstractValue ProvenanceInterpreter::loadShared(const clang::ValueDecl *Array, const Term *Index) {
  ++Seq;
  // Candidates newest first (ANALYSIS.md section 6): writes of this
  // iteration, then the previous iteration's writes of each enclosing loop
  // (innermost first), then writes from before the loops.
  struct Candidate {
    const LdsWrite *write;
    const LoopFrame *previousOf; // non-null: from the previous iteration of this loop
  };
  std::vector<Candidate> Candidates;
  size_t Depth = Loops.size();
  auto LoopDepthOf = [&](const LdsWrite &W) {
    size_t Common = 0;
    while (Common < W.loops.size() && Common < Loops.size() &&
           W.loops[Common].id == Loops[Common].id)
      ++Common;
    return Common;
  };
  for (size_t Level = Depth + 1; Level-- > 0;) {
    // Recorded writes whose deepest common loop with the read is `Level`.
    for (auto It = LdsWrites.rbegin(); It != LdsWrites.rend(); ++It)
      if (It->array == Array && LoopDepthOf(*It) == Level)
        Candidates.push_back({&*It, nullptr});
    if (Level == 0)
      break;
    auto Prev = PreviousIterationWrites.find(Loops[Level - 1].id);
    bool Known = false;
    if (Prev != PreviousIterationWrites.end())
      for (auto It = Prev->second.rbegin(); It != Prev->second.rend(); ++It)
        if (It->array == Array) {
          Candidates.push_back({&*It, &Loops[Level - 1]});
          Known = true;
        }
    // The first pass over a loop does not know its body's writes yet, but
    // knows that they exist: older writes then hold only in the first
    // iteration, exactly as in the second pass.
    if (!Known && Loops[Level - 1].writesShared.count(Array))
      Candidates.push_back({nullptr, &Loops[Level - 1]});
  }
  if (Candidates.empty())
    return AbstractValue::ofData(DataValue::unknown("shared array read before any write"));

  DataValue Result;
  // Writes that can reach the read so far shadow older ones only in the
  // iterations they cover: `Shadow` is the condition under which a newer
  // candidate applies.
  const Term *Covered = T.falseTerm();
  const Term *CoveredForSolve = T.falseTerm();
  for (const Candidate &Cand : Candidates) {
    const LdsWrite *W = Cand.write;
    if (!W) {
      // Only the writer's solution may assume it: the value keeps applying
      // to every iteration, as the first pass cannot offer another case.
      const LoopFrame &L = *Cand.previousOf;
      CoveredForSolve = T.logicalOr(CoveredForSolve, T.ge(T.sub(L.span.counter, L.step), L.init));
      continue;
    }
    size_t Common = LoopDepthOf(*W);
    TermMap Map;
    std::vector<const Term *> Constraints;
    const Term *Validity = T.trueTerm();
    if (Cand.previousOf) {
      const LoopFrame &L = *Cand.previousOf;
      const Term *Prev = T.sub(L.span.counter, L.step);
      Map[L.span.counter] = Prev;
      Validity = T.ge(Prev, L.init);
    }
    std::vector<const Term *> Writer;
    for (unsigned D = 0; D < 3; ++D) {
      Writer.push_back(T.freshCopy(Tid[D]));
      Map[Tid[D]] = Writer.back();
    }
    std::vector<WriterCounter> Counters;
    for (size_t L = Common; L < W->loops.size(); ++L)
      if (!(Cand.previousOf && W->loops[L].id == Cand.previousOf->id)) {
        const LoopFrame &F = W->loops[L];
        Map[F.span.counter] = T.freshCopy(F.span.counter);
        // A canonical loop's bound `counter < B` is the counter's extent.
        const Term *Extent =
            F.canonical && F.span.facts.size() > 1 && F.span.facts[1]->kind() == TermKind::Lt
                ? F.span.facts[1]->operand(1)
                : nullptr;
        Counters.push_back({F.span.counter, Map[F.span.counter], Extent});
      }
    const Term *WriterAddress = substitute(T, W->address, Map);
    std::vector<const Term *> SideConditions;
    bool Solved = solveWriterThread(
        WriterAddress, Index,
        T.logicalAnd(Validity, T.logicalNot(T.logicalOr(Covered, CoveredForSolve))), Writer,
        Counters, SideConditions);
    if (Solved)
      for (const WriterCounter &C : Counters)
        Map[C.original] = C.symbol;
    for (unsigned D = 0; D < 3; ++D) {
      Map[Tid[D]] = Writer[D];
      if (Writer[D]->isSymbol() && Writer[D]->symbolKind() == SymbolKind::ThreadIdx) {
        Constraints.push_back(T.ge(Writer[D], T.constant(0)));
        Constraints.push_back(T.lt(Writer[D], BDim[D]));
      }
    }
    for (const Term *G : W->guard)
      Constraints.push_back(substitute(T, G, Map));
    if (Solved)
      Constraints.insert(Constraints.end(), SideConditions.begin(), SideConditions.end());
    else
      Constraints.push_back(T.eq(WriterAddress, Index));

    // A write that can never hold this element is not the writer.
    std::vector<const Term *> Query = Path;
    Query.push_back(Validity);
    Query.push_back(T.logicalNot(Covered));
    Query.insert(Query.end(), Constraints.begin(), Constraints.end());
    SolverResult Reach = ask("lds writer reachable", T.allOf(Query));
    if (Reach.status == SolverResult::Proven)
      continue;

    DataValue Copied = substituteData(T, W->value, Map);
    for (Reduction &R : Copied.reductions)
      R.crossedThreads = true;
    if (Copied.kind == DataValue::Kind::Unknown)
      return AbstractValue::ofData(Copied);
    const Term *Applies = T.logicalAnd(Validity, T.logicalNot(Covered));
    if (Copied.kind == DataValue::Kind::Tagged) {
      Result.kind = DataValue::Kind::Tagged;
      for (ProvenanceCase &C : Copied.cases) {
        C.validity = T.logicalAnd(C.validity, Applies);
        C.constraints.insert(C.constraints.end(), Constraints.begin(), Constraints.end());
        C.origins.push_back({W->site, W->text, Writer, Index});
        Result.cases.push_back(std::move(C));
      }
      Result.reduced.insert(Copied.reduced.begin(), Copied.reduced.end());
      Result.reductions.insert(Result.reductions.end(), Copied.reductions.begin(),
                               Copied.reductions.end());
    }
    // A same-iteration write (no validity condition) covers every iteration;
    // a previous-iteration write covers all but the first.
    Covered = T.logicalOr(Covered, Validity);
    if (Validity->isConstant(1))
      break;
  }
  return AbstractValue::ofData(std::move(Result));
}

void ProvenanceInterpreter::storeOutput(const TensorInfo &TI, const Term *Index, const DataValue &V,
                                        const clang::Expr *Site) {
  if (!TI.output || !Opts.implicitInvariants)
    return;
  if (V.kind == DataValue::Kind::Neutral)
    return; // initialisation with a constant
  Obligation Base = makeObligation(ObligationKind::StoreCoordinates, Site);
  Base.failure = "store into " + TI.tensor + " has the wrong coordinates";
  if (V.kind == DataValue::Kind::Unknown) {
    Base.summary = "stored value's provenance";
    Base.unprovenReason = V.reason;
    Obligations.push_back(std::move(Base));
    return;
  }
  LayoutMatchResult M = matchTagLayout(TI, Index);
  if (!M.matched) {
    Base.summary = "destination coordinates of " + TI.tensor;
    Base.unprovenReason = "layout of " + TI.tensor + " did not match the index: " + M.reason;
    Obligations.push_back(std::move(Base));
    return;
  }
  std::map<std::string, const Term *> Dest;
  for (auto &[Sym, Value] : M.coordinates)
    Dest[TI.nameOfSymbol.at(Sym)] = Value;
  for (const ProvenanceCase &C : V.cases) {
    for (const std::string &Name : TI.coordNames) {
      Obligation O = Base;
      O.context.push_back(C.validity);
      O.context.insert(O.context.end(), C.constraints.begin(), C.constraints.end());
      O.context.insert(O.context.end(), M.sideConditions.begin(), M.sideConditions.end());
      O.origins = C.origins;
      auto It = C.coords.find(Name);
      if (It == C.coords.end()) {
        O.summary = "stored value carries coordinate '" + Name + "' of " + TI.tensor;
        O.failure = "store into " + TI.tensor + ": the value does not depend on '" + Name + "'";
        O.violation = T.trueTerm();
      } else {
        O.summary = "stored " + Name + " (" + print(It->second) + ") == destination " + Name +
                    " (" + print(Dest[Name]) + ")";
        O.failure = "tag mismatch: stored value's " + Name + " is " + print(It->second) +
                    ", destination " + TI.tensor + " expects " + print(Dest[Name]);
        O.violation = T.ne(It->second, Dest[Name]);
        O.observe = {{"stored " + Name, It->second}, {"destination " + Name, Dest[Name]}};
      }
      Obligations.push_back(std::move(O));
    }
    // Names the value still carries that the output does not have must have
    // been reduced; a leftover contracted name means a missing reduction.
    for (const auto &[Name, Term] : C.coords) {
      if (std::find(TI.coordNames.begin(), TI.coordNames.end(), Name) != TI.coordNames.end())
        continue;
      Obligation O = Base;
      O.summary = "coordinate '" + Name + "' is reduced before the store";
      O.failure = "store into " + TI.tensor + ": the value still depends on '" + Name +
                  "', which no loop reduced";
      O.context.push_back(C.validity);
      O.context.insert(O.context.end(), C.constraints.begin(), C.constraints.end());
      O.violation = T.trueTerm();
      O.origins = C.origins;
      Obligations.push_back(std::move(O));
    }
  }
  // One coverage question per reduced name (a value combined from several
  // threads carries one record per contribution).
  std::set<std::string> Covered;
  for (const Reduction &R : V.reductions)
    if (Covered.insert(R.name).second)
      emitCoverage(R, Site);
}

} // namespace ave::inv
