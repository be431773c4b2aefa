// Statements: declarations, pragmas, and loops, each interpreted once over a
// bounded symbolic counter. The walk itself follows the CFG
// (ControlFlowWalk.cpp).

#include "ControlFlow.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace ave::inv {

namespace {

// Local variables a statement assigns (=, op=, ++, --): the loop-carried set.
class AssignedVars : public clang::RecursiveASTVisitor<AssignedVars> {
public:
  std::set<const clang::VarDecl *> vars;
  // The loop's own counter: `a[e] = ...` in the loop over e writes a new
  // element each iteration rather than carrying `a` from one to the next.
  const clang::VarDecl *ownCounter = nullptr;

  static bool mentions(const clang::Stmt *S, const clang::VarDecl *Var) {
    if (!S || !Var)
      return false;
    if (const auto *DRE = llvm::dyn_cast<clang::DeclRefExpr>(S); DRE && DRE->getDecl() == Var)
      return true;
    for (const clang::Stmt *Child : S->children())
      if (mentions(Child, Var))
        return true;
    return false;
  }
  void note(const clang::Expr *E) {
    E = E->IgnoreParenImpCasts();
    // An element of a private array (`acc[i][j] += ...`): the array.
    bool Element = false;
    while (const auto *AS = llvm::dyn_cast<clang::ArraySubscriptExpr>(E)) {
      if (mentions(AS->getIdx(), ownCounter))
        return;
      E = AS->getBase()->IgnoreParenImpCasts();
      Element = true;
    }
    if (const auto *DRE = llvm::dyn_cast<clang::DeclRefExpr>(E))
      if (const auto *VD = llvm::dyn_cast<clang::VarDecl>(DRE->getDecl()))
        if (VD->hasLocalStorage() && (!Element || VD->getType()->isConstantArrayType()))
          vars.insert(VD);
  }
  bool VisitBinaryOperator(clang::BinaryOperator *BO) {
    if (BO->isAssignmentOp())
      note(BO->getLHS());
    return true;
  }
  bool VisitUnaryOperator(clang::UnaryOperator *UO) {
    if (UO->isIncrementDecrementOp())
      note(UO->getSubExpr());
    return true;
  }
  // Matrix-core helpers that accumulate into their first argument.
  bool VisitCallExpr(clang::CallExpr *Call) {
    const clang::FunctionDecl *FD = Call->getDirectCallee();
    if (FD && FD->getIdentifier() && Call->getNumArgs() > 0)
      if (const MatrixLaneModel *M = findMatrixLaneModel(FD->getName());
          M && M->family == MatrixCoreFamily::NvidiaMmaM16N8K16)
        note(Call->getArg(0));
    return true;
  }
};

// Which shared arrays a loop body reads before it writes them, walking in
// evaluation order (right side of an assignment first).
class SharedReadBeforeWrite {
public:
  std::set<const clang::ValueDecl *> written, readFirst;

  static const clang::ValueDecl *sharedBase(const clang::Expr *E) {
    E = E->IgnoreParenImpCasts();
    while (const auto *AS = llvm::dyn_cast<clang::ArraySubscriptExpr>(E))
      E = AS->getBase()->IgnoreParenImpCasts();
    if (const auto *DRE = llvm::dyn_cast<clang::DeclRefExpr>(E))
      if (DRE->getDecl()->hasAttr<clang::CUDASharedAttr>())
        return DRE->getDecl();
    return nullptr;
  }
  void read(const clang::ValueDecl *D) {
    if (D && !written.count(D))
      readFirst.insert(D);
  }
  void walkIndices(const clang::Expr *E) {
    E = E->IgnoreParenImpCasts();
    while (const auto *AS = llvm::dyn_cast<clang::ArraySubscriptExpr>(E)) {
      walk(AS->getIdx());
      E = AS->getBase()->IgnoreParenImpCasts();
    }
  }
  void walk(const clang::Stmt *S) {
    if (!S)
      return;
    if (const auto *BO = llvm::dyn_cast<clang::BinaryOperator>(S); BO && BO->isAssignmentOp()) {
      walk(BO->getRHS());
      const clang::ValueDecl *Base = sharedBase(BO->getLHS());
      if (!Base) {
        walk(BO->getLHS());
        return;
      }
      walkIndices(BO->getLHS());
      if (BO->isCompoundAssignmentOp())
        read(Base);
      written.insert(Base);
      return;
    }
    if (const auto *AS = llvm::dyn_cast<clang::ArraySubscriptExpr>(S)) {
      if (const clang::ValueDecl *Base = sharedBase(AS)) {
        walkIndices(AS);
        read(Base);
        return;
      }
    }
    for (const clang::Stmt *Child : S->children())
      walk(Child);
  }
};

// True when the body reads a shared array before writing it *and* writes it
// later: only then can a read see the previous iteration's write. Written
// receives every shared array the body writes.
bool readsSharedBeforeWriting(const clang::Stmt *Body,
                              std::set<const clang::ValueDecl *> &Written) {
  SharedReadBeforeWrite V;
  V.walk(Body);
  Written = V.written;
  for (const clang::ValueDecl *D : V.readFirst)
    if (V.written.count(D))
      return true;
  return false;
}

} // namespace

void ProvenanceInterpreter::run() {
  setUpSymbols();
  for (const ann::BoundPragma &P : Ann.pragmas) {
    if (P.kernelLevel)
      continue;
    if (P.statement)
      PragmasBefore.insert({P.statement, &P});
    else if (P.block)
      PragmasAtEnd.insert({P.block, &P});
  }
  // A template pattern has dependent types and values that have no size or
  // value yet; its instantiations are what runs, and `check` analyses those.
  if (Ann.kernel->isDependentContext()) {
    if (!Ann.tags.empty() || !Ann.pragmas.empty()) {
      Obligation O;
      O.range = clang::SourceRange(Ann.kernel->getLocation(), Ann.kernel->getLocation());
      O.summary = "invariants of template kernel '" + Ann.kernel->getNameAsString() + "'";
      O.unprovenReason = "it is never instantiated in this file, so there are no sizes or types "
                         "to check it with";
      Obligations.push_back(std::move(O));
    }
    return;
  }
  applyKernelLevelPragmas();
  setUpTensors();
  const clang::Stmt *Body = Ann.kernel->getBody();
  if (!Body || !buildControlFlow(Body))
    return;
  walkRegion(nullptr, FlowState{Env, Path});
  for (const auto &[Target, P] : PragmasBefore)
    if (!Flow->entered.count(Target))
      Notes.push_back({P->location, "'#pragma ave " + P->text +
                                        "' is on no path through the kernel; it was not checked"});
}

void ProvenanceInterpreter::applyPragma(const ann::BoundPragma &P) {
  switch (P.pragma.kind) {
  case ann::PragmaKind::Assert:
    checkAssertion(P);
    return;
  case ann::PragmaKind::Assume: {
    // Each conjunct is an integer fact or gives a value its tag
    // (`tag(x) == A(r, k)`, for what the analysis cannot see: inline asm).
    std::vector<const ann::Expr *> Conjuncts{&P.pragma.predicate};
    for (size_t I = 0; I < Conjuncts.size();) {
      const ann::Expr *C = Conjuncts[I];
      if (C->kind == ann::ExprKind::Binary && C->binaryOp == ann::BinaryOp::LogicalAnd) {
        Conjuncts.erase(Conjuncts.begin() + I);
        Conjuncts.insert(Conjuncts.begin() + I, {&C->operands[0], &C->operands[1]});
        continue;
      }
      ++I;
    }
    for (const ann::Expr *C : Conjuncts) {
      if (assumeTag(*C, P))
        continue;
      if (const Term *F = termForAnnotationInt(*C, nullptr)) {
        Path.push_back(F);
        continue;
      }
      Notes.push_back({P.location, "assumption '" + ann::printExpr(*C) +
                                       "' is neither an integer fact nor tag(x) == T(...) of a "
                                       "local value; it was not used"});
    }
    return;
  }
  case ann::PragmaKind::Reset: {
    const clang::ValueDecl *Array = P.pragma.array.resolution.decl;
    std::erase_if(LdsWrites, [Array](const LdsWrite &W) { return W.array == Array; });
    return;
  }
  case ann::PragmaKind::Launch:
    return; // kernel-level, applied at setup
  }
}

void ProvenanceInterpreter::declare(const clang::VarDecl *VD) {
  if (isSharedArray(VD))
    return;
  if (VD->getType()->isArrayType() || VD->getType()->isVectorType()) {
    AbstractValue Arr;
    Arr.kind = AbstractValue::Kind::Array;
    Arr.array = std::make_shared<PrivateArray>();
    if (const auto *IL = llvm::dyn_cast_or_null<clang::InitListExpr>(
            VD->getInit() ? VD->getInit()->IgnoreImplicit() : nullptr))
      for (unsigned I = 0; I < IL->getNumInits(); ++I)
        Arr.array->constantSlots[I] = eval(IL->getInit(I));
    Env[VD] = Arr;
    return;
  }
  if (const clang::Expr *Init = VD->getInit())
    Env[VD] = eval(Init);
  else if (VD->getType()->isIntegralOrEnumerationType())
    Env[VD] = AbstractValue::ofInt(T.freshSymbol(VD->getName().str(), SymbolKind::Other));
  else
    Env[VD] = AbstractValue::ofData(DataValue::neutral());
}

void ProvenanceInterpreter::runLoop(const CfgLoop &L) {
  enterItem(L.stmt);
  if (const auto *For = llvm::dyn_cast<clang::ForStmt>(L.stmt))
    return visitFor(For, L);
  if (const auto *While = llvm::dyn_cast<clang::WhileStmt>(L.stmt))
    return visitWhileLike(L, While->getCond(), While->getBody());
  // do-while: the condition guards the back edge, not the first iteration.
  if (const auto *Do = llvm::dyn_cast<clang::DoStmt>(L.stmt))
    return visitWhileLike(L, nullptr, Do->getBody());
}

namespace {

// `i++`, `++i`, `i += s`, `i = i + s`: the step, or null.
const clang::Expr *stepOf(const clang::Expr *Inc, const clang::VarDecl *Var, bool &Negative) {
  Negative = false;
  if (!Inc)
    return nullptr;
  Inc = Inc->IgnoreParenImpCasts();
  auto IsVar = [Var](const clang::Expr *E) {
    const auto *DRE = llvm::dyn_cast<clang::DeclRefExpr>(E->IgnoreParenImpCasts());
    return DRE && DRE->getDecl() == Var;
  };
  if (const auto *UO = llvm::dyn_cast<clang::UnaryOperator>(Inc)) {
    if (UO->isIncrementDecrementOp() && IsVar(UO->getSubExpr())) {
      Negative = UO->isDecrementOp();
      return UO; // a unit step, recognised by the caller
    }
    return nullptr;
  }
  if (const auto *BO = llvm::dyn_cast<clang::BinaryOperator>(Inc)) {
    if (!IsVar(BO->getLHS()))
      return nullptr;
    if (BO->getOpcode() == clang::BO_AddAssign)
      return BO->getRHS();
    if (BO->getOpcode() == clang::BO_SubAssign) {
      Negative = true;
      return BO->getRHS();
    }
    if (BO->getOpcode() == clang::BO_Assign) {
      const auto *Sum = llvm::dyn_cast<clang::BinaryOperator>(BO->getRHS()->IgnoreParenImpCasts());
      if (Sum && Sum->getOpcode() == clang::BO_Add && IsVar(Sum->getLHS()))
        return Sum->getRHS();
    }
  }
  return nullptr;
}

} // namespace

void ProvenanceInterpreter::visitFor(const clang::ForStmt *For, const CfgLoop &L) {
  // The init ran in the block before the loop.
  // Canonical form: `for (v = a; v < b; v += s)` with s > 0 a constant.
  const clang::VarDecl *Var = nullptr;
  const Term *Init = nullptr, *Bound = nullptr, *Step = nullptr;
  clang::BinaryOperatorKind CmpOp = clang::BO_LT;
  if (const auto *Cond = llvm::dyn_cast_or_null<clang::BinaryOperator>(
          For->getCond() ? For->getCond()->IgnoreParenImpCasts() : nullptr)) {
    if (const auto *DRE = llvm::dyn_cast<clang::DeclRefExpr>(Cond->getLHS()->IgnoreParenImpCasts()))
      Var = llvm::dyn_cast<clang::VarDecl>(DRE->getDecl());
    CmpOp = Cond->getOpcode();
    if (Var && (CmpOp == clang::BO_LT || CmpOp == clang::BO_LE)) {
      auto It = Env.find(Var);
      if (It != Env.end() && It->second.kind == AbstractValue::Kind::Int)
        Init = It->second.term;
      Bound = evalInt(Cond->getRHS());
      bool Negative = false;
      if (const clang::Expr *StepExpr = stepOf(For->getInc(), Var, Negative)) {
        Step = llvm::isa<clang::UnaryOperator>(StepExpr) ? T.constant(1) : evalInt(StepExpr);
        if (Negative || !Step || !Step->isConstant() || Step->value() <= 0)
          Step = nullptr;
      }
    }
  }
  if (!Var || !Init || !Bound || !Step) {
    Notes.push_back({For->getForLoc(), "loop is not canonical (for (v = a; v < b; v += c) with a "
                                       "positive constant step); its variables are widened"});
    visitWhileLike(L, For->getCond(), For->getBody());
    return;
  }

  LoopFrame Frame;
  Frame.loop = For;
  Frame.counterVar = Var;
  Frame.id = NextLoopId++;
  Frame.init = Init;
  Frame.step = Step;
  const Term *Counter = T.freshSymbol(Var->getName().str(), SymbolKind::LoopCounter);
  Frame.span.counter = Counter;
  Frame.span.name = Var->getName().str();
  Frame.canonical = true;
  if (CmpOp == clang::BO_LE)
    Bound = T.add(Bound, T.constant(1));
  Frame.span.facts = {T.ge(Counter, Init), T.lt(Counter, Bound),
                      T.eq(T.rem(T.sub(Counter, Init), Step), T.constant(0))};
  const Term *Span = T.sub(Bound, Init);
  Frame.span.tripCount =
      T.select(T.gt(Span, T.constant(0)), T.div(T.add(Span, T.constant(Step->value() - 1)), Step),
               T.constant(0));
  if (L.leavesEarly) {
    // Iterations after a break (or a thread's return) never run: how many
    // do is not known, so neither is what an accumulation covers.
    Frame.span.tripCount = nullptr;
    Notes.push_back({L.leavesEarly->getBeginLoc(),
                     "the loop can be left early here; reduction coverage through it is unproven"});
  }
  Env[Var] = AbstractValue::ofInt(Counter);
  visitLoopBody(L, For->getBody(), std::move(Frame));
  // After the loop the counter is past the bound; nothing reads it in the
  // kernels we analyse, so it becomes a plain unknown.
  Env[Var] = AbstractValue::ofInt(T.freshSymbol(Var->getName().str() + "_end"));
}

void ProvenanceInterpreter::visitWhileLike(const CfgLoop &L, const clang::Expr *Cond,
                                           const clang::Stmt *Body) {
  const clang::Stmt *Loop = L.stmt;
  // Widening: every integer the body assigns becomes an unconstrained
  // symbol at the loop head; the loop condition holds inside the body.
  AssignedVars Assigned;
  Assigned.TraverseStmt(const_cast<clang::Stmt *>(Body));
  const clang::Expr *Inc = nullptr;
  if (const auto *For = llvm::dyn_cast<clang::ForStmt>(Loop); For && For->getInc()) {
    Inc = For->getInc();
    Assigned.TraverseStmt(const_cast<clang::Expr *>(Inc));
  }
  const Term *Counter = T.freshSymbol("iter", SymbolKind::LoopCounter);
  // A halving counter (`s /= 2`, `s >>= k`, as in tree reductions) is exact:
  // in iteration `iter` it is init >> (k * iter), so the previous
  // iteration's value is known too. Every other assigned integer widens.
  const clang::VarDecl *Halving = nullptr;
  unsigned Shift = 0;
  if (const auto *BO = llvm::dyn_cast_or_null<clang::BinaryOperator>(
          Inc ? Inc->IgnoreParenImpCasts() : nullptr)) {
    const auto *DRE = llvm::dyn_cast<clang::DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts());
    clang::Expr::EvalResult R;
    const clang::Expr *Amount = BO->getRHS();
    if (DRE && !Amount->isValueDependent() && Amount->EvaluateAsInt(R, Ctx)) {
      int64_t V = R.Val.getInt().getSExtValue();
      if (BO->getOpcode() == clang::BO_DivAssign && V > 1 && (V & (V - 1)) == 0)
        Shift = unsigned(__builtin_ctzll(uint64_t(V)));
      else if (BO->getOpcode() == clang::BO_ShrAssign && V > 0 && V < 31)
        Shift = unsigned(V);
      if (Shift)
        Halving = llvm::dyn_cast<clang::VarDecl>(DRE->getDecl());
    }
  }
  for (const clang::VarDecl *VD : Assigned.vars) {
    auto It = Env.find(VD);
    if (It == Env.end() || It->second.kind != AbstractValue::Kind::Int)
      continue;
    if (VD == Halving && It->second.term)
      It->second =
          AbstractValue::ofInt(T.shr(It->second.term, T.mul(Counter, T.constant(int64_t(Shift)))));
    else
      It->second = AbstractValue::ofInt(T.freshSymbol(VD->getName().str(), SymbolKind::Fresh));
  }
  LoopFrame Frame;
  Frame.loop = Loop;
  Frame.id = NextLoopId++;
  Frame.canonical = Halving != nullptr; // counter from 0 by 1, values exact
  Frame.span.counter = Counter;
  Frame.span.name = Halving ? Halving->getName().str() : "iteration";
  Frame.init = T.constant(0);
  Frame.step = T.constant(1);
  Frame.span.facts = {T.ge(Counter, T.constant(0))};
  if (Halving)
    Frame.span.facts.push_back(T.lt(Counter, T.constant(31)));
  if (const Term *C = Cond ? evalInt(Cond) : nullptr)
    Frame.span.facts.push_back(T.ne(C, T.constant(0)));
  Frame.span.tripCount = nullptr; // unknown: coverage through this loop is unproven
  visitLoopBody(L, Body, std::move(Frame));
  for (const clang::VarDecl *VD : Assigned.vars) {
    auto It = Env.find(VD);
    if (It != Env.end() && It->second.kind == AbstractValue::Kind::Int)
      It->second = AbstractValue::ofInt(T.freshSymbol(VD->getName().str(), SymbolKind::Fresh));
  }
}

void ProvenanceInterpreter::visitLoopBody(const CfgLoop &L, const clang::Stmt *Body,
                                          LoopFrame Frame) {
  // One iteration: the body region from its start to the back edge; the
  // iteration's end is the join of every path that reaches the back edge
  // (the body's end and each `continue`). Returns the states of the paths
  // that `break` out of it.
  auto Iterate = [this, &L] {
    // The paths that leave it: by `break` (to the loop's exit), and by a
    // `goto` to a block after the loop.
    std::pair<std::vector<FlowState>, std::vector<std::pair<const clang::CFGBlock *, FlowState>>>
        Left;
    auto &[Breaks, Sides] = Left;
    if (!L.bodyStart || !L.body.count(L.bodyStart))
      return Left; // an empty body
    // The walk leaves Env and Path to the blocks it visits.
    ValueEnv Before = Env;
    std::vector<const Term *> PathBefore = Path;
    RegionExits Exits = walkRegion(&L, FlowState{Env, Path});
    if (auto Out = Exits.find(L.exit); L.exit && Out != Exits.end())
      for (FlowState &S : Out->second)
        if (S.from != L.condBlock) // a do-while's condition ends it normally
          Breaks.push_back(std::move(S));
    for (const clang::CFGBlock *Target : L.sideExits)
      if (auto Out = Exits.find(Target); Out != Exits.end())
        for (FlowState &S : Out->second)
          Sides.emplace_back(Target, std::move(S));
    auto Back = Exits.find(L.header);
    if (Back == Exits.end() || Back->second.empty()) {
      // No iteration reaches the next one.
      Env = std::move(Before);
      Path = std::move(PathBefore);
      return Left;
    }
    FlowState End = merge(Back->second);
    Env = std::move(End.env);
    Path = std::move(End.path);
    return Left;
  };
  AssignedVars Assigned;
  Assigned.ownCounter = Frame.counterVar;
  Assigned.TraverseStmt(const_cast<clang::Stmt *>(Body));
  CarriedVars PreLoop;
  for (const clang::VarDecl *VD : Assigned.vars) {
    auto It = Env.find(VD);
    if (It == Env.end())
      continue;
    if (It->second.kind == AbstractValue::Kind::Array &&
        (VD->getType()->isVectorType() || VD->getType()->isConstantArrayType())) {
      // A vector assigned as a whole in the loop (`acc = mfma(a, b, acc)`):
      // each element is an accumulator at the loop head.
      AccumulatorTokens.push_back(0);
      PreLoop[VD] = {It->second, &AccumulatorTokens.back()};
      DataValue Head = DataValue::neutral();
      Head.accumulator = &AccumulatorTokens.back();
      AbstractValue Arr;
      Arr.kind = AbstractValue::Kind::Array;
      Arr.array = std::make_shared<PrivateArray>();
      Arr.array->slotCounter = T.freshSymbol("elem", SymbolKind::Fresh);
      Arr.array->slotValue = AbstractValue::ofData(Head);
      It->second = Arr;
      continue;
    }
    if (It->second.kind != AbstractValue::Kind::Data)
      continue;
    // The loop-head value: "whatever the previous iterations accumulated",
    // identified by a token unique to this variable and loop.
    AccumulatorTokens.push_back(0);
    PreLoop[VD] = {It->second, &AccumulatorTokens.back()};
    DataValue Head = DataValue::neutral();
    Head.accumulator = &AccumulatorTokens.back();
    It->second = AbstractValue::ofData(Head);
  }
  Frame.firstSeq = ++Seq;
  Frame.firstEpoch = Epoch;
  Frame.firstTermId = unsigned(T.size());
  size_t PathDepth = Path.size();
  Path.insert(Path.end(), Frame.span.facts.begin(), Frame.span.facts.end());
  Frame.pathStart = Path.size();
  Loops.push_back(Frame);
  if (readsSharedBeforeWriting(Body, Loops.back().writesShared)) {
    // First pass: only to learn which shared-memory writes the body makes,
    // so that reads early in the body can see the previous iteration's.
    size_t Obls = Obligations.size(), NoteCount = Notes.size(), Writes = LdsWrites.size();
    size_t AccessCount = Accesses.size(), BarrierCount = Barriers.size();
    unsigned SavedEpoch = Epoch;
    auto SavedEnv = Env;
    auto SavedPath = Path;
    auto SavedEntered = Flow->entered;
    Iterate();
    std::vector<LdsWrite> BodyWrites(LdsWrites.begin() + Writes, LdsWrites.end());
    LdsWrites.resize(Writes);
    Obligations.resize(Obls);
    Notes.resize(NoteCount);
    Accesses.resize(AccessCount);
    Barriers.resize(BarrierCount);
    Epoch = SavedEpoch;
    Env = std::move(SavedEnv);
    Path = std::move(SavedPath);
    Flow->entered = std::move(SavedEntered);
    if (!BodyWrites.empty())
      PreviousIterationWrites[Frame.id] = std::move(BodyWrites);
  }
  auto [Breaks, Sides] = Iterate();
  PreviousIterationWrites.erase(Frame.id);
  // The log's copies of this loop learn where it ended.
  for (LdsAccess &A : Accesses)
    for (LoopContext &L : A.loops)
      if (L.id == Frame.id)
        L.lastEpoch = Epoch;
  for (BarrierSite &B : Barriers)
    for (LoopContext &L : B.loops)
      if (L.id == Frame.id)
        L.lastEpoch = Epoch;
  Loops.back().lastSeq = ++Seq;
  LoopFrame Done = Loops.back();
  Loops.pop_back();
  Path.resize(PathDepth);
  finishAccumulations(Done, PreLoop);
  // A path that leaves early keeps the values it had there, except one
  // still accumulating (it carries this loop's head token): that is the
  // loop's summary (whose coverage is unproven: the trip count is unknown).
  auto LeftWith = [&](FlowState &Early) {
    for (const auto &[Var, Entry] : PreLoop) {
      auto Summary = Env.find(Var);
      auto There = Early.env.find(Var);
      if (Summary == Env.end() || There == Early.env.end())
        continue;
      const AbstractValue &V = There->second;
      const void *Token = Entry.second;
      bool Accumulating = (V.kind == AbstractValue::Kind::Data && V.data.accumulator == Token) ||
                          (V.kind == AbstractValue::Kind::Array && V.array &&
                           V.array->slotValue.kind == AbstractValue::Kind::Data &&
                           V.array->slotValue.data.accumulator == Token);
      if (Accumulating)
        There->second = Summary->second;
    }
  };
  for (auto &[Target, State] : Sides)
    LeftWith(State);
  LoopSideExits = std::move(Sides);
  if (Breaks.empty())
    return;
  // After the loop: either it ran out, or some iteration broke out of it.
  const Term *Broke = T.freshSymbol("broke", SymbolKind::Fresh);
  Broke = T.ne(Broke, T.constant(0));
  std::vector<FlowState> Ways;
  Ways.push_back(FlowState{Env, Path});
  Ways.back().path.push_back(T.logicalNot(Broke));
  for (FlowState &B : Breaks) {
    LeftWith(B);
    B.path.insert(B.path.begin() + PathDepth, Broke);
    Ways.push_back(std::move(B));
  }
  FlowState After = merge(Ways);
  Env = std::move(After.env);
  Path = std::move(After.path);
}

} // namespace ave::inv

namespace ave::inv {

std::vector<LoopContext> ProvenanceInterpreter::loopContexts() const {
  std::vector<LoopContext> Out;
  for (const LoopFrame &F : Loops) {
    LoopContext C;
    C.id = F.id;
    C.loop = F.loop;
    C.counter = F.span.counter;
    C.facts = F.span.facts;
    C.init = F.canonical ? F.init : nullptr;
    C.step = F.canonical ? F.step : nullptr;
    C.firstEpoch = F.firstEpoch;
    C.canonical = F.canonical;
    Out.push_back(std::move(C));
  }
  return Out;
}

} // namespace ave::inv
