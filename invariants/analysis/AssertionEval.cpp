// `#pragma ave assert P`: evaluates P at its program point. Every `tag(e)`
// in P reads e in the current abstract state; one obligation is made per
// combination of the cases those values have.

#include "ProvenanceInterpreter.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

namespace ave::inv {

namespace {

struct TagOperand {
  const ann::Expr *node;
  DataValue value;
};

// `As[ty][k]` of a __shared__ array: a value whose cases come from the
// writes the analysis found. (A private array's slots are followed where
// the kernel writes them; a guard in the assertion may make the rest moot.)
bool readsSharedElement(const ann::Expr &E) {
  const ann::Expr *Base = &E;
  while (Base->kind == ann::ExprKind::Subscript)
    Base = &Base->operands[0];
  return Base != &E && Base->resolution.kind == ann::NameKind::SharedArray;
}

} // namespace

void ProvenanceInterpreter::checkAssertion(const ann::BoundPragma &P, FlowState &State) {
  Obligation Base;
  Base.kind = ObligationKind::Assertion;
  Base.range = clang::SourceRange(P.location, P.location);
  Base.summary = P.text;
  Base.failure = "assertion failed: " + ann::printExpr(P.pragma.predicate);
  Base.context = State.path;

  // Evaluate every tag(e) operand once.
  std::vector<TagOperand> Operands;
  std::string Problem;
  ann::forEachNode(P.pragma.predicate, [&](const ann::Expr &E) {
    if (E.kind != ann::ExprKind::Call || E.resolution.kind != ann::NameKind::TagOf ||
        E.operands.size() != 1)
      return;
    AbstractValue V = evalAnnotationValue(E.operands[0], State);
    if (V.kind != AbstractValue::Kind::Data) {
      Problem = "'" + ann::printExpr(E.operands[0]) + "' is not a data value";
      return;
    }
    if (V.data.kind == DataValue::Kind::Unknown)
      Problem =
          "the provenance of '" + ann::printExpr(E.operands[0]) + "' is unknown: " + V.data.reason;
    else if (V.data.kind == DataValue::Kind::Neutral)
      Problem = "'" + ann::printExpr(E.operands[0]) + "' carries no tag";
    Operands.push_back({&E, std::move(V.data)});
  });
  if (!Problem.empty()) {
    Base.unprovenReason = Problem;
    Ctx.log.addObligation(std::move(Base));
    return;
  }
  // The cases hold where they are valid; an execution that reaches here
  // with none valid (a shared element whose write was not found: staged in
  // an earlier iteration under a guard) reads a value the assertion is not
  // asked about. Asked after the interpretation (checkCaseGaps), so that
  // the terms it builds come after every other question's.
  for (const TagOperand &Op : Operands)
    if (readsSharedElement(Op.node->operands[0]) && mayLackCase(Op.value))
      CaseGaps.push_back({Op.value, State.path, Base, ann::printExpr(Op.node->operands[0])});
  // Walk the cartesian product of the operands' cases.
  std::vector<size_t> Pick(Operands.size(), 0);
  while (true) {
    std::map<const ann::Expr *, const ProvenanceCase *> Chosen;
    Obligation O = Base;
    for (size_t I = 0; I < Operands.size(); ++I) {
      const ProvenanceCase &C = Operands[I].value.cases[Pick[I]];
      Chosen[Operands[I].node] = &C;
      O.context.push_back(C.validity);
      O.context.insert(O.context.end(), C.constraints.begin(), C.constraints.end());
      O.origins.insert(O.origins.end(), C.origins.begin(), C.origins.end());
    }
    std::string Why;
    const Term *Holds = assertionTerm(P.pragma.predicate, Chosen, O, Why, State);
    if (!Holds) {
      O.unprovenReason = Why;
    } else {
      O.violation = T.logicalNot(Holds);
    }
    Ctx.log.addObligation(std::move(O));
    size_t I = 0;
    while (I < Pick.size() && ++Pick[I] == Operands[I].value.cases.size())
      Pick[I++] = 0;
    if (I == Pick.size())
      break;
  }
}

// The coordinates a tag-valued sub-expression denotes: `tag(e)` (a chosen
// case) or a literal `A(x, y)`.
bool ProvenanceInterpreter::tagCoordinates(
    const ann::Expr &E, const std::map<const ann::Expr *, const ProvenanceCase *> &Chosen,
    std::map<std::string, const Term *> &Out, std::string &Why, const FlowState &State) {
  if (E.kind != ann::ExprKind::Call)
    return false;
  if (E.resolution.kind == ann::NameKind::TagOf) {
    auto It = Chosen.find(&E);
    if (It == Chosen.end())
      return false;
    Out = It->second->coords;
    return true;
  }
  if (E.resolution.kind == ann::NameKind::TagLiteral) {
    const ann::BoundTag *Tag = Ctx.annotations.findTag(E.name);
    if (!Tag || Tag->spec.coordinates.size() != E.operands.size()) {
      Why = "tag literal '" + E.name + "' does not match its declaration";
      return false;
    }
    for (size_t I = 0; I < E.operands.size(); ++I) {
      const Term *V = termForAnnotationInt(E.operands[I], nullptr, State);
      if (!V) {
        Why = "cannot evaluate '" + ann::printExpr(E.operands[I]) + "'";
        return false;
      }
      Out[Tag->spec.coordinates[I].name] = V;
    }
    return true;
  }
  return false;
}

const Term *ProvenanceInterpreter::tagEquality(
    const ann::Expr &E, const std::map<const ann::Expr *, const ProvenanceCase *> &Chosen,
    Obligation &O, std::string &Why, const FlowState &State, bool &Handled) {
  // `tag(e) == A(x, y)`, `tag(e) != tag(f)`: every coordinate the literal
  // (or either side) names.
  Handled = false;
  std::map<std::string, const Term *> L, R;
  std::string LW, RW;
  bool LT = tagCoordinates(E.operands[0], Chosen, L, LW, State);
  bool RT = tagCoordinates(E.operands[1], Chosen, R, RW, State);
  if (!LW.empty() || !RW.empty()) {
    Handled = true;
    Why = !LW.empty() ? LW : RW;
    return nullptr;
  }
  if (!LT || !RT)
    return nullptr;
  Handled = true;
  const std::map<std::string, const Term *> &Names =
      E.operands[1].resolution.kind == ann::NameKind::TagLiteral ? R : L;
  const Term *All = T.trueTerm();
  for (const auto &[Name, Unused] : Names) {
    auto A = L.find(Name), B = R.find(Name);
    if (A == L.end() || B == R.end()) {
      All = T.falseTerm();
      O.observe.push_back({"missing coordinate " + Name, T.constant(0)});
      continue;
    }
    All = T.logicalAnd(All, T.eq(A->second, B->second));
    if (E.binaryOp == ann::BinaryOp::Eq)
      Ctx.assertedCoordinates.insert({A->second, B->second});
    O.observe.push_back({"tag(...)." + Name, A->second});
    O.observe.push_back({"expected " + Name, B->second});
  }
  return E.binaryOp == ann::BinaryOp::Eq ? All : T.logicalNot(All);
}

const Term *ProvenanceInterpreter::assertionTerm(
    const ann::Expr &E, const std::map<const ann::Expr *, const ProvenanceCase *> &Chosen,
    Obligation &O, std::string &Why, const FlowState &State) {
  if (E.kind == ann::ExprKind::Binary &&
      (E.binaryOp == ann::BinaryOp::Eq || E.binaryOp == ann::BinaryOp::Ne)) {
    bool Handled = false;
    const Term *Equal = tagEquality(E, Chosen, O, Why, State, Handled);
    if (Handled)
      return Equal;
  }
  if (E.kind == ann::ExprKind::Member && E.operands.size() == 1 &&
      E.operands[0].kind == ann::ExprKind::Call) {
    std::map<std::string, const Term *> Coords;
    if (!tagCoordinates(E.operands[0], Chosen, Coords, Why, State))
      return Why.empty() ? (Why = "cannot evaluate '" + ann::printExpr(E) + "'", nullptr) : nullptr;
    auto It = Coords.find(E.name);
    if (It == Coords.end()) {
      Why = "'" + ann::printExpr(E.operands[0]) + "' has no coordinate '" + E.name + "'";
      return nullptr;
    }
    O.observe.push_back({ann::printExpr(E), It->second});
    return It->second;
  }
  if (E.kind == ann::ExprKind::Unary) {
    const Term *A = assertionTerm(E.operands[0], Chosen, O, Why, State);
    return A ? applyUnary(T, E.unaryOp, A) : nullptr;
  }
  if (E.kind == ann::ExprKind::Binary) {
    const Term *A = assertionTerm(E.operands[0], Chosen, O, Why, State);
    const Term *B = A ? assertionTerm(E.operands[1], Chosen, O, Why, State) : nullptr;
    // `tag(w).x == ex[r]` states the routing function of w's x.
    if (A && B && E.binaryOp == ann::BinaryOp::Eq)
      for (auto [Side, Value] : {std::pair{&E.operands[0], A}, std::pair{&E.operands[1], B}})
        if (Side->kind == ann::ExprKind::Member)
          Ctx.assertedCoordinates.insert(Value);
    return A && B ? applyBinary(T, E.binaryOp, A, B) : nullptr;
  }
  if (E.kind == ann::ExprKind::Call) {
    Why = "'" + ann::printExpr(E) + "' is a tag, compare it with == or != against a tag";
    return nullptr;
  }
  const Term *V = termForAnnotationInt(E, nullptr, State);
  if (!V)
    Why = "cannot evaluate '" + ann::printExpr(E) + "' here";
  return V;
}

// A C expression inside tag(...): a variable, or an element of a tagged
// pointer, shared array or private array.
bool ProvenanceInterpreter::annotationElement(const ann::Expr &E, const clang::ValueDecl *&Target,
                                              const Term *&Offset, FlowState &State) {
  // Collect the subscript chain: base[i0][i1]...
  std::vector<const ann::Expr *> Indices;
  const ann::Expr *Base = &E;
  while (Base->kind == ann::ExprKind::Subscript) {
    Indices.insert(Indices.begin(), &Base->operands[1]);
    Base = &Base->operands[0];
  }
  AbstractValue B = evalAnnotationValue(*Base, State);
  const clang::ValueDecl *D = Base->resolution.decl;
  if (!D || (B.kind != AbstractValue::Kind::Pointer && B.kind != AbstractValue::Kind::Array))
    return false;
  // Row-major strides from the declared extents.
  std::vector<uint64_t> Extents;
  clang::QualType QT = D->getType();
  while (const auto *CAT = Ctx.ast.getAsConstantArrayType(QT)) {
    Extents.push_back(CAT->getSize().getZExtValue());
    QT = CAT->getElementType();
  }
  Offset = B.kind == AbstractValue::Kind::Pointer ? B.pointer.offset : T.constant(0);
  for (size_t I = 0; I < Indices.size(); ++I) {
    const Term *Idx = termForAnnotationInt(*Indices[I], nullptr, State);
    if (!Idx)
      return false;
    uint64_t Stride = 1;
    for (size_t J = I + 1; J < Extents.size(); ++J)
      Stride *= Extents[J];
    Offset = T.add(Offset, T.mul(Idx, T.constant(int64_t(Stride))));
  }
  Target = B.kind == AbstractValue::Kind::Pointer ? B.pointer.base : D;
  return true;
}

bool ProvenanceInterpreter::assumeTag(const ann::Expr &E, const ann::BoundPragma &P,
                                      FlowState &State) {
  // `tag(x) == A(r, k)`, either way round.
  if (E.kind != ann::ExprKind::Binary || E.binaryOp != ann::BinaryOp::Eq)
    return false;
  const ann::Expr *Of = &E.operands[0], *Literal = &E.operands[1];
  if (Of->resolution.kind != ann::NameKind::TagOf)
    std::swap(Of, Literal);
  if (Of->kind != ann::ExprKind::Call || Of->resolution.kind != ann::NameKind::TagOf ||
      Of->operands.size() != 1 || Literal->kind != ann::ExprKind::Call ||
      Literal->resolution.kind != ann::NameKind::TagLiteral)
    return false;
  ProvenanceCase C;
  C.validity = T.trueTerm();
  std::string Why;
  if (!tagCoordinates(*Literal, {}, C.coords, Why, State))
    return false;
  checkFollowedAssumption(E, *Of, P, State);
  C.tensors.insert(Literal->name);
  C.origins.push_back({P.location, "#pragma ave " + P.text, {}, nullptr});
  DataValue V;
  V.kind = DataValue::Kind::Tagged;
  V.cases.push_back(std::move(C));
  // The value now holds it: a local variable, or an element of a private
  // array or vector.
  const ann::Expr &X = Of->operands[0];
  if (X.kind == ann::ExprKind::Identifier) {
    const auto *VD = llvm::dyn_cast_or_null<clang::VarDecl>(X.resolution.decl);
    if (!VD || !VD->hasLocalStorage() || VD->getType()->isArrayType() ||
        VD->getType()->isPointerType())
      return false;
    State.env[VD] = AbstractValue::ofData(std::move(V));
    return true;
  }
  const clang::ValueDecl *Target = nullptr;
  const Term *Offset = nullptr;
  if (X.kind == ann::ExprKind::Member && X.operands.size() == 1 &&
      X.operands[0].kind == ann::ExprKind::Identifier && componentIndex(X.name) >= 0) {
    Target = X.operands[0].resolution.decl;
    Offset = T.constant(componentIndex(X.name));
  } else if (X.kind != ann::ExprKind::Subscript || !annotationElement(X, Target, Offset, State)) {
    return false;
  }
  auto Local = State.env.find(Target);
  if (!Target || Local == State.env.end() || Local->second.kind != AbstractValue::Kind::Array)
    return false; // shared memory and tensors get their tags from their writes
  storeScalar({Target, Offset, 1}, AbstractValue::ofData(std::move(V)), nullptr, State);
  return true;
}

void ProvenanceInterpreter::checkFollowedAssumption(const ann::Expr &E, const ann::Expr &Of,
                                                    const ann::BoundPragma &P, FlowState &State) {
  // `assume tag(x) == A(...)` is for values the analysis cannot see (inline
  // asm, an opaque call). A value it follows keeps its own provenance as
  // well: the assumption is asserted on it, so that an assumed tag that
  // disagrees is violated. Taken on trust, `v = A[m*K + min(k + 1, K - 1)]`
  // assumed to be A(m, k) was proven (found by an adversarial run).
  AbstractValue Now = evalAnnotationValue(Of.operands[0], State);
  if (Now.kind != AbstractValue::Kind::Data || Now.data.kind != DataValue::Kind::Tagged)
    return;
  ann::BoundPragma Asserted = P;
  Asserted.pragma.kind = ann::PragmaKind::Assert;
  Asserted.pragma.predicate = E;
  Asserted.text = "assume " + ann::printExpr(E) + " (the analysis follows the value: asserted)";
  checkAssertion(Asserted, State);
}

AbstractValue ProvenanceInterpreter::evalAnnotationValue(const ann::Expr &E, FlowState &State) {
  if (E.kind == ann::ExprKind::Identifier) {
    const clang::ValueDecl *D = E.resolution.decl;
    if (!D)
      return AbstractValue::none();
    auto It = State.env.find(D);
    if (It != State.env.end())
      return It->second;
    if (Ctx.isSharedArray(D) || D->getType()->isPointerType() || D->getType()->isArrayType())
      return AbstractValue::ofPointer(D, T.constant(0));
    if (const Term *V = termForAnnotationInt(E, nullptr, State))
      return AbstractValue::ofInt(V);
    return AbstractValue::none();
  }
  if (E.kind == ann::ExprKind::Member && E.operands.size() == 1) {
    // `v.w` of a float4-style vector.
    int Field = componentIndex(E.name);
    AbstractValue Base = evalAnnotationValue(E.operands[0], State);
    if (Field >= 0 && Base.kind == AbstractValue::Kind::Array)
      return readElement(T, *Base.array, T.constant(Field), Ctx.privateDecider(State));
    return AbstractValue::none();
  }
  if (E.kind != ann::ExprKind::Subscript)
    return AbstractValue::none();
  const clang::ValueDecl *Target = nullptr;
  const Term *Offset = nullptr;
  if (!annotationElement(E, Target, Offset, State))
    return AbstractValue::none();
  if (Ctx.isSharedArray(Target))
    return Shared.load(Target, Offset, nullptr, State);
  auto TI = Ctx.tensors.find(Target);
  if (TI != Ctx.tensors.end())
    return loadGlobal(TI->second, Offset, nullptr, State);
  auto Local = State.env.find(Target);
  if (Local != State.env.end() && Local->second.kind == AbstractValue::Kind::Array)
    return readElement(T, *Local->second.array, Offset, Ctx.privateDecider(State));
  return AbstractValue::none();
}

void ProvenanceInterpreter::checkCaseGaps() {
  for (CaseGap &Gap : CaseGaps) {
    // (mayLackCase read the validities' symbols inside the loops they name.)
    const Term *Any = T.falseTerm();
    for (const ProvenanceCase &C : Gap.value.cases)
      Any = T.logicalOr(Any, C.validity);
    std::vector<const Term *> Query = Gap.path;
    Query.push_back(T.logicalNot(Any));
    if (Ctx.ask("an assertion operand without a case", T.allOf(Query)).status ==
        SolverResult::Proven)
      continue;
    Obligation O = std::move(Gap.assertion);
    O.unprovenReason = "on some executions that reach here, no write the analysis found gives '" +
                       Gap.operand +
                       "' its value (an element written in an earlier iteration, or under a "
                       "guard that does not hold here): what it holds there is not followed";
    Ctx.log.addObligation(std::move(O));
  }
  CaseGaps.clear();
}

} // namespace ave::inv
