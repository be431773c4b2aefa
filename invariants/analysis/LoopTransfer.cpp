// Loops: each is interpreted once over a bounded symbolic counter. A
// canonical `for (v = a; v < b; v += s)` gets an exact counter; any other
// loop widens the integers it assigns (a halving counter `s /= 2` excepted,
// which is exact too). The body is one region of the CFG walk; LoopSummary
// turns its one iteration into the loop's summary.

#include "ControlFlow.h"
#include "LoopBodyScan.h"
#include "ave/invariants/Polynomial.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

#include <algorithm>

namespace ave::inv {

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
  const auto *BO = llvm::dyn_cast<clang::BinaryOperator>(Inc);
  if (!BO || !IsVar(BO->getLHS()))
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
  return nullptr;
}

// `s /= 2^k` or `s >>= k` as the increment of a loop: the variable and k.
const clang::VarDecl *halvingCounter(const clang::Expr *Inc, clang::ASTContext &Ast,
                                     unsigned &Shift) {
  Shift = 0;
  const auto *BO =
      llvm::dyn_cast_or_null<clang::BinaryOperator>(Inc ? Inc->IgnoreParenImpCasts() : nullptr);
  if (!BO)
    return nullptr;
  const auto *DRE = llvm::dyn_cast<clang::DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts());
  clang::Expr::EvalResult R;
  const clang::Expr *Amount = BO->getRHS();
  if (!DRE || Amount->isValueDependent() || !Amount->EvaluateAsInt(R, Ast))
    return nullptr;
  int64_t V = R.Val.getInt().getSExtValue();
  if (BO->getOpcode() == clang::BO_DivAssign && V > 1 && (V & (V - 1)) == 0)
    Shift = unsigned(__builtin_ctzll(uint64_t(V)));
  else if (BO->getOpcode() == clang::BO_ShrAssign && V > 0 && V < 31)
    Shift = unsigned(V);
  return Shift ? llvm::dyn_cast<clang::VarDecl>(DRE->getDecl()) : nullptr;
}

} // namespace

ProvenanceInterpreter::SideExits ProvenanceInterpreter::runLoop(const CfgLoop &L,
                                                                FlowState &State) {
  enterItem(L.stmt, State);
  if (const auto *For = llvm::dyn_cast<clang::ForStmt>(L.stmt)) {
    if (std::optional<ShuffleLoop> Shuffle = matchShuffleLoop(For))
      return shuffleLoop(*Shuffle, State);
    return visitFor(For, L, State);
  }
  if (const auto *While = llvm::dyn_cast<clang::WhileStmt>(L.stmt))
    return visitWhileLike(L, While->getCond(), While->getBody(), State);
  // do-while: the condition guards the back edge, not the first iteration.
  if (const auto *Do = llvm::dyn_cast<clang::DoStmt>(L.stmt))
    return visitWhileLike(L, nullptr, Do->getBody(), State);
  return {};
}

bool ProvenanceInterpreter::counterFits(const clang::VarDecl *Var, const Term *Bound,
                                        const Term *Step, const FlowState &State) {
  // The counter as a mathematical integer is exact only if its type holds
  // every value it takes, the one past the bound included (`signed char j`
  // to N wraps at 127).
  clang::QualType Type = Var->getType();
  if (!Type->isIntegerType())
    return false;
  uint64_t Width = Ctx.ast.getTypeSize(Type);
  // 32 bits or more: bound and step are C ints (terms are), so a signed
  // counter passes INT_MAX only through undefined overflow, which the
  // analysis assumes absent as everywhere, and an unsigned one stays below
  // 2 * INT_MAX < UINT_MAX. (UINT_MAX is no C int: asking about it could not
  // be encoded, and every `unsigned i` loop was widened.)
  if (Width >= 32)
    return true;
  bool Signed = Type->isSignedIntegerType();
  int64_t Max = Signed ? (int64_t(1) << (Width - 1)) - 1 : (int64_t(1) << Width) - 1;
  // Bound > Max - (Step - 1): no overflow where Bound - 1 + Step could.
  std::vector<const Term *> Query = State.path;
  Query.push_back(T.gt(Bound, T.sub(T.constant(Max), T.sub(Step, T.constant(1)))));
  return Ctx.ask("loop counter fits its type", T.allOf(Query)).status == SolverResult::Proven;
}

namespace {

// Whether E reads Var or one of Assigned.
bool readsAnyOf(const clang::Expr *E, const clang::VarDecl *Var,
                const std::set<const clang::VarDecl *> &Assigned) {
  if (const auto *DRE = llvm::dyn_cast<clang::DeclRefExpr>(E))
    if (const auto *VD = llvm::dyn_cast<clang::VarDecl>(DRE->getDecl()))
      return VD == Var || Assigned.count(VD);
  for (const clang::Stmt *Child : E->children())
    if (const auto *CE = llvm::dyn_cast_or_null<clang::Expr>(Child);
        CE && readsAnyOf(CE, Var, Assigned))
      return true;
  return false;
}

} // namespace

ProvenanceInterpreter::SideExits
ProvenanceInterpreter::visitFor(const clang::ForStmt *For, const CfgLoop &L, FlowState &State) {
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
    // The counter changes only by the step: a body or condition that
    // assigns it (`k += (k == 3)`, `k-- > 0`), takes its address or binds a
    // reference to it makes the loop one the analysis widens.
    std::set<const clang::VarDecl *> Changed = assignedVariables(For->getBody());
    std::set<const clang::VarDecl *> ByCond = assignedVariables(For->getCond());
    Changed.insert(ByCond.begin(), ByCond.end());
    if (Changed.count(Var)) {
      Ctx.log.addNote(For->getForLoc(), "the counter '" + Var->getName().str() +
                                            "' also changes in the loop's body or condition "
                                            "(or through a pointer or reference to it)");
      Var = nullptr;
    }
    if (Var && (CmpOp == clang::BO_LT || CmpOp == clang::BO_LE)) {
      auto It = State.env.find(Var);
      if (It != State.env.end() && It->second.kind == AbstractValue::Kind::Int)
        Init = It->second.term;
      // The bound is evaluated once, here: it must not change with the
      // iterations (`k < k + chunk` reads the counter; the soundness
      // fuzzer's splitk_gemm mutant was proven with it taken as k0 + chunk).
      if (!readsAnyOf(Cond->getRHS(), Var, assignedInLoop(For, For->getBody())))
        Bound = evalInt(Cond->getRHS(), State);
      bool Negative = false;
      if (const clang::Expr *StepExpr = stepOf(For->getInc(), Var, Negative)) {
        Step = llvm::isa<clang::UnaryOperator>(StepExpr) ? T.constant(1) : evalInt(StepExpr, State);
        if (Negative || !Step || !Step->isConstant() || Step->value() <= 0)
          Step = nullptr;
      }
    }
  }
  if (Var && Init && Bound && Step && !counterFits(Var, Bound, Step, State)) {
    Ctx.log.addNote(For->getForLoc(),
                    "the counter's type '" + Var->getType().getAsString() +
                        "' may not hold every value the loop gives it; its variables are widened");
    return visitWhileLike(L, For->getCond(), For->getBody(), State);
  }
  if (!Var || !Init || !Bound || !Step) {
    Ctx.log.addNote(For->getForLoc(),
                    "loop is not canonical (for (v = a; v < b; v += c) with a positive constant "
                    "step); its variables are widened");
    return visitWhileLike(L, For->getCond(), For->getBody(), State);
  }
  LoopFrame Frame;
  Frame.loop = For;
  Frame.counterVar = Var;
  Frame.id = Ctx.nextLoopId++;
  Frame.init = Init;
  Frame.step = Step;
  // A counter whose start or bound the analysis approximates (`for (; k <
  // 16; ++k)` after a widened loop left k unknown) takes values only those
  // approximations allow: a violation through it is not a known execution.
  const Term *Counter = approximatedSymbol(Init) || approximatedSymbol(Bound)
                            ? T.approximation(Var->getName().str(), SymbolKind::LoopCounter)
                            : T.freshSymbol(Var->getName().str(), SymbolKind::LoopCounter);
  Frame.span.counter = Counter;
  Frame.span.name = Var->getName().str();
  Frame.span.start = Init;
  Frame.span.step = Step;
  Frame.canonical = true;
  if (CmpOp == clang::BO_LE)
    Bound = T.add(Bound, T.constant(1));
  Frame.span.facts = {T.ge(Counter, Init), T.lt(Counter, Bound),
                      T.eq(T.rem(T.sub(Counter, Init), Step), T.constant(0))};
  // `k < kk + 4` from `k = kk`: four iterations, whatever kk.
  const Term *Span = normalize(T, T.sub(Bound, Init));
  Frame.span.tripCount =
      T.select(T.gt(Span, T.constant(0)), T.div(T.add(Span, T.constant(Step->value() - 1)), Step),
               T.constant(0));
  if (L.leavesEarly) {
    // Iterations after a break (or a thread's return) never run: how many
    // do is not known, so neither is what an accumulation covers.
    Frame.span.tripCount = nullptr;
    Ctx.log.addNote(L.leavesEarly->getBeginLoc(),
                    "the loop can be left early here; reduction coverage through it is unproven");
  }
  State.env[Var] = AbstractValue::ofInt(Counter);
  SideExits Sides = visitLoopBody(L, For->getBody(), std::move(Frame), State);
  // After the loop the counter is past the bound; nothing reads it in the
  // kernels we analyse, so it becomes an unknown the program decides.
  State.env[Var] = AbstractValue::ofInt(T.widenedApproximation(Var->getName().str() + "_end"));
  return Sides;
}

ProvenanceInterpreter::SideExits ProvenanceInterpreter::visitWhileLike(const CfgLoop &L,
                                                                       const clang::Expr *Cond,
                                                                       const clang::Stmt *Body,
                                                                       FlowState &State) {
  // Widening: every integer the body assigns becomes an unconstrained
  // symbol at the loop head; the loop condition holds inside the body.
  std::set<const clang::VarDecl *> Assigned = assignedInLoop(L.stmt, Body);
  const clang::Expr *Inc = nullptr;
  if (const auto *For = llvm::dyn_cast<clang::ForStmt>(L.stmt))
    Inc = For->getInc();
  if (!llvm::isa<clang::DoStmt>(L.stmt))
    requireLoopEnds(L.stmt, Cond, Body, Assigned, State);
  const Term *Counter = T.freshSymbol("iter", SymbolKind::LoopCounter);
  // A halving counter (`s /= 2`, `s >>= k`, as in tree reductions) is exact:
  // in iteration `iter` it is init >> (k * iter), so the previous
  // iteration's value is known too. Every other assigned integer widens.
  unsigned Shift = 0;
  const clang::VarDecl *Halving = halvingCounter(Inc, Ctx.ast, Shift);
  for (const clang::VarDecl *VD : Assigned) {
    auto It = State.env.find(VD);
    if (It == State.env.end() || It->second.kind != AbstractValue::Kind::Int)
      continue;
    if (VD == Halving && It->second.term)
      It->second =
          AbstractValue::ofInt(T.shr(It->second.term, T.mul(Counter, T.constant(int64_t(Shift)))));
    else
      It->second =
          AbstractValue::ofInt(T.widenedApproximation(VD->getName().str(), SymbolKind::Fresh));
  }
  LoopFrame Frame;
  Frame.loop = L.stmt;
  Frame.id = Ctx.nextLoopId++;
  Frame.canonical = Halving != nullptr; // counter from 0 by 1, values exact
  Frame.span.counter = Counter;
  Frame.span.name = Halving ? Halving->getName().str() : "iteration";
  Frame.init = T.constant(0);
  Frame.step = T.constant(1);
  Frame.span.facts = {T.ge(Counter, T.constant(0))};
  if (Halving)
    Frame.span.facts.push_back(T.lt(Counter, T.constant(31)));
  if (const Term *C = Cond ? evalInt(Cond, State) : nullptr)
    Frame.span.facts.push_back(T.ne(C, T.constant(0)));
  Frame.span.tripCount = nullptr; // unknown: coverage through this loop is unproven
  SideExits Sides = visitLoopBody(L, Body, std::move(Frame), State);
  for (const clang::VarDecl *VD : Assigned) {
    auto It = State.env.find(VD);
    if (It != State.env.end() && It->second.kind == AbstractValue::Kind::Int)
      It->second =
          AbstractValue::ofInt(T.widenedApproximation(VD->getName().str(), SymbolKind::Fresh));
  }
  return Sides;
}

void ProvenanceInterpreter::iterate(const CfgLoop &L, FlowState &State,
                                    std::vector<FlowState> &Breaks, SideExits &Sides) {
  // One iteration: the body region from its start to the back edge; the
  // iteration's end is the join of every path that reaches the back edge
  // (the body's end and each `continue`).
  if (!L.bodyStart || !L.body.count(L.bodyStart))
    return; // an empty body
  StatesAt Exits = walkRegion(&L, State);
  if (auto Out = Exits.find(L.exit); L.exit && Out != Exits.end())
    for (FlowState &S : Out->second)
      if (S.from != L.condBlock) // a do-while's condition ends it normally
        Breaks.push_back(std::move(S));
  for (const clang::CFGBlock *Target : L.sideExits)
    if (auto Out = Exits.find(Target); Out != Exits.end())
      for (FlowState &S : Out->second)
        Sides.emplace_back(Target, std::move(S));
  // A return inside the loop leaves it too (for the kernel's end).
  const clang::CFGBlock *End = &Flow->cfg->getExit();
  if (auto Out = Exits.find(End); Out != Exits.end())
    for (FlowState &S : Out->second)
      Sides.emplace_back(End, std::move(S));
  auto Back = Exits.find(L.header);
  if (Back == Exits.end() || Back->second.empty())
    return; // no iteration reaches the next one
  State = joinStates(T, Back->second);
}

void ProvenanceInterpreter::learnPreviousIteration(const CfgLoop &L, const FlowState &State) {
  // Only to learn which shared-memory writes the body makes, so that reads
  // early in the body can see the previous iteration's.
  AnalysisLog::Mark Before = Ctx.log.mark();
  const size_t GapsBefore = CaseGaps.size(); // the assertions asked are rolled back too
  FlowState Scratch = State;
  std::vector<FlowState> Breaks;
  SideExits Sides;
  Ctx.loops.back().learningWrites = true;
  iterate(L, Scratch, Breaks, Sides);
  Ctx.loops.back().learningWrites = false;
  std::vector<LdsWrite> &Writes = Ctx.log.ldsWrites();
  std::vector<LdsWrite> BodyWrites(Writes.begin() + Before.ldsWrites, Writes.end());
  Ctx.log.rollback(Before);
  CaseGaps.erase(CaseGaps.begin() + long(GapsBefore), CaseGaps.end());
  Shared.setPreviousIterationWrites(Ctx.loops.back().id, std::move(BodyWrites));
}

void ProvenanceInterpreter::joinBreaks(std::vector<FlowState> &Breaks, const CarriedVars &Carried,
                                       size_t PathDepth, FlowState &State) {
  // After the loop: either it ran out, or some iteration broke out of it.
  const Term *Broke = T.ne(T.approximation("broke", SymbolKind::Fresh), T.constant(0));
  std::vector<FlowState> Ways;
  Ways.push_back(State);
  Ways.back().path.push_back(T.logicalNot(Broke));
  for (FlowState &B : Breaks) {
    Summaries.keepSummaries(Carried, State.env, B);
    B.path.insert(B.path.begin() + PathDepth, Broke);
    Ways.push_back(std::move(B));
  }
  State = joinStates(T, Ways);
  // Every thread here came one of these ways: their disjunction restricts
  // no thread (it holds on each execution that gets here), so the writer
  // solution of output coverage may leave it out.
  for (size_t I = PathDepth; I < State.path.size(); ++I)
    Ctx.reachedByAllWays.insert(State.path[I]);
}

ProvenanceInterpreter::SideExits ProvenanceInterpreter::visitLoopBody(const CfgLoop &L,
                                                                      const clang::Stmt *Body,
                                                                      LoopFrame Frame,
                                                                      FlowState &State) {
  CarriedVars Carried = Summaries.enter(Body, Frame.counterVar, State.env);
  const EntryArrays Entry = LoopSummary::arraysOf(State.env);
  Frame.firstSeq = Ctx.log.nextSeq();
  Frame.firstInterval = Ctx.log.interval();
  Frame.firstTermId = unsigned(T.size());
  size_t PathDepth = State.path.size();
  State.path.insert(State.path.end(), Frame.span.facts.begin(), Frame.span.facts.end());
  Frame.pathStart = State.path.size();
  Ctx.loops.push_back(Frame);
  LoopInduction Induction = inductVariables(L, Body, State);
  if (readsSharedBeforeWriting(Body, Ctx.loops.back().writesShared))
    learnPreviousIteration(L, State);
  std::vector<FlowState> Breaks;
  SideExits Sides;
  iterate(L, State, Breaks, Sides);
  Shared.forgetPreviousIterationWrites(Frame.id);
  Ctx.log.closeLoop(Frame.id);
  Ctx.loops.back().lastSeq = Ctx.log.nextSeq();
  LoopFrame Done = Ctx.loops.back();
  Ctx.loops.pop_back();
  State.path.resize(PathDepth);
  Summaries.finish(Done, Carried, State);
  Summaries.restrictSlots(Done, Carried, Entry, State);
  variablesAfterLoop(Induction, Done, L.leavesEarly || !Sides.empty(), State);
  // A path that leaves early keeps the values it had there, except one
  // still accumulating (it carries this loop's head token): that is the
  // loop's summary (whose coverage is unproven: the trip count is unknown).
  for (auto &[Target, Side] : Sides)
    Summaries.keepSummaries(Carried, State.env, Side);
  if (!Breaks.empty())
    joinBreaks(Breaks, Carried, PathDepth, State);
  // A thread that left through a side exit (a return, a goto out) is not
  // here: what follows the loop is reached only by those that did not, a
  // condition on data the analysis does not follow. Without it a store after
  // the loop counted as made by every thread (output-written proven for a
  // kernel whose threads may return before storing).
  if (!Sides.empty())
    State.path.push_back(
        T.logicalNot(T.ne(T.approximation(LeftEarlyName, SymbolKind::Fresh), T.constant(0))));
  return Sides;
}

} // namespace ave::inv
