// Control flow: the kernel body's Clang CFG. The body and every loop body are
// regions, walked in reverse post-order; a loop inside a region is one node
// (its header) that the loop machinery summarises. Branches add their
// condition to the path on each outgoing edge, merge points join the
// incoming paths (FlowMerge.cpp), and a pragma applies at the first CFG item
// of the statement it precedes. Flow that no loop statement explains (a
// `goto` backwards, a jump into a loop) is reported as unsupported.

#include "ControlFlow.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/CFG.h"

namespace ave::inv {

namespace {

// The statements that stand on their own (children of a compound, branch
// and loop bodies, for-init): their expressions are evaluated as a whole.
void collectStatements(const clang::Stmt *S, std::set<const clang::Stmt *> &Out) {
  if (!S)
    return;
  auto Add = [&Out](const clang::Stmt *Child) {
    if (Child)
      Out.insert(Child);
  };
  if (const auto *CS = llvm::dyn_cast<clang::CompoundStmt>(S))
    for (const clang::Stmt *Child : CS->body())
      Add(Child);
  else if (const auto *If = llvm::dyn_cast<clang::IfStmt>(S)) {
    Add(If->getInit());
    Add(If->getThen());
    Add(If->getElse());
  } else if (const auto *For = llvm::dyn_cast<clang::ForStmt>(S)) {
    Add(For->getInit());
    Add(For->getBody());
  } else if (const auto *While = llvm::dyn_cast<clang::WhileStmt>(S))
    Add(While->getBody());
  else if (const auto *Do = llvm::dyn_cast<clang::DoStmt>(S))
    Add(Do->getBody());
  else if (const auto *Switch = llvm::dyn_cast<clang::SwitchStmt>(S)) {
    Add(Switch->getInit());
    Add(Switch->getBody());
  } else if (const auto *SC = llvm::dyn_cast<clang::SwitchCase>(S))
    Add(SC->getSubStmt());
  else if (const auto *Label = llvm::dyn_cast<clang::LabelStmt>(S))
    Add(Label->getSubStmt());
  else if (const auto *Attr = llvm::dyn_cast<clang::AttributedStmt>(S))
    Add(Attr->getSubStmt());
  for (const clang::Stmt *Child : S->children())
    collectStatements(Child, Out);
}

// The statement of a CFG element, or null for implicit destructors, scopes...
const clang::Stmt *elementStmt(const clang::CFGElement &E) {
  if (std::optional<clang::CFGStmt> S = E.getAs<clang::CFGStmt>())
    return S->getStmt();
  return nullptr;
}

// The successor whether or not the edge was pruned as never taken.
const clang::CFGBlock *anySuccessor(const clang::CFGBlock::AdjacentBlock &A) {
  return A.getReachableBlock() ? A.getReachableBlock() : A.getPossiblyUnreachableBlock();
}

const clang::Stmt *firstItem(const clang::CFGBlock *B) {
  for (const clang::CFGElement &E : *B)
    if (const clang::Stmt *S = elementStmt(E))
      return S;
  return B->getTerminatorStmt();
}

const clang::Stmt *lastItem(const clang::CFGBlock *B) {
  if (const clang::Stmt *T = B->getTerminatorStmt())
    return T;
  for (auto It = B->rbegin(); It != B->rend(); ++It)
    if (const clang::Stmt *S = elementStmt(*It))
      return S;
  return nullptr;
}

// The value a two-way terminator branches on in this block: in `a && b`
// the block of `b` decides on `b` alone, `a` having been decided before.
const clang::Expr *branchValue(const clang::CFGBlock *B) {
  const auto *E = llvm::dyn_cast_or_null<clang::Expr>(B->getTerminatorCondition());
  while (E) {
    E = E->IgnoreParenImpCasts();
    const auto *BO = llvm::dyn_cast<clang::BinaryOperator>(E);
    if (!BO || !BO->isLogicalOp())
      break;
    E = BO->getRHS();
  }
  return E;
}

} // namespace

const clang::Stmt *ProvenanceInterpreter::ControlFlow::parentOf(const clang::Stmt *S) const {
  if (const auto *DS = llvm::dyn_cast<clang::DeclStmt>(S))
    if (auto It = original.find(DS); It != original.end())
      S = It->second;
  return parents->getParent(S);
}

bool ProvenanceInterpreter::ControlFlow::within(const clang::Stmt *S,
                                                const clang::Stmt *Ancestor) const {
  for (; S; S = parentOf(S))
    if (S == Ancestor)
      return true;
  return false;
}

std::optional<ProvenanceInterpreter::CfgLoop> ProvenanceInterpreter::ControlFlow::describeLoop(
    const clang::Stmt *Stmt, const clang::CFGBlock *Latch, const clang::CFGBlock *CondBlock) const {
  CfgLoop L;
  L.stmt = Stmt;
  L.condBlock = CondBlock;
  for (const clang::CFGBlock::AdjacentBlock &A : Latch->succs())
    if (const clang::CFGBlock *H = A.getReachableBlock())
      L.header = H;
  if (!L.header)
    return std::nullopt; // the back edge is never taken: not a loop
  // `do { ... } while (0)` (a macro's statement wrapper): the edge into the
  // back edge is pruned, the body runs once.
  if (std::none_of(Latch->pred_begin(), Latch->pred_end(),
                   [](const clang::CFGBlock::AdjacentBlock &A) { return A.getReachableBlock(); }))
    return std::nullopt;
  if (llvm::isa<clang::DoStmt>(Stmt)) {
    L.bodyStart = L.header;
    if (CondBlock && CondBlock->succ_size() == 2)
      L.exit = anySuccessor(*(CondBlock->succ_begin() + 1));
  } else if (CondBlock && CondBlock->succ_size() == 2) {
    L.bodyStart = CondBlock->succ_begin()->getReachableBlock();
    L.exit = anySuccessor(*(CondBlock->succ_begin() + 1));
  } else {
    L.bodyStart = L.header; // `for (;;)`: no condition block
  }
  // The body: what the body start reaches without going round or out.
  std::vector<const clang::CFGBlock *> Work;
  if (L.bodyStart && (L.bodyStart != L.header || llvm::isa<clang::DoStmt>(Stmt) || !CondBlock))
    Work.push_back(L.bodyStart);
  while (!Work.empty()) {
    const clang::CFGBlock *B = Work.back();
    Work.pop_back();
    if (!L.body.insert(B).second)
      continue;
    for (const clang::CFGBlock::AdjacentBlock &A : B->succs()) {
      const clang::CFGBlock *S = A.getReachableBlock();
      if (!S || S == L.header || S == L.exit || S == &cfg->getExit() || L.body.count(S))
        continue;
      // Where a block stands in the source: its first statement, or the
      // label it starts with (a `goto` target after the loop is empty).
      const clang::Stmt *First = firstItem(S);
      if (!First)
        First = S->getLabel();
      if (First && !within(First, Stmt))
        continue;
      Work.push_back(S);
    }
  }
  // `while (true)`, `for (;;)`: the condition's exit edge is gone and the
  // loop ends only where a `break` goes.
  if (!L.exit) {
    std::set<const clang::CFGBlock *> Targets;
    for (const clang::CFGBlock *B : L.body)
      if (const clang::Stmt *Last = B->getTerminatorStmt();
          Last && llvm::isa<clang::BreakStmt>(Last))
        for (const clang::CFGBlock::AdjacentBlock &A : B->succs())
          if (const clang::CFGBlock *S = A.getReachableBlock(); S && !L.body.count(S))
            Targets.insert(S);
    if (Targets.size() == 1)
      L.exit = *Targets.begin();
  }
  for (const clang::CFGBlock *B : L.body)
    for (const clang::CFGBlock::AdjacentBlock &A : B->succs()) {
      const clang::CFGBlock *S = A.getReachableBlock();
      if (!S || S == L.header || L.body.count(S))
        continue;
      if (B == CondBlock && S == L.exit)
        continue; // a do-while's condition ending the loop
      L.leavesEarly = lastItem(B) ? lastItem(B) : Stmt;
      if (S != L.exit && S != &cfg->getExit())
        L.sideExits.insert(S);
    }
  return L;
}

void ProvenanceInterpreter::ControlFlow::findLoops() {
  // Each loop statement's back edge comes from the block that names it as
  // its loop target; the block it ends with holds its condition.
  std::map<const clang::Stmt *, const clang::CFGBlock *> Latch, CondBlock;
  for (const clang::CFGBlock *B : *cfg) {
    if (const clang::Stmt *Target = B->getLoopTarget())
      Latch.emplace(Target, B);
    if (const clang::Stmt *Terminator = B->getTerminatorStmt();
        Terminator && llvm::isa<clang::ForStmt, clang::WhileStmt, clang::DoStmt>(Terminator))
      CondBlock[Terminator] = B;
  }
  for (const auto &[Stmt, LatchBlock] : Latch) {
    auto CB = CondBlock.find(Stmt);
    if (std::optional<CfgLoop> L =
            describeLoop(Stmt, LatchBlock, CB == CondBlock.end() ? nullptr : CB->second))
      loops.push_back(std::move(*L));
  }
  for (const CfgLoop &L : loops) {
    loopAtHeader[L.header] = &L;
    for (const clang::CFGBlock *B : L.body) {
      const CfgLoop *&In = innermost[B];
      if (!In || In->body.size() > L.body.size())
        In = &L;
    }
  }
}

std::optional<std::pair<clang::SourceLocation, std::string>>
ProvenanceInterpreter::ControlFlow::orderRegion(const CfgLoop *Self, const clang::CFGBlock *Entry) {
  // Reverse post-order, checking that every block of the region is reached
  // through the region's own edges or a nested loop's header.
  std::vector<const clang::CFGBlock *> &Out = order[Self];
  std::set<const clang::CFGBlock *> Visited, OnStack;
  std::optional<std::pair<clang::SourceLocation, std::string>> Problem;
  std::function<bool(const clang::CFGBlock *)> Visit = [&](const clang::CFGBlock *N) {
    Visited.insert(N);
    OnStack.insert(N);
    std::vector<const clang::CFGBlock *> Succs;
    auto Nested = loopAtHeader.find(N);
    // A nested loop is one node, even as the region's first block (a do loop
    // at the start of a for body shares its header with the body start).
    if (Nested != loopAtHeader.end() && Nested->second != Self) {
      if (Nested->second->exit)
        Succs.push_back(Nested->second->exit);
      Succs.insert(Succs.end(), Nested->second->sideExits.begin(), Nested->second->sideExits.end());
    } else {
      for (const clang::CFGBlock::AdjacentBlock &A : N->succs())
        if (const clang::CFGBlock *S = A.getReachableBlock())
          Succs.push_back(S);
    }
    for (const clang::CFGBlock *S : Succs) {
      if (S == Entry || S == &cfg->getExit() || (Self && !Self->body.count(S)))
        continue;
      const clang::Stmt *Where = lastItem(N) ? lastItem(N) : firstItem(S);
      clang::SourceLocation At = Where ? Where->getBeginLoc() : clang::SourceLocation();
      auto In = innermost.find(S);
      const CfgLoop *Inner = In == innermost.end() ? nullptr : In->second;
      if (Inner != Self && !loopAtHeader.count(S)) {
        Problem = {At, "a jump into the body of a loop is not modelled"};
        return false;
      }
      if (OnStack.count(S)) {
        Problem = {At,
                   "a loop formed by 'goto' (not a for, while or do statement) is not modelled"};
        return false;
      }
      if (!Visited.count(S) && !Visit(S))
        return false;
    }
    OnStack.erase(N);
    Out.push_back(N);
    return true;
  };
  if (!Visit(Entry))
    return Problem;
  std::reverse(Out.begin(), Out.end());
  return std::nullopt;
}

bool ProvenanceInterpreter::buildControlFlow(const clang::Stmt *Body) {
  Flow = std::make_unique<ControlFlow>();
  const clang::FunctionDecl *Kernel = Ctx.annotations.kernel;
  auto Unsupported = [&](clang::SourceLocation At, std::string Why) {
    if (At.isInvalid())
      At = Kernel->getLocation();
    Obligation O;
    O.range = clang::SourceRange(At, At);
    O.summary = "invariants of kernel '" + Kernel->getNameAsString() + "'";
    O.unprovenReason = std::move(Why);
    Ctx.log.addObligation(std::move(O));
    return false;
  };
  Flow->cfg = clang::CFG::buildCFG(Kernel, const_cast<clang::Stmt *>(Body), &Ctx.ast,
                                   clang::CFG::BuildOptions());
  if (!Flow->cfg)
    return Unsupported(Kernel->getLocation(), "the kernel body has no control-flow graph");
  Flow->parents = std::make_unique<clang::ParentMap>(const_cast<clang::Stmt *>(Body));
  Flow->statements.insert(Body);
  collectStatements(Body, Flow->statements);
  for (const auto &[Synthetic, Original] : Flow->cfg->synthetic_stmts())
    Flow->original[Synthetic] = Original;
  Flow->findLoops();
  if (auto Problem = Flow->orderRegion(nullptr, &Flow->cfg->getEntry()))
    return Unsupported(Problem->first, Problem->second);
  for (const CfgLoop &L : Flow->loops)
    if (L.bodyStart && L.body.count(L.bodyStart))
      if (auto Problem = Flow->orderRegion(&L, L.bodyStart))
        return Unsupported(Problem->first, Problem->second);
  if (std::getenv("AVE_DUMP_CFG"))
    Flow->cfg->dump(Ctx.ast.getLangOpts(), false);
  return true;
}

void ProvenanceInterpreter::enterItem(const clang::Stmt *S, FlowState &State) {
  if (const auto *DS = llvm::dyn_cast<clang::DeclStmt>(S))
    if (auto It = Flow->original.find(DS); It != Flow->original.end())
      S = It->second;
  // The pragmas before S and before each statement enclosing it, outermost
  // first, each once per walk.
  std::vector<const clang::Stmt *> Chain;
  for (const clang::Stmt *P = S; P; P = Flow->parents->getParent(P))
    if (PragmasBefore.count(P) && !Ctx.log.enteredPragmaTarget(P))
      Chain.push_back(P);
  for (auto It = Chain.rbegin(); It != Chain.rend(); ++It) {
    Ctx.log.enterPragmaTarget(*It);
    auto [B, E] = PragmasBefore.equal_range(*It);
    for (auto P = B; P != E; ++P)
      applyPragma(*P->second, State);
  }
}

std::vector<std::vector<const Term *>>
ProvenanceInterpreter::switchFacts(const clang::CFGBlock *B, const clang::Stmt *Terminator,
                                   FlowState &State) {
  const auto *Switch = llvm::cast<clang::SwitchStmt>(Terminator);
  std::vector<std::vector<const Term *>> Facts(B->succ_size());
  const Term *V = evalInt(Switch->getCond(), State);
  if (!V)
    V = T.approximation("switch", SymbolKind::Fresh);
  auto CaseFact = [&](const clang::CaseStmt *CS) -> const Term * {
    clang::Expr::EvalResult Lo, Hi;
    if (!CS->getLHS()->EvaluateAsInt(Lo, Ctx.ast))
      return nullptr;
    const Term *L = T.constant(Lo.Val.getInt().getSExtValue());
    if (!CS->getRHS())
      return T.eq(V, L);
    if (!CS->getRHS()->EvaluateAsInt(Hi, Ctx.ast))
      return nullptr;
    return T.logicalAnd(T.ge(V, L), T.le(V, T.constant(Hi.Val.getInt().getSExtValue())));
  };
  unsigned I = 0;
  for (const clang::CFGBlock::AdjacentBlock &A : B->succs()) {
    const clang::CFGBlock *S = anySuccessor(A);
    const auto *CS = S ? llvm::dyn_cast_or_null<clang::CaseStmt>(S->getLabel()) : nullptr;
    if (CS) {
      if (const Term *F = CaseFact(CS))
        Facts[I].push_back(F);
    } else {
      // The default label, or past the switch: no case matched.
      for (const clang::SwitchCase *SC = Switch->getSwitchCaseList(); SC;
           SC = SC->getNextSwitchCase())
        if (const auto *Case = llvm::dyn_cast<clang::CaseStmt>(SC))
          if (const Term *F = CaseFact(Case))
            Facts[I].push_back(T.logicalNot(F));
    }
    ++I;
  }
  return Facts;
}

std::vector<std::vector<const Term *>> ProvenanceInterpreter::edgeFacts(const clang::CFGBlock *B,
                                                                        FlowState &State) {
  std::vector<std::vector<const Term *>> Facts(B->succ_size());
  const clang::Stmt *Terminator = B->getTerminatorStmt();
  if (!Terminator ||
      llvm::isa<clang::GotoStmt, clang::IndirectGotoStmt, clang::BreakStmt, clang::ContinueStmt>(
          Terminator))
    return Facts;
  if (llvm::isa<clang::SwitchStmt>(Terminator))
    return switchFacts(B, Terminator, State);
  if (B->succ_size() != 2)
    return Facts;
  const clang::Expr *Value = branchValue(B);
  const Term *C = Value ? evalInt(Value, State) : nullptr;
  if (!C)
    C = T.approximation("cond", SymbolKind::Fresh);
  C = T.ne(C, T.constant(0));
  Facts[0].push_back(C);
  Facts[1].push_back(T.logicalNot(C));
  return Facts;
}

void ProvenanceInterpreter::applyPragmasAtEnd(const clang::Stmt *LastItem,
                                              const clang::CFGBlock *To, FlowState &State) {
  // Falling off the end of a compound statement: the pragmas at its end.
  const clang::Stmt *Next = nullptr;
  for (const clang::CFGBlock *S = To; S && !Next;) {
    Next = firstItem(S);
    if (Next || S->succ_size() != 1 || S == &Flow->cfg->getExit())
      break;
    S = S->succ_begin()->getReachableBlock();
  }
  std::set<const clang::Stmt *> Still;
  for (const clang::Stmt *P = Next; P; P = Flow->parentOf(P))
    Still.insert(P);
  for (const clang::Stmt *P = LastItem; P; P = Flow->parentOf(P))
    if (const auto *CS = llvm::dyn_cast<clang::CompoundStmt>(P);
        CS && !Still.count(CS) && PragmasAtEnd.count(CS)) {
      auto [B, E] = PragmasAtEnd.equal_range(CS);
      for (auto It = B; It != E; ++It) {
        AppliedAtEnd.insert(It->second);
        applyPragma(*It->second, State);
      }
    }
}

void ProvenanceInterpreter::send(const clang::CFGBlock *From, const clang::Stmt *LastItem,
                                 bool Jumps, const clang::CFGBlock *To, FlowState State,
                                 const CfgLoop *Self, StatesAt &Exits, StatesAt &Pending) {
  if (!Jumps && LastItem && !PragmasAtEnd.empty())
    applyPragmasAtEnd(LastItem, To, State);
  State.from = From;
  if (To == (Self ? Self->header : nullptr) || To == &Flow->cfg->getExit() ||
      (Self ? !Self->body.count(To) : false))
    Exits[To].push_back(std::move(State));
  else
    Pending[To].push_back(std::move(State));
}

void ProvenanceInterpreter::visitNestedLoop(const clang::CFGBlock *B, const CfgLoop &L,
                                            const CfgLoop *Self, FlowState State, StatesAt &Exits,
                                            StatesAt &Pending) {
  SideExits Sides = runLoop(L, State);
  for (auto &[Target, Side] : Sides)
    send(B, L.stmt, true, Target, std::move(Side), Self, Exits, Pending);
  if (L.exit)
    send(B, L.stmt, false, L.exit, std::move(State), Self, Exits, Pending);
}

void ProvenanceInterpreter::visitElement(const clang::Stmt *S, FlowState &State) {
  enterItem(S, State);
  if (const auto *DS = llvm::dyn_cast<clang::DeclStmt>(S)) {
    for (const clang::Decl *D : DS->decls())
      if (const auto *VD = llvm::dyn_cast<clang::VarDecl>(D))
        declare(VD, State);
  } else if (const auto *Ex = llvm::dyn_cast<clang::Expr>(S)) {
    bool Standalone = Flow->statements.count(Ex);
    if (!Standalone)
      if (const auto *Full = llvm::dyn_cast_or_null<clang::FullExpr>(Flow->parents->getParent(Ex)))
        Standalone = Flow->statements.count(Full);
    if (!Standalone)
      return;
    if (!shuffleRun(Ex, State))
      eval(Ex, State);
  } else {
    return;
  }
  if (Observer)
    Observer->afterStatement(S, State);
}

void ProvenanceInterpreter::visitBlock(const clang::CFGBlock *B, const CfgLoop *Self,
                                       FlowState State, StatesAt &Exits, StatesAt &Pending) {
  auto Nested = Flow->loopAtHeader.find(B);
  if (Nested != Flow->loopAtHeader.end() && Nested->second != Self)
    return visitNestedLoop(B, *Nested->second, Self, std::move(State), Exits, Pending);
  for (const clang::CFGElement &E : *B)
    if (const clang::Stmt *S = elementStmt(E))
      visitElement(S, State);
  const clang::Stmt *Terminator = B->getTerminatorStmt();
  if (Terminator)
    enterItem(Terminator, State);
  std::vector<std::vector<const Term *>> Facts = edgeFacts(B, State);
  bool Jumps =
      Terminator &&
      llvm::isa<clang::GotoStmt, clang::IndirectGotoStmt, clang::BreakStmt, clang::ContinueStmt>(
          Terminator);
  const clang::Stmt *Last = lastItem(B);
  if (Last && llvm::isa<clang::ReturnStmt>(Last))
    Jumps = true;
  unsigned I = 0;
  for (const clang::CFGBlock::AdjacentBlock &A : B->succs()) {
    const clang::CFGBlock *S = A.getReachableBlock();
    std::vector<const Term *> &EdgeFacts = Facts[I++];
    if (!S)
      continue;
    FlowState Edge = State;
    Edge.path.insert(Edge.path.end(), EdgeFacts.begin(), EdgeFacts.end());
    send(B, Last, Jumps, S, std::move(Edge), Self, Exits, Pending);
  }
}

ProvenanceInterpreter::StatesAt ProvenanceInterpreter::walkRegion(const CfgLoop *Self,
                                                                  FlowState In) {
  StatesAt Exits, Pending;
  const std::vector<const clang::CFGBlock *> &Order = Flow->order[Self];
  if (Order.empty())
    return Exits;
  Pending[Order.front()].push_back(std::move(In));
  for (const clang::CFGBlock *B : Order) {
    auto It = Pending.find(B);
    if (It == Pending.end() || It->second.empty())
      continue; // not reached on any path
    FlowState State = joinStates(T, It->second);
    Pending.erase(It);
    visitBlock(B, Self, std::move(State), Exits, Pending);
  }
  return Exits;
}

} // namespace ave::inv
