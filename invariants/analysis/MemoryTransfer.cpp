// Memory: addresses of subscripts and dereferences; global loads take their
// provenance from the tag layout, stores into tagged outputs are checked,
// private arrays and vectors hold values per element, and shared memory
// goes to the SharedMemoryModel.

#include "ProvenanceInterpreter.h"
#include "ave/invariants/Polynomial.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"

#include <algorithm>

namespace ave::inv {

clang::QualType ProvenanceInterpreter::baseElementType(const clang::ValueDecl *Base) const {
  clang::QualType Elem = Base->getType();
  if (Elem->isPointerType())
    Elem = Elem->getPointeeType();
  while (const auto *AT = Ctx.ast.getAsArrayType(Elem))
    Elem = AT->getElementType();
  return Elem;
}

unsigned ProvenanceInterpreter::vectorLanes(const clang::ValueDecl *Base,
                                            clang::QualType Pointee) const {
  // Elements of the base per pointee, when the pointee is a vector of them.
  clang::QualType Elem = baseElementType(Base);
  if (Elem->isIncompleteType() || Pointee->isIncompleteType() || Elem->isVoidType() ||
      Elem->isDependentType() || Pointee->isDependentType())
    return 1;
  uint64_t ElemBytes = Ctx.ast.getTypeSizeInChars(Elem).getQuantity();
  uint64_t PointeeBytes = Ctx.ast.getTypeSizeInChars(Pointee).getQuantity();
  bool VectorLike = Pointee->isVectorType() || Pointee->isRecordType();
  if (!VectorLike || ElemBytes == 0 || PointeeBytes % ElemBytes != 0)
    return 1;
  return unsigned(PointeeBytes / ElemBytes);
}

ProvenanceInterpreter::Address
ProvenanceInterpreter::subscriptAddress(const clang::ArraySubscriptExpr *AS, FlowState &State) {
  const Term *Index = evalInt(AS->getIdx(), State);
  if (!Index)
    return {};
  const clang::Expr *Base = AS->getBase()->IgnoreParenImpCasts();
  // `As[ty][tx]`: the inner subscript selects a row of the row type's size.
  uint64_t Stride = 1;
  for (const clang::ConstantArrayType *Row = Ctx.ast.getAsConstantArrayType(AS->getType()); Row;
       Row = Ctx.ast.getAsConstantArrayType(Row->getElementType()))
    Stride *= Row->getSize().getZExtValue();
  const Term *Scaled = Stride == 1 ? Index : T.mul(Index, T.constant(int64_t(Stride)));
  if (const auto *DRE = llvm::dyn_cast<clang::DeclRefExpr>(Base)) {
    AbstractValue V = evalDeclRef(DRE, State);
    if (V.kind == AbstractValue::Kind::Pointer)
      return {V.pointer.base, T.add(V.pointer.offset, T.mul(Scaled, T.constant(V.pointer.lanes))),
              V.pointer.lanes};
    if (V.kind == AbstractValue::Kind::Array)
      return {DRE->getDecl(), Scaled};
    return {};
  }
  if (llvm::isa<clang::ArraySubscriptExpr>(Base)) {
    Address Inner = addressOf(Base, State);
    if (!Inner.valid())
      return {};
    Inner.offset = T.add(Inner.offset, Scaled);
    Inner.lanes = 1;
    if (const clang::ConstantArrayType *Row = Ctx.ast.getAsConstantArrayType(Base->getType()))
      Inner.subscripts.push_back({Index, int64_t(Row->getSize().getZExtValue())});
    return Inner;
  }
  if (Address Lane = privateVectorLane(Base, Scaled, State); Lane.valid())
    return Lane;
  AbstractValue P = eval(Base, State);
  if (P.kind == AbstractValue::Kind::Pointer)
    return {P.pointer.base, T.add(P.pointer.offset, T.mul(Scaled, T.constant(P.pointer.lanes))),
            P.pointer.lanes};
  return {};
}

// `reinterpret_cast<const float *>(&v)[i]` of a thread's float4-style `v`
// (a vector load's value): lane i of it, when the pointee is one lane (its
// size times the lanes is v's size). Any other view of a private vector's
// bytes (two lanes at once, another local's) is not followed.
ProvenanceInterpreter::Address ProvenanceInterpreter::privateVectorLane(const clang::Expr *Base,
                                                                        const Term *Index,
                                                                        const FlowState &State) {
  const auto *Cast = llvm::dyn_cast<clang::ExplicitCastExpr>(Base);
  if (!Cast || !Cast->getType()->isPointerType())
    return {};
  const auto *Addr =
      llvm::dyn_cast<clang::UnaryOperator>(Cast->getSubExpr()->IgnoreParenImpCasts());
  if (!Addr || Addr->getOpcode() != clang::UO_AddrOf)
    return {};
  const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(Addr->getSubExpr()->IgnoreParenImpCasts());
  auto Local = Ref ? State.env.find(Ref->getDecl()) : State.env.end();
  if (Local == State.env.end() || Local->second.kind != AbstractValue::Kind::Array ||
      !Local->second.array || !Local->second.array->size)
    return {};
  clang::QualType Lane = Cast->getType()->getPointeeType(), Whole = Ref->getType();
  if (!Lane->isArithmeticType() || Whole->isArrayType() || Whole->isIncompleteType() ||
      Whole->isDependentType() || Lane->isDependentType())
    return {};
  if (Ctx.ast.getTypeSizeInChars(Lane).getQuantity() * int64_t(Local->second.array->size) !=
      Ctx.ast.getTypeSizeInChars(Whole).getQuantity())
    return {};
  return {Ref->getDecl(), Index, 1};
}

ProvenanceInterpreter::Address ProvenanceInterpreter::addressOf(const clang::Expr *E,
                                                                FlowState &State) {
  E = E->IgnoreParenImpCasts();
  if (const auto *DRE = llvm::dyn_cast<clang::DeclRefExpr>(E)) {
    if (Ctx.isSharedScalar(DRE->getDecl()))
      return {DRE->getDecl(), T.constant(0)};
    AbstractValue V = evalDeclRef(DRE, State);
    if (V.kind == AbstractValue::Kind::Pointer)
      return {V.pointer.base, V.pointer.offset};
    if (V.kind == AbstractValue::Kind::Array)
      return {DRE->getDecl(), T.constant(0)};
    return {};
  }
  if (const auto *UO = llvm::dyn_cast<clang::UnaryOperator>(E)) {
    if (UO->getOpcode() != clang::UO_Deref)
      return {};
    AbstractValue P = eval(UO->getSubExpr(), State);
    if (P.kind == AbstractValue::Kind::Pointer)
      return {P.pointer.base, P.pointer.offset, P.pointer.lanes};
    return {};
  }
  if (const auto *AS = llvm::dyn_cast<clang::ArraySubscriptExpr>(E))
    return subscriptAddress(AS, State);
  return {};
}

AbstractValue ProvenanceInterpreter::evalSubscriptLoad(const clang::Expr *E, FlowState &State) {
  Address A = addressOf(E, State);
  if (!A.valid()) {
    if (E->getType()->isIntegralOrEnumerationType())
      return AbstractValue::ofInt(T.approximation("load", SymbolKind::Fresh));
    return AbstractValue::ofData(
        DataValue::unknown("load through an address the analysis does not follow"));
  }
  if (A.lanes == 1)
    return loadScalar(A, E, State);
  // A float4-style load: one value per element, each from its own address.
  requireVectorAligned(A, E->getType(), E, State, "load");
  auto Vec = std::make_shared<PrivateArray>();
  Vec->size = A.lanes;
  for (unsigned L = 0; L < A.lanes; ++L) {
    Address Elem{A.base, T.add(A.offset, T.constant(L)), 1};
    Vec->constantSlots[L] = loadScalar(Elem, E, State);
  }
  rememberVectorSource(*Vec, A);
  return AbstractValue::ofArray(std::move(Vec));
}

// A vector of a tagged input, as loaded: a lane the code computes
// (`reinterpret_cast<const float *>(&v)[q]` in a loop over q) is then read
// as the input's element at offset + q, one value instead of a case per
// lane (loadScalar). The constant slots answer constant lanes (`v.x`).
void ProvenanceInterpreter::rememberVectorSource(PrivateArray &Vec, const Address &A) {
  auto TI = Ctx.tensors.find(A.base);
  if (TI == Ctx.tensors.end() || TI->second.output)
    return;
  Vec.vectorBase = A.base;
  Vec.vectorOffset = A.offset;
  Vec.vectorSelf = &Vec;
}

namespace {

// Memory every thread of the grid shares: a kernel's pointer parameter or a
// `__device__` variable (the global-memory race check logs their accesses).
bool isGlobalBuffer(const clang::ValueDecl *Base) {
  const auto *VD = llvm::dyn_cast_or_null<clang::VarDecl>(Base);
  if (!VD)
    return false;
  if (const auto *P = llvm::dyn_cast<clang::ParmVarDecl>(VD))
    return P->getType()->isPointerType() &&
           llvm::isa_and_nonnull<clang::FunctionDecl>(P->getDeclContext()) &&
           llvm::cast<clang::FunctionDecl>(P->getDeclContext())->hasAttr<clang::CUDAGlobalAttr>();
  return VD->hasGlobalStorage() && VD->hasAttr<clang::CUDADeviceAttr>() &&
         !VD->hasAttr<clang::CUDASharedAttr>();
}

// What `Site` stores, where it can be compared with another thread's store.
WrittenValue writtenValue(const clang::ASTContext &Ast, const AbstractValue &V,
                          const clang::Expr *Site) {
  WrittenValue W;
  if (V.kind == AbstractValue::Kind::Int)
    W.integer = V.term;
  const auto *Assign = llvm::dyn_cast_or_null<clang::BinaryOperator>(Site);
  if (!Assign || Assign->getOpcode() != clang::BO_Assign || Assign->getRHS()->isValueDependent())
    return W;
  clang::Expr::EvalResult R;
  if (!Assign->getRHS()->EvaluateAsRValue(R, Ast))
    return W;
  if (R.Val.isFloat())
    W.constantBits = R.Val.getFloat().bitcastToAPInt().getZExtValue();
  else if (R.Val.isInt())
    W.constantBits = R.Val.getInt().getZExtValue();
  return W;
}

} // namespace

const Term *approximatedSymbol(const Term *V) {
  const Term *Found = nullptr;
  for (const Term *S : collectSymbols(V))
    if (S->symbolKind() == SymbolKind::Fresh || S->symbolKind() == SymbolKind::Other)
      Found = S;
  return Found;
}

AbstractValue ProvenanceInterpreter::loadScalar(const Address &A, const clang::Expr *E,
                                                FlowState &State) {
  if (E->getType()->isArrayType())
    return AbstractValue::ofPointer(A.base, A.offset); // a row of a 2-D array
  if (isGlobalBuffer(A.base))
    Shared.recordGlobalAccess(A.base, A.offset, false, E, State);
  if (Ctx.isSharedArray(A.base)) {
    Shared.recordAccess(A.base, A.offset, false, E, State);
    requireSharedInBounds(A.base, A.offset, E, State, "read", A.subscripts);
    if (E->getType()->isIntegralOrEnumerationType()) {
      Ctx.sharedIndexArrays.insert(A.base->getName().str());
      return AbstractValue::ofInt(Ctx.readIndexArray(A.base, A.offset));
    }
    return Shared.load(A.base, A.offset, E, State);
  }
  auto TI = Ctx.tensors.find(A.base);
  if (TI != Ctx.tensors.end())
    return loadGlobal(TI->second, A.offset, E, State);
  auto Local = State.env.find(A.base);
  if (Local != State.env.end() && Local->second.kind == AbstractValue::Kind::Array) {
    std::string Why;
    if (!privateInBounds(*Local->second.array, A.offset, State)) {
      requirePrivateInBounds(A.base, Local->second.array->size, A.offset, E, State, "read");
      Why = "private array read at an index that may lie outside it (" + print(A.offset) + ")";
    } else {
      Why = otherIterationsElement(*Local->second.array, A.offset);
    }
    if (!Why.empty())
      return E->getType()->isIntegralOrEnumerationType()
                 ? AbstractValue::ofInt(T.freshSymbol("elem", SymbolKind::Fresh))
                 : AbstractValue::ofData(DataValue::unknown(Why));
    const PrivateArray &Arr = *Local->second.array;
    if (Arr.asLoaded() && !A.offset->isConstant()) {
      // In bounds (privateInBounds above): the input's element.
      AbstractValue V = loadGlobal(Ctx.tensors.at(Arr.vectorBase),
                                   T.add(Arr.vectorOffset, A.offset), nullptr, State);
      if (V.kind == AbstractValue::Kind::Data)
        for (ProvenanceCase &C : V.data.cases)
          C.origins.push_back({E->getBeginLoc(), Ctx.text(E), {}, nullptr});
      return V;
    }
    AbstractValue V = readElement(T, Arr, A.offset, Ctx.privateDecider(State));
    if (V.kind == AbstractValue::Kind::Data && E->getType()->isIntegralOrEnumerationType())
      return AbstractValue::ofInt(T.freshSymbol("elem", SymbolKind::Fresh));
    return V;
  }
  // Untagged memory: an integer read from it (a gather index) is an
  // uninterpreted function of its index; data from it is no value the
  // specification describes (`acc * scale[0]`, `acc + bias[n]`: taken as
  // neutral, they were proven whatever they held).
  if (E->getType()->isIntegralOrEnumerationType()) {
    // A `__device__` or `__constant__` table: the host may have set it, so
    // no value of it is known to be one an execution reads.
    const auto *VD = llvm::dyn_cast<clang::VarDecl>(A.base);
    if (VD && VD->hasGlobalStorage()) // never a parameter
      return AbstractValue::ofInt(T.approximation(VD->getName().str(), SymbolKind::Other));
    return AbstractValue::ofInt(Ctx.readIndexArray(A.base, A.offset));
  }
  return AbstractValue::ofData(
      DataValue::unknown("reads " + A.base->getName().str() +
                         ", which has no tag: the specification does not describe its values"));
}

bool ProvenanceInterpreter::isLinearLayout(const TagLayout &L) {
  // Constant strides: division by them is linear.
  const Term *LayoutAddress = Ctx.matcher.addressOf(L);
  for (const LayoutCoordinate &C : L.coordinates)
    for (const Term *S : collectSymbols(LayoutAddress))
      if (S != C.symbol && S->symbolKind() != SymbolKind::Coordinate)
        return false;
  return true;
}

LayoutMatchResult ProvenanceInterpreter::matchTagLayout(const TensorInfo &TI, const Term *Index,
                                                        const FlowState &State) {
  // Coefficient matching reads `row*K + K - 1 - k` as m = row + 1,
  // k = -1 - k with side conditions that never hold; assuming them would
  // make every obligation on the value vacuous. Its result is used only when
  // the path implies its side conditions; then the same with constant
  // multiples of a stride left to the lower coordinates (m = row,
  // k = K - 1 - k); otherwise the mixed-radix division, whose side
  // conditions are exactly "the access is in bounds" (nonlinear for a
  // symbolic stride: a proof can take seconds).
  auto Implied = [&](const LayoutMatchResult &R) {
    if (!R.matched)
      return false;
    std::vector<const Term *> Query = State.path;
    Query.push_back(T.logicalNot(T.allOf(R.sideConditions)));
    return Ctx.ask("layout side conditions", T.allOf(Query)).status == SolverResult::Proven;
  };
  LayoutMatchResult M = Ctx.matcher.match(TI.layout, Index);
  if (Implied(M))
    return M;
  if (M.matched) {
    LayoutMatchResult Low =
        Ctx.matcher.match(TI.layout, Index, LayoutMatchStrategy::CoefficientsLowConstants);
    if (!(Low.coordinates == M.coordinates) && Implied(Low))
      return Low;
  }
  LayoutMatchResult D = Ctx.matcher.match(TI.layout, Index, LayoutMatchStrategy::Division);
  if (D.matched && (!M.matched || isLinearLayout(TI.layout)))
    return D;
  // Division by a symbolic stride is nonlinear (Z3 times out). The
  // coefficient match stays usable when its side conditions can hold at all:
  // they then restrict the obligations to the in-bounds executions, which is
  // the assumption every global load makes. Side conditions that can never
  // hold would make the obligations vacuous, so that match is refused.
  if (M.matched) {
    std::vector<const Term *> Query = State.path;
    Query.push_back(T.allOf(M.sideConditions));
    if (Ctx.ask("layout side conditions satisfiable", T.allOf(Query)).status ==
        SolverResult::Violated) {
      if (D.matched)
        M.exactConditions = D.sideConditions;
      return M;
    }
  }
  return D.matched ? D : M;
}

AbstractValue ProvenanceInterpreter::loadGlobal(const TensorInfo &TI, const Term *Index,
                                                const clang::Expr *Site, const FlowState &State) {
  // The kernel reading its own output (`C[i] += acc`, a split-K partial
  // sum) computes from C's initial contents, which no tag describes.
  if (TI.output && Site)
    return AbstractValue::ofData(DataValue::unknown(
        "reads output " + TI.tensor +
        ", whose initial contents are not part of the specification (an accumulation into the "
        "output, `C[i] += x`)"));
  LayoutMatchResult M = matchTagLayout(TI, Index, State);
  requireInBounds(TI, M, Site, State, "read");
  requireNoOverflow(TI, Index, Site, State, "read");
  if (!M.matched)
    return AbstractValue::ofData(
        DataValue::unknown("layout of " + TI.tensor + " did not match the index: " + M.reason));
  ProvenanceCase C;
  C.validity = T.trueTerm();
  for (auto &[Sym, Value] : M.coordinates)
    C.coords[TI.nameOfSymbol.at(Sym)] = Value;
  // The value's obligations may assume the access in bounds (`m < M`): the
  // in-bounds obligation above checks it.
  C.constraints = M.sideConditions;
  C.tensors.insert(TI.tensor);
  if (Site)
    C.origins.push_back({Site->getBeginLoc(), Ctx.text(Site), {}, nullptr});
  DataValue V;
  V.kind = DataValue::Kind::Tagged;
  V.cases.push_back(std::move(C));
  return AbstractValue::ofData(std::move(V));
}

void ProvenanceInterpreter::requireInBounds(const TensorInfo &TI, const LayoutMatchResult &M,
                                            const clang::Expr *Site, const FlowState &State,
                                            const char *Access) {
  if (!Site || !Ctx.opts.implicitInvariants) // an annotation's read is not an access
    return;
  Obligation O = Ctx.makeObligation(ObligationKind::InBounds, Site, State);
  O.summary = std::string("the ") + Access + " of " + TI.tensor + " lies in its tag's domain";
  O.failure = std::string("out-of-bounds ") + Access + " of " + TI.tensor +
              ": the index lies outside the tag's domain";
  if (!M.matched) {
    O.unprovenReason = "layout of " + TI.tensor + " did not match the index: " + M.reason;
    Ctx.log.addObligation(std::move(O));
    return;
  }
  O.violation = T.logicalNot(T.allOf(M.sideConditions));
  // `A[row*K + (K - 1) * (row % 2)]` read as m = row + row % 2, k = -(row % 2):
  // at an odd row those coordinates are outside, the index is not.
  if (!M.exactConditions.empty())
    O.confirmation = T.logicalNot(T.allOf(M.exactConditions));
  for (auto &[Sym, Value] : M.coordinates)
    O.observe.push_back({TI.nameOfSymbol.at(Sym), Value});
  // An index built from values the analysis approximates (a variable carried
  // around a loop it summarised, a value it did not follow) can take values
  // no execution gives it: a model is then not known to be a real one.
  for (auto &[Sym, Value] : M.coordinates)
    if (const Term *S = approximatedSymbol(Value))
      O.unconfirmedViolation =
          "the index of this " + std::string(Access) + " of " + TI.tensor +
          " is built from a value the analysis approximates (" + S->baseName() +
          "), so the out-of-bounds model found is not known to be a real execution";
  Ctx.log.addObligation(std::move(O));
}

const std::string *ProvenanceInterpreter::maskOnlyCoordinate(const std::string &Name) const {
  for (const auto &[Decl, Info] : Ctx.tensors)
    if (!Info.output &&
        std::find(Info.coordNames.begin(), Info.coordNames.end(), Name) != Info.coordNames.end())
      return nullptr;
  for (const AnalysisContext::ContractionMask &Mask : Ctx.masks)
    if (Mask.names.count(Name))
      return &Mask.text;
  return nullptr;
}

const Term *ProvenanceInterpreter::readAtCoordinate(const ProvenanceCase &C, const Term *At) {
  TermSet Symbols;
  for (const Term *S : collectSymbols(At))
    Symbols.insert(S);
  for (const auto &[Name, Coordinate] : C.coords)
    for (const Term *App : collectApplications(Coordinate))
      for (const Term *S : collectSymbols(App))
        if (Symbols.count(S))
          return App;
  return nullptr;
}

void ProvenanceInterpreter::storeCase(const TensorInfo &TI, const ProvenanceCase &C,
                                      const Obligation &Base,
                                      const std::map<std::string, const Term *> &Dest,
                                      const std::vector<const Term *> &SideConditions) {
  for (const std::string &Name : TI.coordNames) {
    Obligation O = Base;
    O.context.push_back(C.validity);
    O.context.insert(O.context.end(), C.constraints.begin(), C.constraints.end());
    O.context.insert(O.context.end(), SideConditions.begin(), SideConditions.end());
    O.origins = C.origins;
    auto It = C.coords.find(Name);
    if (It == C.coords.end()) {
      O.summary = "stored value carries coordinate '" + Name + "' of " + TI.tensor;
      O.failure = "store into " + TI.tensor + ": the value does not depend on '" + Name + "'";
      O.violation = T.trueTerm();
      // A prefix sum (`mask(j <= i)`, Y(i) of X(j)): no input carries 'i',
      // the mask alone ties the reduction to it, and the masked coverage
      // asks it at the stored element (the correct scan was violated here).
      if (const std::string *Mask = maskOnlyCoordinate(Name))
        O.unprovenReason = "no input carries '" + Name + "'; it reaches " + TI.tensor +
                           " only through " + *Mask +
                           ", whose coverage is checked at the stored element";
      else if (const Term *Read = readAtCoordinate(C, Dest.at(Name)))
        // A gather (`Y[r] = E[ids[r]]`): the value depends on the stored
        // element's coordinate through an index array, which the tags do
        // not describe (the execution would not reproduce a counterexample).
        O.unprovenReason = "no input carries '" + Name +
                           "'; the value depends on it only through a read of memory (" +
                           print(Read) + "), which the tags do not describe";
      else if (std::vector<const Term *> Picked = collectApplications(Dest.at(Name));
               !Picked.empty())
        // A scatter (`Y[perm[r]] = X[r]`): the element stored is chosen by
        // a read of memory, which the tags do not relate to the value.
        O.unprovenReason = "no input carries '" + Name + "'; the stored element's '" + Name +
                           "' is read from memory (" + print(Picked.front()) +
                           "), which the tags do not relate to the value";
    } else {
      const Term *Want = Dest.at(Name);
      O.summary = "stored " + Name + " (" + print(It->second) + ") == destination " + Name + " (" +
                  print(Want) + ")";
      O.failure = "tag mismatch: stored value's " + Name + " is " + print(It->second) +
                  ", destination " + TI.tensor + " expects " + print(Want);
      O.violation = T.ne(It->second, Want);
      O.observe = {{"stored " + Name, It->second}, {"destination " + Name, Want}};
    }
    Ctx.log.addObligation(std::move(O));
  }
}

namespace {

bool reducesName(const DataValue &V, const std::string &Name) {
  return std::any_of(V.reductions.begin(), V.reductions.end(),
                     [&](const Reduction &R) { return R.name == Name; });
}

} // namespace

void ProvenanceInterpreter::requireReducedNames(const TensorInfo &TI, const DataValue &V,
                                                const Obligation &Base,
                                                const std::map<std::string, const Term *> &Dest) {
  // Names the value still carries that the output does not have must have
  // been reduced; a leftover contracted name means a missing reduction,
  // unless the terms written out cover its domain.
  const bool DestSelects = std::any_of(Dest.begin(), Dest.end(), [](const auto &D) {
    return !collectApplications(D.second).empty();
  });
  std::set<std::string> SumsChecked;
  for (const ProvenanceCase &C : V.cases)
    for (const auto &[Name, Coordinate] : C.coords) {
      if (std::find(TI.coordNames.begin(), TI.coordNames.end(), Name) != TI.coordNames.end())
        continue;
      Obligation O = Base;
      O.origins = C.origins;
      if (!collectApplications(Coordinate).empty() || DestSelects) {
        O.context.push_back(C.validity);
        O.context.insert(O.context.end(), C.constraints.begin(), C.constraints.end());
        requireSameSelection(TI, Name, Coordinate, Dest, std::move(O));
      } else if (V.severalContributions && V.cases.size() > 1 && !reducesName(V, Name)) {
        if (SumsChecked.insert(Name).second)
          requireSumCovers(TI, V, Name, std::move(O));
      } else {
        O.context.push_back(C.validity);
        O.context.insert(O.context.end(), C.constraints.begin(), C.constraints.end());
        requireReducedTerm(TI, V, C, Name, Coordinate, std::move(O));
      }
    }
}

ProvenanceInterpreter::UnjoinedTerms
ProvenanceInterpreter::unjoinedTerms(const DataValue &V, const std::string &Name) const {
  UnjoinedTerms Out;
  // A reduction over Name whose loop the analysis does not follow: not
  // modelled, or over a loop the walk widened (a tree whose stride halves,
  // `s >>= 1`, beside its initial partial sum `x[t] + x[t + 128]`, which it
  // never joined).
  if (std::any_of(V.reductions.begin(), V.reductions.end(), [&](const Reduction &R) {
        return R.name == Name &&
               (!R.notModelled.empty() ||
                std::any_of(R.loops.begin(), R.loops.end(),
                            [](const ReductionLoop &L) { return L.start == nullptr; }));
      }))
    Out.beside = "a term with a single '" + Name + "' is added to a reduction over '" + Name +
                 "' that it was not joined to (the reduction's loop is not one the analysis "
                 "follows), so whether every '" +
                 Name + "' is summed once is not checked";
  else if (summedAcrossThreads(V, Name))
    Out.acrossThreads = "the terms of '" + Name +
                        "' are summed across threads through shared memory from per-thread "
                        "values the analysis did not take as one reduction (a thread's value of "
                        "several terms, `x[t] + x[t + 128]`), so whether every '" +
                        Name + "' is summed once is not checked";
  return Out;
}

void ProvenanceInterpreter::requireReducedTerm(const TensorInfo &TI, const DataValue &V,
                                               const ProvenanceCase &C, const std::string &Name,
                                               const Term *Coordinate, Obligation O) {
  // One term at k is the einsum's sum over k exactly where the domain
  // [0, Bound) has no other index (`S[m] = A[m]` under K == 1 is right);
  // `x + x` keeps x's one term, twice an element, wrong at any bound. A
  // term beside a reduction over k that did not join it (peeled after a
  // loop the analysis widened) is not followed.
  O.summary = "coordinate '" + Name + "' is reduced before the store";
  O.failure = "store into " + TI.tensor + ": the value still depends on '" + Name +
              "', which no loop reduced";
  O.violation = T.trueTerm();
  const UnjoinedTerms Unjoined = unjoinedTerms(V, Name);
  if (!Unjoined.beside.empty())
    O.unconfirmedViolation = Unjoined.beside;
  const Term *Bound = Ctx.contractedBound(Name);
  if (Bound && !V.severalContributions) {
    const Term *Other = T.freshSymbol(Name, SymbolKind::Fresh);
    O.violation = T.logicalAnd(T.logicalAnd(T.ge(Other, T.constant(0)), T.lt(Other, Bound)),
                               T.ne(Other, Coordinate));
    O.observe = {{"another " + Name, Other}};
  }
  // A coordinate carried by a value the analysis approximates (the counter
  // of a loop it widened, directly or through the facts that tie it down:
  // an LDS writer solved through one) may have been reduced by that loop:
  // no model shows a real execution then. So may a term beside such a
  // coordinate (`acc = X[0]` before a widened `for (k = K - 1; k >= 1;
  // --k) acc += X[k]`, correct, was violated): the loop that would have
  // reduced the terms together is the widened one.
  const ProvenanceCase *Other = nullptr;
  const Term *Approximated = approximatedCoordinate(C, Coordinate);
  for (const ProvenanceCase &D : V.cases)
    if (auto It = D.coords.find(Name); !Approximated && It != D.coords.end())
      if ((Approximated = approximatedCoordinate(D, It->second)))
        Other = &D;
  if (Approximated && O.unconfirmedViolation.empty())
    O.unconfirmedViolation = "'" + Name + "'" + (Other ? " of another term" : "") +
                             " comes from a value the analysis approximates (" +
                             Approximated->baseName() +
                             "): the loop that would reduce it is not one the analysis models";
  if (O.unconfirmedViolation.empty())
    O.unconfirmedViolation = Unjoined.acrossThreads;
  Ctx.log.addObligation(std::move(O));
}

bool ProvenanceInterpreter::summedAcrossThreads(const DataValue &V, const std::string &Name) const {
  // Several terms of Name, one of them read through shared memory from
  // another thread, and no reduction over it: an LDS tree whose threads
  // each start from a sum of terms, which was not recognised as one.
  if (reducesName(V, Name))
    return false;
  auto FromOtherThread = [&](const ProvenanceCase &C) {
    return std::any_of(C.origins.begin(), C.origins.end(), [&](const ValueOrigin &O) {
      for (size_t D = 0; D < O.writerThread.size() && D < 3; ++D)
        if (O.writerThread[D] != Ctx.symbols.tid[D])
          return true;
      return false;
    });
  };
  size_t Carrying = 0;
  bool Crossed = false;
  for (const ProvenanceCase &C : V.cases)
    if (C.coords.count(Name)) {
      ++Carrying;
      Crossed |= FromOtherThread(C);
    }
  return Carrying > 1 && Crossed;
}

const Term *ProvenanceInterpreter::approximatedCoordinate(const ProvenanceCase &C,
                                                          const Term *Coordinate) const {
  const Term *Approximated = approximatedSymbol(Coordinate);
  const std::vector<const Term *> Symbols = collectSymbols(Coordinate);
  for (const Term *Fact : C.constraints)
    if (!Approximated && std::any_of(Symbols.begin(), Symbols.end(),
                                     [&](const Term *X) { return occursIn(X, Fact); }))
      Approximated = approximatedSymbol(Fact);
  return Approximated;
}

void ProvenanceInterpreter::requireSumCovers(const TensorInfo &TI, const DataValue &V,
                                             const std::string &Name, Obligation Base) {
  // Terms written out (`A[m*4] + ... + A[m*4 + 3]` under K == 4) are the
  // sum over k where every index of [0, Bound) is one holding term's and no
  // two holding terms share one. "No term holds it" negates each term's
  // conditions, which must then not bind symbols of their own (a writer
  // thread, a counter of the term's loop): negated, those would read as
  // "for some value of them".
  Base.summary = "the terms written out over '" + Name + "' hold each index of its domain once";
  const Term *Bound = Ctx.contractedBound(Name);
  TermSet Known;
  for (const Term *F : Base.context)
    for (const Term *S : collectSymbols(F))
      Known.insert(S);
  for (const Term *F : Ctx.kernelFacts)
    for (const Term *S : collectSymbols(F))
      Known.insert(S);
  std::vector<std::pair<const Term *, const Term *>> Terms; // (holds, index)
  for (const ProvenanceCase &C : V.cases) {
    auto It = C.coords.find(Name);
    const Term *Holds = T.logicalAnd(C.validity, T.allOf(C.constraints));
    std::string Own;
    for (const Term *S : collectSymbols(It == C.coords.end() ? Holds : T.eq(Holds, It->second)))
      if (Own.empty() && !Known.count(S) &&
          !(isLaunchOrParameter(S->symbolKind()) && !S->copiedFrom()))
        Own = S->baseName();
    if (It == C.coords.end() || !Bound || !Own.empty()) {
      Base.unprovenReason =
          "the value is a sum of terms written out over '" + Name + "', " +
          (It == C.coords.end() ? std::string("one of which does not carry it")
           : !Bound             ? "whose domain no input tag gives"
                                : "one of which holds under conditions of its own (" + Own + ")") +
          "; which indices the terms cover is not checked";
      Ctx.log.addObligation(std::move(Base));
      return;
    }
    Terms.push_back({Holds, It->second});
  }
  // An index or condition built from a value the analysis approximates
  // may take values no execution gives it.
  for (const auto &[Holds, Index] : Terms)
    if (const Term *S = approximatedSymbol(T.eq(Holds, Index));
        S && Base.unconfirmedViolation.empty())
      Base.unconfirmedViolation = "a term of the sum over '" + Name +
                                  "' is built from a value the analysis approximates (" +
                                  S->baseName() + "), so the model found is not known to be real";
  Obligation Missing = Base;
  const Term *Other = T.freshSymbol(Name, SymbolKind::Fresh);
  Missing.violation = T.logicalAnd(T.ge(Other, T.constant(0)), T.lt(Other, Bound));
  for (const auto &[Holds, Index] : Terms)
    Missing.violation =
        T.logicalAnd(Missing.violation, T.logicalNot(T.logicalAnd(Holds, T.eq(Index, Other))));
  Missing.failure = "store into " + TI.tensor + ": no term of the sum written out over '" + Name +
                    "' holds one of its indices";
  Missing.observe = {{"missed " + Name, Other}};
  Ctx.log.addObligation(std::move(Missing));
  Obligation Twice = std::move(Base);
  Twice.violation = T.falseTerm();
  for (size_t I = 0; I < Terms.size(); ++I)
    for (size_t J = I + 1; J < Terms.size(); ++J)
      Twice.violation =
          T.logicalOr(Twice.violation, T.logicalAnd(T.logicalAnd(Terms[I].first, Terms[J].first),
                                                    T.eq(Terms[I].second, Terms[J].second)));
  Twice.failure = "store into " + TI.tensor + ": two terms of the sum written out over '" + Name +
                  "' hold the same index";
  Ctx.log.addObligation(std::move(Twice));
}

namespace {

// An anchor whose symbols strictly include X's (`blockIdx.y` against the row
// `blockIdx.y*16 + threadIdx.y`): X then names a group of rows.
const Term *coarserThan(const Term *X, const std::vector<const Term *> &Anchors) {
  std::vector<const Term *> Mine = collectSymbols(X);
  for (const Term *A : Anchors) {
    std::vector<const Term *> Theirs = collectSymbols(A);
    bool Within = std::all_of(Mine.begin(), Mine.end(), [&](const Term *S) {
      return std::find(Theirs.begin(), Theirs.end(), S) != Theirs.end();
    });
    if (Within && Mine.size() < Theirs.size())
      return A;
  }
  return nullptr;
}

} // namespace

const AnalysisContext::IndexArrayFacts *
ProvenanceInterpreter::blockwiseFacts(const Term *Read) const {
  const clang::ValueDecl *Array = Ctx.indexArrayOf(Read);
  const AnalysisContext::IndexArrayFacts *F = Array ? &Ctx.indexArrays.at(Array) : nullptr;
  return F && F->group ? F : nullptr;
}

void ProvenanceInterpreter::requireSameSelection(const TensorInfo &TI, const std::string &Name,
                                                 const Term *Coordinate,
                                                 const std::map<std::string, const Term *> &Dest,
                                                 Obligation O) {
  // A coordinate the output does not have is not free when the routing of
  // the row stored selects it: the expert `x = ex[r]`, the token `t =
  // sid[r] / TOPK` of a per-slot output, or the routed row r itself (a
  // routing weight P[r]) when the store scatters through `Y[tok[r]]`. The
  // rows that select are the indices of the destination's routing reads
  // (or, with none, the destination's coordinates): every routing read in
  // the coordinate must be made at one of them, or the coordinate must be
  // one. `ex[r + 1]` for the row of `tok[r]` selects another row's expert.
  // Which function of the row's routing is meant (ex[r], not ex[r] + 1) is
  // for an assertion to say.
  std::vector<const Term *> Anchors;
  for (const auto &[Unused, D] : Dest)
    for (const Term *A : collectApplications(D))
      Anchors.insert(Anchors.end(), A->operands().begin(), A->operands().end());
  if (Anchors.empty())
    for (const auto &[Unused, D] : Dest)
      Anchors.push_back(D);
  // A read of a `blockwise` array is at the row when both are in one of its
  // groups: the fact makes every read of a group equal.
  auto NotAnAnchor = [&](const Term *X, const AnalysisContext::IndexArrayFacts *F) {
    const Term *Matched = T.falseTerm();
    for (const Term *A : Anchors)
      Matched = T.logicalOr(Matched, F ? T.logicalAnd(T.logicalAnd(Ctx.inDomain(X, F->groupCount),
                                                                   Ctx.inDomain(A, F->groupCount)),
                                                      T.eq(T.div(X, F->group), T.div(A, F->group)))
                                       : T.eq(X, A));
    return T.logicalNot(Matched);
  };
  O.summary = "coordinate '" + Name + "' (" + print(Coordinate) +
              ") is selected by the routing of the row stored into " + TI.tensor;
  O.observe = {{"selected " + Name, Coordinate}};
  const Term *Mismatch = T.falseTerm();
  std::vector<const Term *> Reads = collectApplications(Coordinate);
  for (const Term *Read : Reads)
    for (const Term *Arg : Read->operands()) {
      const AnalysisContext::IndexArrayFacts *Group = blockwiseFacts(Read);
      Mismatch = T.logicalOr(Mismatch, NotAnAnchor(Arg, Group));
      O.observe.push_back({"selected at", Arg});
      if (const Term *Row = Group ? nullptr : coarserThan(Arg, Anchors))
        O.unconfirmedViolation =
            "'" + Name + "' is selected by " + print(Read) + ", at an index coarser than the row " +
            print(Row) +
            " stored (a group of rows: an expert per block); that the group's choice is each "
            "row's own is routing data the analysis does not see";
    }
  if (Reads.empty())
    Mismatch = NotAnAnchor(Coordinate, nullptr);
  for (const Term *A : Anchors)
    O.observe.push_back({"stored row", A});
  O.failure = "store into " + TI.tensor + ": the value's '" + Name + "' is " + print(Coordinate) +
              ", which the routing of the row stored does not select" +
              (Reads.empty() ? " (and no loop reduced it)" : "");
  O.violation = Mismatch;
  // A function of the routing read (`(ids[r] + 1) % V`, `min(ids[r], V -
  // 1)`, `sid[r] / TOPK`) is read at the right row and still may not be the
  // routing meant: the read itself is (the coordinate equal to one of its
  // reads: a clamp that never applies), or what an assertion states.
  if (!Reads.empty() && Coordinate->kind() != TermKind::Apply &&
      !Ctx.assertedCoordinates.count(Coordinate)) {
    Obligation Function = O;
    Function.summary = "coordinate '" + Name + "' (" + print(Coordinate) +
                       ") is the routing's selection for the row stored into " + TI.tensor;
    Function.violation = T.trueTerm();
    for (const Term *Read : Reads)
      Function.violation = T.logicalAnd(Function.violation, T.ne(Coordinate, Read));
    Function.unconfirmedViolation =
        "'" + Name + "' is " + print(Coordinate) +
        ", a function of a routing read that may differ from the read; which function the "
        "routing means is for an assertion to say (`#pragma ave assert tag(v)." +
        Name + " == ...`)";
    Ctx.log.addObligation(std::move(Function));
  }
  Ctx.log.addObligation(std::move(O));
}

bool ProvenanceInterpreter::mayLackCase(const DataValue &V) const {
  // whereNoCase's test without building a term: no case valid everywhere,
  // and the validities over symbols the execution fixes.
  for (const ProvenanceCase &C : V.cases)
    if (C.validity->isConstant(1))
      return false;
  for (const ProvenanceCase &C : V.cases)
    for (const Term *S : collectSymbols(C.validity))
      if (!fixedHere(S))
        return false;
  return !V.cases.empty();
}

bool ProvenanceInterpreter::fixedHere(const Term *S) const {
  bool Enclosing = std::any_of(Ctx.loops.begin(), Ctx.loops.end(),
                               [S](const LoopFrame &F) { return F.span.counter == S; });
  bool Fixed = !S->isFresh() && S->symbolKind() != SymbolKind::Fresh &&
               S->symbolKind() != SymbolKind::Other && S->symbolKind() != SymbolKind::LoopCounter;
  return Enclosing || Fixed;
}

const Term *ProvenanceInterpreter::whereNoCase(const DataValue &V) {
  // Only where the validities are over what the current execution fixes
  // (ids, parameters, the counters of the loops around it): a symbol of a
  // finished loop or a writer copy is existential, and its negation would
  // ask for every value of it.
  const Term *Any = T.falseTerm();
  for (const ProvenanceCase &C : V.cases)
    Any = T.logicalOr(Any, C.validity);
  if (Any->isConstant(1))
    return nullptr;
  const Term *None = T.logicalNot(Any);
  for (const Term *S : collectSymbols(Any))
    if (!fixedHere(S))
      return nullptr;
  return None;
}

void ProvenanceInterpreter::requireSomeCase(const TensorInfo &TI, const DataValue &V,
                                            const Obligation &Base) {
  // Each case's obligations hold where the case is valid; where none is (a
  // private slot its loop skipped: `acc[0]` never accumulated), the value
  // stored is the neutral one the cases were joined with, and nothing
  // would check it.
  const Term *None = whereNoCase(V);
  if (!None)
    return;
  Obligation O = Base;
  O.summary = "the value stored into " + TI.tensor + " is a computed one wherever the store runs";
  O.failure = "store into " + TI.tensor +
              ": at this point the stored value is not computed from the tagged inputs (a "
              "private array slot its loop skipped, or a value kept from before a loop)";
  O.violation = None;
  Ctx.log.addObligation(std::move(O));
}

bool ProvenanceInterpreter::requireStoredValue(const TensorInfo &TI, const DataValue &V,
                                               const LayoutMatchResult &M, const Obligation &Base,
                                               bool AcrossThreads) {
  if (!M.matched) {
    Obligation O = Base;
    O.summary = "destination coordinates of " + TI.tensor;
    O.unprovenReason = "layout of " + TI.tensor + " did not match the index: " + M.reason;
    Ctx.log.addObligation(std::move(O));
    return false;
  }
  std::map<std::string, const Term *> Dest;
  for (auto &[Sym, Value] : M.coordinates)
    Dest[TI.nameOfSymbol.at(Sym)] = Value;
  for (const ProvenanceCase &C : V.cases)
    storeCase(TI, C, Base, Dest, M.sideConditions);
  if (!AcrossThreads)
    requireReducedNames(TI, V, Base, Dest);
  requireSomeCase(TI, V, Base);
  requireParameters(TI, V, Base);
  requireInputs(TI, V, Base);
  return true;
}

namespace {

// Why V's reductions of Name need not be all its contributions of Name: a
// case still carries Name through a value the analysis approximates (the
// counter of a loop whose variables are widened, `for (k = 0; k + 3 < K;
// k += 4)`, whose terms are no piece of the reduction); "" when none does.
std::string approximatedContribution(const DataValue &V, const std::string &Name) {
  for (const ProvenanceCase &C : V.cases) {
    auto It = C.coords.find(Name);
    if (It == C.coords.end())
      continue;
    if (const Term *S = firstApproximation(It->second))
      return "some terms of '" + Name + "' come from a value the analysis approximates (" +
             S->baseName() + ": a loop it does not follow), and are not counted";
  }
  return "";
}

// Why the records of First's name and path in V are not all the same
// contribution taken again (an LDS tree's neighbours' partials, the dot
// product inside each score of a softmax), or "":
// a sum combined across lanes and a loop that adds to it afterwards are two
// records, of which the coverage asked the first alone (a slice added twice
// was proven, a tail added after the shuffles violated).
std::string separateRecords(const DataValue &V, const Reduction &First) {
  for (const Reduction &R : V.reductions)
    if (R.name == First.name && R.applies == First.applies &&
        (R.crossedThreads != First.crossedThreads || R.crossedVia != First.crossedVia))
      return "the value holds separate reductions of '" + First.name +
             "' (a sum combined across threads or lanes and another added to it); counting each "
             "index once over them together is not modelled";
  return "";
}

} // namespace

void ProvenanceInterpreter::storeOutput(const TensorInfo &TI, const Term *Index, const DataValue &V,
                                        const clang::Expr *Site, const FlowState &State) {
  if (!TI.output || !Ctx.opts.implicitInvariants)
    return;
  Ctx.storedOutputs.insert(TI.tag->decl);
  // Every store writes its element, whatever the value: output-written
  // counts them all.
  LayoutMatchResult M = matchTagLayout(TI, Index, State);
  Outputs.record(TI, Index, M, Site, State, V.kind == DataValue::Kind::Neutral);
  if (V.kind == DataValue::Kind::Neutral) {
    // Initialisation with a constant: nothing to match, but it must hit C.
    requireInBounds(TI, M, Site, State, "store");
    requireNoOverflow(TI, Index, Site, State, "store");
    return;
  }
  Ctx.outputsGivenValues.insert(TI.tag->decl);
  Obligation Base = Ctx.makeObligation(ObligationKind::StoreCoordinates, Site, State);
  Base.failure = "store into " + TI.tensor + " has the wrong coordinates";
  if (V.kind == DataValue::Kind::Unknown) {
    Base.summary = "stored value's provenance";
    Base.unprovenReason = V.reason;
    Ctx.log.addObligation(std::move(Base));
    return;
  }
  if (V.accumulates())
    // `C[i] = acc` in the loop that accumulates acc: every iteration stores
    // its partial value and the last one stays (right when the loop runs to
    // its end). The analysis sees one iteration's: a name still unreduced
    // there is no counterexample.
    Base.unconfirmedViolation =
        "the value stored is the running value of the loop around the store; only the last "
        "iteration's store stays, which the analysis does not model";
  if (V.accumulates()) {
    // ... and a proof from one iteration's contribution leaves out what
    // the earlier iterations added, which the last store holds too (`for
    // (rep...) { for (c...) acc += x; Y[r] = acc; }` stores twice the sum).
    Obligation Running = Base;
    Running.summary = "the stored running value holds only this iteration's terms";
    Running.unprovenReason = "the value stored is the running value of the loop around the "
                             "store: what its earlier iterations added is not followed";
    Ctx.log.addObligation(std::move(Running));
  }
  if (std::string Factor = storedArithmeticProblem(V); !Factor.empty()) {
    // The coordinates are still checked: a wrong index stays violated.
    Obligation Scaled = Base;
    Scaled.summary = "stored value's arithmetic";
    Scaled.unprovenReason = std::move(Factor);
    Ctx.log.addObligation(std::move(Scaled));
  }
  requireInBounds(TI, M, Site, State, "store");
  requireNoOverflow(TI, Index, Site, State, "store");
  if (!requireStoredValue(TI, V, M, Base, /*AcrossThreads=*/false))
    return;
  // One coverage question per reduced name and path: the sides of an
  // if/else that reduce differently are each checked under their condition
  // (the first of them alone was, and a wrong side proved); a value combined
  // from several threads carries one record per contribution, of which the
  // first is asked.
  std::set<std::pair<std::string, const Term *>> Covered;
  std::map<std::string, const Term *> Dest;
  for (const auto &[Sym, Value] : M.coordinates)
    Dest[TI.nameOfSymbol.at(Sym)] = Value;
  for (const Reduction &R : V.reductions) {
    if (!Covered.insert({R.name, R.applies}).second)
      continue;
    Reduction First = R;
    if (std::string Why = separateRecords(V, R); !Why.empty() && First.notModelled.empty())
      First.notModelled = std::move(Why);
    std::string Uncounted = approximatedContribution(V, R.name);
    // A running value stored in its loop holds what the earlier iterations
    // added too: the indices this iteration's loops miss may be theirs (a
    // GEMV storing its running sum after each tile was violated).
    if (Uncounted.empty() && V.accumulates())
      Uncounted = "the value stored is the running value of the loop around the store, which "
                  "holds indices its earlier iterations added";
    Coverage.emit(First, Dest, Site, State, Uncounted);
  }
}

int ProvenanceInterpreter::vectorFieldIndex(const clang::MemberExpr *ME,
                                            const clang::Expr *&Root) const {
  // `v.x` on a HIP vector type is `.x` of an anonymous struct in an
  // anonymous union of the base class: strip those to reach `v`.
  int Index = componentIndex(ME->getMemberDecl()->getName());
  if (Index < 0)
    return -1;
  const clang::Expr *Base = ME->getBase()->IgnoreParenImpCasts();
  while (const auto *Inner = llvm::dyn_cast<clang::MemberExpr>(Base)) {
    const auto *FD = llvm::dyn_cast<clang::FieldDecl>(Inner->getMemberDecl());
    if (!FD || !FD->isAnonymousStructOrUnion())
      return -1;
    Base = Inner->getBase()->IgnoreParenImpCasts();
  }
  Root = Base;
  return Index;
}

bool ProvenanceInterpreter::privateInBounds(const PrivateArray &Arr, const Term *Index,
                                            const FlowState &State) {
  // Outside the array a read or write touches other memory (undefined
  // behaviour): the slots, and the loop summaries' element conditions,
  // assume every access lies inside.
  if (!Arr.size) // a HIP vector's fields (`v.x`): constant positions
    return Index->isConstant() && Index->value() >= 0 && Index->value() < 16;
  const Term *Outside =
      T.logicalOr(T.lt(Index, T.constant(0)), T.ge(Index, T.constant(int64_t(Arr.size))));
  if (Outside->isConstant())
    return Outside->value() == 0;
  std::vector<const Term *> Query = State.path;
  Query.push_back(Outside);
  return Ctx.ask("private access in bounds", T.allOf(Query)).status == SolverResult::Proven;
}

void ProvenanceInterpreter::storePrivate(const clang::ValueDecl *Decl, AbstractValue &Array,
                                         const Term *Offset, const AbstractValue &V,
                                         const clang::Expr *Site, const FlowState &State) {
  // Copy on write: saved environments (branches, loop passes) share it. The
  // contents before the write stay one storage: a slot laid over them keeps
  // it (LoopSummary::foldInnerSlot compares it with the loop entry's).
  std::shared_ptr<PrivateArray> Before = Array.array;
  Array.array = std::make_shared<PrivateArray>(*Array.array);
  PrivateArray &Arr = *Array.array;
  if (!privateInBounds(Arr, Offset, State)) {
    requirePrivateInBounds(Decl, Arr.size, Offset, Site, State, "write");
    unsigned Size = Arr.size;
    Arr = PrivateArray();
    Arr.size = Size;
    Arr.slotCounter = T.freshSymbol("elem", SymbolKind::Fresh);
    Arr.slotValue = AbstractValue::ofData(DataValue::unknown(
        "private array written at an index that may lie outside it (" + print(Offset) + ")"));
    return;
  }
  const Term *Base = slotBaseOf(Offset);
  if (Offset->isConstant()) {
    Arr.constantSlots[Offset->value()] = V;
  } else if (Base) {
    // At the innermost loop's counter plus a base the loop does not change
    // (`a[e]`, `acc[i][j]` in the loop over j): over what it held before
    // (LoopSummary gives the slot its domain when the loop ends), unless it
    // is the same slot written again.
    const Term *Counter = Ctx.loops.back().span.counter;
    if (Base->isConstant(0))
      Base = nullptr;
    if (Arr.slotCounter != Counter || Arr.slotBase != Base || Arr.slotStride ||
        !Arr.constantSlots.empty() || Arr.joinCond) {
      unsigned Size = Arr.size;
      Arr = PrivateArray();
      Arr.size = Size;
      Arr.below = std::move(Before);
    }
    Arr.slotCounter = Counter;
    Arr.slotBase = Base;
    Arr.slotValue = V;
    Arr.slotDomain = nullptr;
  } else if (!Ctx.loops.empty() && fixedInInnermostLoop(Offset)) {
    // One element the innermost loop does not move (`acc[i] += x` in the
    // loop over k): a slot at that element alone, whose counter is 0.
    if (!Arr.point || Arr.slotBase != Offset || !Arr.constantSlots.empty() || Arr.joinCond) {
      unsigned Size = Arr.size;
      Arr = PrivateArray();
      Arr.size = Size;
      Arr.below = std::move(Before);
      Arr.slotCounter = T.freshSymbol("elem", SymbolKind::Other);
      Arr.slotBase = Offset;
      Arr.slotDomain = T.eq(Arr.slotCounter, T.constant(0));
      Arr.point = true;
    }
    Arr.slotValue = V;
  } else {
    unsigned Size = Arr.size;
    Arr = PrivateArray();
    Arr.size = Size;
    Arr.slotCounter = T.freshSymbol("elem", SymbolKind::Fresh);
    Arr.slotValue = AbstractValue::ofData(
        DataValue::unknown("private array written at an index the analysis does not model"));
  }
}

std::string ProvenanceInterpreter::otherIterationsElement(const PrivateArray &Arr,
                                                          const Term *Offset) const {
  // A slot the running loop writes at its counter (`acc[i][j]` in the loop
  // over j) holds, while the loop runs, this iteration's element only: its
  // value is written in terms of the counter, so reading another element
  // through it (`acc[i + 1][j]`, `a[e - 1]`) would take that element's
  // value from an iteration that has not run, or has run with other facts.
  if (!Arr.slotCounter || Arr.slotDomain || Arr.point || Arr.slotStride || Arr.joinCond ||
      std::none_of(Ctx.loops.begin(), Ctx.loops.end(),
                   [&](const LoopFrame &F) { return F.span.counter == Arr.slotCounter; }))
    return "";
  const Term *Rel = Arr.slotBase ? normalize(T, T.sub(Offset, Arr.slotBase)) : Offset;
  if (normalize(T, T.sub(Rel, Arr.slotCounter))->isConstant(0))
    return "";
  return "a private array element written in the loop over '" + Arr.slotCounter->baseName() +
         "', read at another element than this iteration's (" + print(Offset) +
         "): which iteration wrote it is not followed";
}

bool ProvenanceInterpreter::fixedInInnermostLoop(const Term *Index) const {
  // Index names only what no iteration of the innermost loop changes: the
  // launch's indices, parameters and the enclosing loops' counters (a
  // widened integer is one symbol for the value in every iteration).
  for (const Term *S : collectSymbols(Index)) {
    bool Enclosing = std::any_of(Ctx.loops.begin(), Ctx.loops.end() - 1,
                                 [S](const LoopFrame &F) { return F.span.counter == S; });
    if (!isLaunchOrParameter(S->symbolKind()) && !Enclosing)
      return false;
  }
  return true;
}

const Term *ProvenanceInterpreter::slotBaseOf(const Term *Offset) {
  // Offset = Base + counter of the innermost loop, Base free of it: the
  // difference is normalised, so `4*i + j - j` is `4*i`.
  if (Ctx.loops.empty() || Offset->isConstant())
    return nullptr;
  const Term *Base = normalize(T, T.sub(Offset, Ctx.loops.back().span.counter));
  return fixedInInnermostLoop(Base) ? Base : nullptr;
}

void ProvenanceInterpreter::takeTreeFillPieces(const clang::ValueDecl *Array,
                                               const clang::Expr *Site, DataValue &V) {
  // `part[tid] = X[r * C + tid];` before `for (s = 128; s > 0; s /= 2) ...`:
  // each thread's partial is one element, whose c the tree sums over the
  // threads, as it sums a register loop's partial sums. Only where the
  // tree is followed and nothing reads a filled slot before it combines
  // them: a read of one filled slot is one element, not the block's sum.
  if (V.kind != DataValue::Kind::Tagged || !Site)
    return;
  // A tree of that form that is not followed (a guard on blockIdx, the
  // result read at `part[tid]` under `tid == 0`) is taken as every thread
  // once, an assumption: its coverage is unproven, where the unreduced c
  // was violated with a counterexample execution did not show.
  const TreeCombination &Tree = Ctx.treeOver(Array);
  if ((!Tree.unmodelled.empty() && !Tree.treeMatched) ||
      std::find(Tree.fills.begin(), Tree.fills.end(), Site) == Tree.fills.end())
    return;
  // `tid < 200 ? partial : 0.0f`: the tree takes every thread's fill as a
  // whole partial; one that adds nothing on some threads is not modelled
  // (taken whole, the threads it leaves out were counted as covered).
  bool Conditional = std::any_of(V.cases.begin(), V.cases.end(), [](const ProvenanceCase &C) {
    return !C.validity->isConstant(1);
  });
  // The value must be one element: a running value (`v += x` in a loop
  // whose x does not move with it) holds the element several times.
  if (!Conditional && (V.cases.size() != 1 || V.accumulatedBy || V.accumulates() ||
                       V.severalContributions || !V.reductions.empty() || Tree.filledSlotsRead))
    return;
  if (!V.reductions.empty() || V.cases.size() != 1 || Tree.filledSlotsRead) {
    markConditionalFill(V, Site);
    return;
  }
  std::vector<Reduction> Names;
  for (const auto &[Name, Coord] : V.cases.front().coords) {
    bool PerThread = std::any_of(std::begin(Ctx.symbols.tid), std::end(Ctx.symbols.tid),
                                 [&](const Term *Id) { return Id && occursIn(Id, Coord); });
    // A coordinate built from a value the analysis approximates (a widened
    // loop's) is not known to be one element per thread.
    if (!PerThread || !Ctx.contracted.count(Name) || approximatedSymbol(Coord))
      continue;
    Reduction R;
    R.name = Name;
    R.site = Site->getBeginLoc();
    Names.push_back(std::move(R));
  }
  takePointPieces(V, Names, Ctx.symbols.tid, [](const Reduction &) { return true; });
  if (Conditional)
    markConditionalFill(V, Site);
}

void ProvenanceInterpreter::markConditionalFill(DataValue &V, const clang::Expr *Site) {
  std::string Why =
      "the LDS tree's fill at line " +
      std::to_string(Ctx.ast.getSourceManager().getPresumedLineNumber(Site->getBeginLoc())) +
      " holds a thread's partial only under a condition (`c ? x : 0.0f`); a "
      "thread that adds nothing to the tree is not modelled";
  for (Reduction &R : V.reductions)
    forEachPiece(R, [&](Reduction &Piece) {
      if (Piece.notModelled.empty())
        Piece.notModelled = Why;
    });
  // Alternative elements (`c ? x : 1.0f * x`) are no one-point piece: the
  // tree's sum of them is not followed (their c was left unreduced, and a
  // correct kernel violated).
  if (V.reductions.empty() && V.cases.size() > 1)
    V = DataValue::unknown(Why);
}

void ProvenanceInterpreter::storeScalar(const Address &A, const AbstractValue &V,
                                        const clang::Expr *Site, FlowState &State,
                                        bool Accumulates) {
  if (Ctx.isSharedArray(A.base)) {
    requireSharedInBounds(A.base, A.offset, Site, State, "write", A.subscripts);
    DataValue Stored =
        V.kind == AbstractValue::Kind::Data ? V.data : DataValue::unknown("non-data value");
    takeTreeFillPieces(A.base, Site, Stored);
    Shared.store(A.base, A.offset, Stored, Site, State, writtenValue(Ctx.ast, V, Site));
    return;
  }
  if (Site && isGlobalBuffer(A.base))
    Shared.recordGlobalAccess(A.base, A.offset, true, Site, State, writtenValue(Ctx.ast, V, Site));
  auto TI = Ctx.tensors.find(A.base);
  if (TI != Ctx.tensors.end()) {
    if (Accumulates && V.kind == AbstractValue::Kind::Data)
      accumulateOutput(TI->second, A.offset, V.data, Site, State);
    else if (V.kind == AbstractValue::Kind::Data)
      storeOutput(TI->second, A.offset, V.data, Site, State);
    else if (TI->second.output && Ctx.opts.implicitInvariants) // writes the element all the same
      Outputs.record(TI->second, A.offset, matchTagLayout(TI->second, A.offset, State), Site, State,
                     /*Constant=*/true);
    return;
  }
  auto Local = State.env.find(A.base);
  if (Local != State.env.end() && Local->second.kind == AbstractValue::Kind::Array)
    storePrivate(A.base, Local->second, A.offset, V, Site, State);
}

void ProvenanceInterpreter::assignMember(const clang::MemberExpr *ME, AbstractValue V,
                                         const clang::Expr *Site, FlowState &State) {
  const clang::Expr *Root = nullptr;
  int Field = vectorFieldIndex(ME, Root);
  const auto *DRE = Root ? llvm::dyn_cast<clang::DeclRefExpr>(Root) : nullptr;
  if (Field < 0 || !DRE)
    return;
  auto It = State.env.find(DRE->getDecl());
  if (It == State.env.end() || It->second.kind != AbstractValue::Kind::Array)
    State.env.insert_or_assign(DRE->getDecl(),
                               AbstractValue::ofArray(std::make_shared<PrivateArray>()));
  storeScalar({DRE->getDecl(), T.constant(Field), 1}, V, Site, State);
}

void ProvenanceInterpreter::assign(const clang::Expr *LHS, AbstractValue V, const clang::Expr *Site,
                                   FlowState &State) {
  LHS = LHS->IgnoreParenImpCasts();
  if (const auto *DRE = llvm::dyn_cast<clang::DeclRefExpr>(LHS)) {
    if (Ctx.isSharedScalar(DRE->getDecl()))
      return storeScalar({DRE->getDecl(), T.constant(0), 1}, V, Site, State);
    if (const auto *VD = llvm::dyn_cast<clang::VarDecl>(DRE->getDecl())) {
      if (auto Ref = References.find(VD); Ref != References.end())
        return storeScalar(Ref->second, V, Site, State);
      if (UnfollowedReferences.count(VD))
        return unfollowedStore(LHS, Site, State);
    }
    State.env[DRE->getDecl()] = std::move(V);
    return;
  }
  if (const auto *ME = llvm::dyn_cast<clang::MemberExpr>(LHS))
    return assignMember(ME, std::move(V), Site, State);
  Address A = addressOf(LHS, State);
  if (!A.valid()) {
    // An address not followed: a call's result (a reference returned), or
    // a value other than an integer through a pointer; an integer local's
    // other names are escaped locals, whose reads are not followed anyway.
    if (llvm::isa<clang::CallExpr>(LHS) || !LHS->getType()->isIntegralOrEnumerationType())
      unfollowedStore(LHS, Site, State);
    return;
  }
  if (A.lanes == 1)
    return storeScalar(A, V, Site, State);
  requireVectorAligned(A, LHS->getType(), Site, State, "store");
  for (unsigned L = 0; L < A.lanes; ++L) {
    AbstractValue Elem =
        V.kind == AbstractValue::Kind::Array
            ? readElement(T, *V.array, T.constant(L), Ctx.privateDecider(State))
            : AbstractValue::ofData(DataValue::unknown("vector store of a non-vector"));
    storeScalar({A.base, T.add(A.offset, T.constant(L)), 1}, Elem, Site, State);
  }
}

void ProvenanceInterpreter::unfollowedStore(const clang::Expr *LHS, const clang::Expr *Site,
                                            FlowState &State) {
  const clang::Expr *At = Site ? Site : LHS;
  const std::string Text = Ctx.text(At);
  Obligation O = Ctx.makeObligation(ObligationKind::StoreCoordinates, At, State);
  O.summary = "a store the analysis follows";
  O.failure = "a store writes memory the analysis does not follow";
  O.unprovenReason = "the store `" + Text +
                     "` goes through an address the analysis does not "
                     "follow (a reference returned by a call or an operator[], a conditional "
                     "lvalue): what it writes where is not checked";
  Ctx.log.addObligation(std::move(O));
  Ctx.log.addUnfollowedSync("the store `" + Text + "` at " +
                            lineOf(Ctx.ast.getSourceManager(), At->getBeginLoc()) +
                            " goes through an address the analysis does not follow and may "
                            "write shared memory");
}

} // namespace ave::inv
