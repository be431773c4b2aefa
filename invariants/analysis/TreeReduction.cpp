#include "TreeReduction.h"

#include "AnalysisContext.h"
#include "ConcreteEval.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/StringSet.h"

#include <map>
#include <set>

namespace ave::inv {

namespace {

const clang::Expr *indexInto(const clang::Expr *E, const clang::ValueDecl *Array) {
  const auto *Sub = llvm::dyn_cast<clang::ArraySubscriptExpr>(E->IgnoreParenImpCasts());
  if (!Sub)
    return nullptr;
  const auto *DRE = llvm::dyn_cast<clang::DeclRefExpr>(Sub->getBase()->IgnoreParenImpCasts());
  return DRE && DRE->getDecl() == Array ? Sub->getIdx() : nullptr;
}

// The accesses to Array inside one statement: how many, and how many write.
class ArrayAccesses : public clang::RecursiveASTVisitor<ArrayAccesses> {
public:
  explicit ArrayAccesses(const clang::ValueDecl *Array) : Array(Array) {}

  bool VisitArraySubscriptExpr(clang::ArraySubscriptExpr *E) {
    if (indexInto(E, Array))
      ++all;
    return true;
  }
  bool VisitBinaryOperator(clang::BinaryOperator *B) {
    if (B->isAssignmentOp() && indexInto(B->getLHS(), Array))
      ++writes;
    return true;
  }
  bool VisitUnaryOperator(clang::UnaryOperator *U) {
    if ((U->isIncrementDecrementOp() || U->getOpcode() == clang::UO_AddrOf) &&
        indexInto(U->getSubExpr(), Array))
      ++writes;
    return true;
  }
  bool VisitDeclRefExpr(clang::DeclRefExpr *E) {
    if (E->getDecl() == Array)
      ++mentions;
    return true;
  }

  unsigned all = 0, writes = 0, mentions = 0;

private:
  const clang::ValueDecl *Array;
};

ArrayAccesses accessesIn(const clang::Stmt *S, const clang::ValueDecl *Array) {
  ArrayAccesses A(Array);
  A.TraverseStmt(const_cast<clang::Stmt *>(S));
  return A;
}

bool isBarrierStmt(const clang::Stmt *S) {
  const auto *Call = llvm::dyn_cast<clang::CallExpr>(S);
  const clang::FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  return FD && FD->getIdentifier() && isBarrierCallee(FD->getName());
}

// One level's combination: a[write] = a[self] op a[read], under guards.
struct Update {
  std::vector<const clang::Expr *> guards;
  const clang::Expr *write = nullptr;
  const clang::Expr *operands[2] = {}; // the slot kept and the slot added, in either order
};

bool matchCombine(const clang::Expr *RHS, const clang::ValueDecl *Array, Update &U) {
  RHS = RHS->IgnoreParenImpCasts();
  const clang::Expr *A = nullptr, *B = nullptr;
  if (const auto *Bin = llvm::dyn_cast<clang::BinaryOperator>(RHS);
      Bin && Bin->getOpcode() == clang::BO_Add) {
    A = Bin->getLHS();
    B = Bin->getRHS();
  } else if (const auto *Call = llvm::dyn_cast<clang::CallExpr>(RHS);
             Call && Call->getNumArgs() == 2) {
    static const llvm::StringSet<> Combiners = {"fmaxf", "fminf", "fmax", "fmin", "max", "min"};
    const clang::FunctionDecl *FD = Call->getDirectCallee();
    if (!FD || !FD->getIdentifier() || !Combiners.contains(FD->getName()))
      return false;
    A = Call->getArg(0);
    B = Call->getArg(1);
  }
  if (!A || !indexInto(A, Array) || !indexInto(B, Array))
    return false;
  U.operands[0] = indexInto(A, Array);
  U.operands[1] = indexInto(B, Array);
  return true;
}

bool matchUpdate(const clang::Stmt *S, const clang::ValueDecl *Array, Update &U) {
  if (const auto *If = llvm::dyn_cast<clang::IfStmt>(S)) {
    if (If->getElse() || If->getInit() || If->getConditionVariable())
      return false;
    U.guards.push_back(If->getCond());
    const clang::Stmt *Then = If->getThen();
    if (const auto *C = llvm::dyn_cast<clang::CompoundStmt>(Then)) {
      if (C->size() != 1)
        return false;
      Then = C->body_front();
    }
    return matchUpdate(Then, Array, U);
  }
  const auto *Assign = llvm::dyn_cast<clang::BinaryOperator>(S);
  if (!Assign || !(U.write = indexInto(Assign->getLHS(), Array)))
    return false;
  if (Assign->getOpcode() == clang::BO_AddAssign) {
    U.operands[0] = U.write;
    U.operands[1] = indexInto(Assign->getRHS(), Array);
    return U.operands[1] != nullptr;
  }
  return Assign->getOpcode() == clang::BO_Assign && matchCombine(Assign->getRHS(), Array, U);
}

struct TreeLoop {
  const clang::ForStmt *loop = nullptr;
  const clang::VarDecl *counter = nullptr;
  Update update;
  // Subscripts of the array in the combination: 2 for `a[w] += a[r]`, 3
  // for `a[w] = a[w] + a[r]`.
  unsigned subscripts() const { return update.operands[0] == update.write ? 2 : 3; }
};

// The tree's loop: one counter declared in its init, a body of integer
// declarations, the combination and a final barrier.
std::optional<TreeLoop> matchTree(const clang::ForStmt *F, const clang::ValueDecl *Array) {
  const auto *Init = llvm::dyn_cast_or_null<clang::DeclStmt>(F->getInit());
  const auto *Body = llvm::dyn_cast_or_null<clang::CompoundStmt>(F->getBody());
  if (!Init || !Init->isSingleDecl() || !Body || Body->size() < 2 || !F->getCond() || !F->getInc())
    return std::nullopt;
  TreeLoop T;
  T.loop = F;
  T.counter = llvm::dyn_cast<clang::VarDecl>(Init->getSingleDecl());
  if (!T.counter || !T.counter->getInit() || !T.counter->getType()->isIntegerType() ||
      !isBarrierStmt(Body->body_back()))
    return std::nullopt;
  bool Matched = false;
  for (const clang::Stmt *S : Body->body()) {
    if (S == Body->body_back())
      break;
    if (const auto *DS = llvm::dyn_cast<clang::DeclStmt>(S)) {
      for (const clang::Decl *D : DS->decls()) {
        const auto *V = llvm::dyn_cast<clang::VarDecl>(D);
        if (!V || !V->getType()->isIntegerType() || !V->getInit())
          return std::nullopt;
      }
      continue;
    }
    if (Matched || !matchUpdate(S, Array, T.update))
      return std::nullopt;
    Matched = true;
  }
  if (!Matched)
    return std::nullopt;
  return T;
}

using Multiset = std::map<unsigned, unsigned>; // thread -> times

// The tree run slot by slot over one block of a fixed shape.
class TreeRun {
public:
  TreeRun(clang::ASTContext &Ast, const clang::FunctionDecl &Kernel, const clang::ValueDecl *Array,
          const int64_t Block[3])
      : Ast(Ast), Eval(Ast, Kernel.getBody()), Array(Array) {
    for (int D = 0; D < 3; ++D)
      this->Block[D] = Block[D];
    Threads = static_cast<unsigned>(Block[0] * Block[1] * Block[2]);
  }

  std::string fill(const clang::Expr *Index);
  std::string level(const TreeLoop &T, int64_t Stride);
  std::string run(const TreeLoop &T);
  std::string readSlot(const clang::Expr *Index, int64_t &Slot);
  const Multiset *slot(int64_t S) const {
    auto It = Slots.find(S);
    return It == Slots.end() ? nullptr : &It->second;
  }
  unsigned threads() const { return Threads; }

private:
  void enter(unsigned Flat) {
    int64_t Tid[3] = {Flat % Block[0], Flat / Block[0] % Block[1], Flat / (Block[0] * Block[1])};
    Eval.setThread(Tid, Block);
  }
  std::string slotProblem(int64_t S) const;

  clang::ASTContext &Ast;
  ConcreteEval Eval;
  const clang::ValueDecl *Array;
  int64_t Block[3] = {1, 1, 1};
  unsigned Threads = 1;
  std::map<int64_t, Multiset> Slots; // a slot some thread wrote -> what it holds
};

std::string TreeRun::slotProblem(int64_t S) const {
  if (S < 0)
    return "slot " + std::to_string(S) + " is outside the array";
  if (const auto *CA = Ast.getAsConstantArrayType(Array->getType());
      CA && S >= static_cast<int64_t>(CA->getSize().getZExtValue()))
    return "slot " + std::to_string(S) + " is outside the array";
  return "";
}

std::string TreeRun::fill(const clang::Expr *Index) {
  Slots.clear();
  for (unsigned T = 0; T < Threads; ++T) {
    enter(T);
    std::optional<int64_t> S = Eval.eval(Index);
    if (!S)
      return "the slot each thread fills cannot be evaluated per thread";
    if (std::string P = slotProblem(*S); !P.empty())
      return "a thread fills " + P;
    if (!Slots[*S].empty())
      return "two threads fill slot " + std::to_string(*S);
    Slots[*S][T] = 1;
  }
  return "";
}

std::string TreeRun::level(const TreeLoop &T, int64_t Stride) {
  std::map<int64_t, std::pair<unsigned, int64_t>> Writes; // slot -> (thread, slot added)
  std::map<int64_t, unsigned> Reads;                      // slot -> a thread reading it
  for (unsigned Th = 0; Th < Threads; ++Th) {
    enter(Th);
    Eval.bind(T.counter, Stride);
    bool Active = true;
    for (const clang::Expr *G : T.update.guards) {
      std::optional<int64_t> V = Eval.eval(G);
      if (!V)
        return "its guard depends on more than the thread ids, the block shape and constants";
      Active = Active && *V != 0;
    }
    if (!Active)
      continue;
    std::optional<int64_t> W = Eval.eval(T.update.write), A = Eval.eval(T.update.operands[0]),
                           B = Eval.eval(T.update.operands[1]);
    if (!W || !A || !B)
      return "a slot it combines cannot be evaluated per thread";
    if (*A != *W && *B != *W)
      return "a level writes a slot it does not combine";
    int64_t Added = *A == *W ? *B : *A;
    for (int64_t S : {*W, Added}) {
      if (std::string P = slotProblem(S); !P.empty())
        return "a level reads " + P;
      if (!Slots.count(S))
        return "a level reads slot " + std::to_string(S) + ", which no thread wrote";
    }
    if (!Writes.emplace(*W, std::make_pair(Th, Added)).second)
      return "two threads write slot " + std::to_string(*W) + " in one level";
    Reads.emplace(Added, Th);
  }
  for (const auto &[S, Reader] : Reads)
    if (auto It = Writes.find(S); It != Writes.end() && It->second.first != Reader)
      return "slot " + std::to_string(S) + " is read and written by different threads in one level";
  std::map<int64_t, Multiset> Next = Slots;
  for (const auto &[S, WA] : Writes)
    for (const auto &[Thread, Times] : Slots.at(WA.second))
      Next[S][Thread] += Times;
  Slots = std::move(Next);
  return "";
}

std::string TreeRun::run(const TreeLoop &T) {
  enter(0);
  std::optional<int64_t> Stride = Eval.eval(T.counter->getInit());
  for (unsigned Level = 0;; ++Level) {
    if (!Stride)
      return "its counter cannot be evaluated";
    if (Level > 64)
      return "it runs more than 64 levels";
    enter(0);
    Eval.bind(T.counter, *Stride);
    std::optional<int64_t> Go = Eval.eval(T.loop->getCond());
    enter(Threads - 1);
    Eval.bind(T.counter, *Stride);
    if (!Go || Eval.eval(T.loop->getCond()) != Go)
      return "its condition differs between threads or cannot be evaluated";
    if (!*Go)
      return "";
    if (std::string Why = level(T, *Stride); !Why.empty())
      return Why;
    enter(0);
    Eval.bind(T.counter, *Stride);
    Stride = Eval.afterIncrement(T.loop->getInc(), T.counter);
  }
}

std::string TreeRun::readSlot(const clang::Expr *Index, int64_t &Slot) {
  for (unsigned T = 0; T < Threads; ++T) {
    enter(T);
    std::optional<int64_t> S = Eval.eval(Index);
    if (!S || (T > 0 && *S != Slot))
      return "the slot read after it is not one slot for every thread";
    Slot = *S;
  }
  return slot(Slot) ? "" : "the slot read after it was never written";
}

// The slots read in S, each of which must be the one slot the tree left.
class SlotReads : public clang::RecursiveASTVisitor<SlotReads> {
public:
  explicit SlotReads(const clang::ValueDecl *Array) : Array(Array) {}
  bool VisitArraySubscriptExpr(clang::ArraySubscriptExpr *E) {
    if (const clang::Expr *I = indexInto(E, Array))
      indices.push_back(I);
    return true;
  }
  std::vector<const clang::Expr *> indices;

private:
  const clang::ValueDecl *Array;
};

// The kernel body's top-level statements that touch Array, in order: a
// fill, a barrier, a tree, reads of its result; again for another tree.
class TreeSequence {
public:
  TreeSequence(clang::ASTContext &Ast, const clang::FunctionDecl &Kernel,
               const clang::ValueDecl *Array, const int64_t Block[3])
      : Run(Ast, Kernel, Array, Block), Array(Array) {}

  // Why the statement leaves the tree not followed; empty if it does not.
  std::string step(const clang::Stmt *S);
  // What was met before a statement left the tree not followed (Why).
  TreeCombination stopped(std::string Why) {
    Result.unmodelled = std::move(Why);
    Result.times.clear();
    return Result;
  }
  // The combination the reads after every tree saw.
  TreeCombination result() {
    if (Result.unmodelled.empty() && Result.times.empty())
      Result.unmodelled = "no tree over it is read";
    return Result;
  }

private:
  std::string read(const clang::Stmt *S);

  TreeRun Run;
  const clang::ValueDecl *Array;
  bool Filled = false, Synced = false, Combined = false;
  TreeCombination Result;
};

std::string TreeSequence::step(const clang::Stmt *S) {
  if (isBarrierStmt(S)) {
    Synced = true;
    return "";
  }
  ArrayAccesses A = accessesIn(S, Array);
  if (A.mentions == 0)
    return "";
  if (A.mentions != A.all)
    return "its address is taken or handed on";
  const auto *Assign = llvm::dyn_cast<clang::BinaryOperator>(S);
  if (Assign && Assign->getOpcode() == clang::BO_Assign && A.all == 1 && A.writes == 1 &&
      indexInto(Assign->getLHS(), Array)) {
    Filled = true;
    Synced = Combined = false;
    Result.fills.push_back(S);
    return Run.fill(indexInto(Assign->getLHS(), Array));
  }
  if (const auto *F = llvm::dyn_cast<clang::ForStmt>(S)) {
    if (std::optional<TreeLoop> Tree = matchTree(F, Array)) {
      Result.treeMatched = true;
      if (!Filled || !Synced || Combined)
        return "a fill of one slot per thread and a barrier do not come right before its tree";
      if (A.all != Tree->subscripts() || A.writes != 1)
        return "its tree's loop touches the array outside the combination";
      if (std::string Why = Run.run(*Tree); !Why.empty())
        return "its tree is not followed: " + Why;
      Combined = true;
      return "";
    }
  }
  if (A.writes != 0)
    return "it is written by a statement that is neither a fill of one slot per thread nor a "
           "tree level";
  if (Combined)
    return read(S);
  Result.filledSlotsRead = Result.filledSlotsRead || Filled; // a read before the tree
  return "";
}

std::string TreeSequence::read(const clang::Stmt *S) {
  SlotReads Reads(Array);
  Reads.TraverseStmt(const_cast<clang::Stmt *>(S));
  for (const clang::Expr *Index : Reads.indices) {
    int64_t Slot = 0;
    if (std::string Why = Run.readSlot(Index, Slot); !Why.empty())
      return Why;
    std::vector<unsigned> Times(Run.threads(), 0);
    for (const auto &[Thread, N] : *Run.slot(Slot))
      Times[Thread] = N;
    if (!Result.times.empty() && Result.times != Times)
      return "its trees combine the threads differently";
    Result.times = std::move(Times);
    Result.slot = Slot;
  }
  return "";
}

} // namespace

TreeCombination combineTree(clang::ASTContext &Ast, const clang::FunctionDecl &Kernel,
                            const clang::ValueDecl *Array, const std::optional<int64_t> Block[3]) {
  TreeCombination Out;
  int64_t Shape[3];
  for (int D = 0; D < 3; ++D) {
    if (!Block[D] || *Block[D] < 1) {
      Out.unmodelled = "the block shape is not fixed by a launch pragma";
      return Out;
    }
    Shape[D] = *Block[D];
  }
  const auto *Body = llvm::dyn_cast_or_null<clang::CompoundStmt>(Kernel.getBody());
  if (Shape[0] * Shape[1] * Shape[2] > 4096 || !Body) {
    Out.unmodelled = "the block has more than 4096 threads";
    return Out;
  }
  TreeSequence Sequence(Ast, Kernel, Array, Shape);
  for (const clang::Stmt *S : Body->body())
    if (std::string Why = Sequence.step(S); !Why.empty())
      return Sequence.stopped(std::move(Why));
  return Sequence.result();
}

} // namespace ave::inv
