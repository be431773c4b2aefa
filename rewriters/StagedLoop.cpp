// Recognising the staged form (StagedLoop.h). Every check here guards one
// way the rewritten loop would compute something else: the region is run
// again for other tiles (so it may depend only on the counter and on values
// the loop does not change, and may write nothing but the staged elements),
// and the staged arrays get a stage dimension (so every use of them must be
// in this loop, as an element access).

#include "StagedLoop.h"

#include "LoopMemory.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"

#include <algorithm>
#include <optional>
#include <set>

namespace ave::rw {

const clang::VarDecl *varOf(const clang::Expr *E) {
  const auto *Ref = llvm::dyn_cast_or_null<clang::DeclRefExpr>(E ? E->IgnoreParenImpCasts() : E);
  return Ref ? llvm::dyn_cast<clang::VarDecl>(Ref->getDecl()) : nullptr;
}

const clang::VarDecl *subscriptedArray(const clang::Expr *E) {
  const auto *Sub = llvm::dyn_cast<clang::ArraySubscriptExpr>(E->IgnoreParens());
  while (Sub) {
    const clang::Expr *Base = Sub->getBase()->IgnoreParenImpCasts();
    if (const auto *Inner = llvm::dyn_cast<clang::ArraySubscriptExpr>(Base)) {
      Sub = Inner;
      continue;
    }
    return varOf(Base);
  }
  return nullptr;
}

namespace {

std::optional<int64_t> constantOf(const clang::ASTContext &Ctx, const clang::Expr *E) {
  clang::Expr::EvalResult R;
  if (!E || E->isValueDependent() || !E->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  return R.Val.getInt().getExtValue();
}

bool isShared(const clang::VarDecl *VD) { return VD && VD->hasAttr<clang::CUDASharedAttr>(); }

// What a statement writes: `Target` names the written thing of an lvalue
// (the variable itself, or the array an element belongs to). Assignments,
// ++/-- and (with AddressTaken) `&` count as writes.
template <const clang::VarDecl *(*Target)(const clang::Expr *), bool AddressTaken>
std::set<const clang::VarDecl *> writtenIn(const clang::Stmt *S) {
  struct Writes : clang::RecursiveASTVisitor<Writes> {
    std::set<const clang::VarDecl *> found;
    void note(const clang::Expr *E) {
      if (const clang::VarDecl *VD = Target(E))
        found.insert(VD);
    }
    bool VisitBinaryOperator(clang::BinaryOperator *B) {
      if (B->isAssignmentOp())
        note(B->getLHS());
      return true;
    }
    bool VisitUnaryOperator(clang::UnaryOperator *U) {
      if (U->isIncrementDecrementOp() || (AddressTaken && U->getOpcode() == clang::UO_AddrOf))
        note(U->getSubExpr());
      return true;
    }
    bool VisitCXXOperatorCallExpr(clang::CXXOperatorCallExpr *C) {
      if (C->isAssignmentOp() && C->getNumArgs() > 0)
        note(C->getArg(0)); // `h = x` of a class element
      return true;
    }
  } W;
  W.TraverseStmt(const_cast<clang::Stmt *>(S));
  return W.found;
}

// Variables a statement assigns, increments or takes the address of.
std::set<const clang::VarDecl *> assignedIn(const clang::Stmt *S) {
  return writtenIn<varOf, true>(S);
}

// Arrays a statement writes an element of (`A[i] = v`, `A[i] += v`, ++A[i]).
std::set<const clang::VarDecl *> arraysWrittenIn(const clang::Stmt *S) {
  return writtenIn<subscriptedArray, false>(S);
}

// The step of `for (...; ...; v += c)` or `++v`/`v++`, when a constant.
std::optional<int64_t> stepOf(const clang::ASTContext &Ctx, const clang::Expr *Inc,
                              const clang::VarDecl *Var) {
  if (const auto *U = llvm::dyn_cast_or_null<clang::UnaryOperator>(Inc);
      U && U->isIncrementOp() && varOf(U->getSubExpr()) == Var)
    return 1;
  if (const auto *B = llvm::dyn_cast_or_null<clang::CompoundAssignOperator>(Inc);
      B && B->getOpcode() == clang::BO_AddAssign && varOf(B->getLHS()) == Var)
    return constantOf(Ctx, B->getRHS());
  return std::nullopt;
}

// Variables a statement reads (by name).
struct Referenced : clang::RecursiveASTVisitor<Referenced> {
  std::vector<const clang::DeclRefExpr *> refs;
  bool VisitDeclRefExpr(clang::DeclRefExpr *Ref) {
    refs.push_back(Ref);
    return true;
  }
};

std::vector<const clang::DeclRefExpr *> referencesIn(const clang::Stmt *S) {
  Referenced R;
  R.TraverseStmt(const_cast<clang::Stmt *>(S));
  return R.refs;
}

struct Finder {
  clang::ASTContext &ctx;
  StagedLoop &loop;
  std::vector<const clang::ForStmt *> enclosing; // region loops around the walk
  std::set<const clang::VarDecl *> declared;     // locals the region declares
  StagedLoopRefusal refusal;

  bool refuse(clang::SourceLocation Loc, std::string Why) {
    if (refusal.reason.empty())
      refusal = {Loc, std::move(Why)};
    return false;
  }

  bool regionStatement(const clang::Stmt *S);
  bool regionLoop(const clang::ForStmt *For);
  bool regionExpression(const clang::Expr *E);
  bool regionCalls(const clang::Stmt *S);
};

// `x = y` of a class whose copy assignment the compiler provides.
bool isCopyAssignment(const clang::Expr *E) {
  const auto *OCE = llvm::dyn_cast<clang::CXXOperatorCallExpr>(E);
  if (!OCE || OCE->getOperator() != clang::OO_Equal || OCE->getNumArgs() != 2)
    return false;
  const auto *MD = llvm::dyn_cast_or_null<clang::CXXMethodDecl>(OCE->getDirectCallee());
  return MD && (MD->isTrivial() || MD->isExplicitlyDefaulted());
}

// A read of threadIdx, blockIdx, blockDim or gridDim: a member (getter or
// conversion) of the runtime's index type (HIP's __HIP_Coordinates<F>::__X,
// CUDA's __cuda_builtin_blockIdx_t).
bool isBuiltinIndexRead(const clang::FunctionDecl *F) {
  const auto *Method = llvm::dyn_cast_or_null<clang::CXXMethodDecl>(F);
  if (!Method)
    return false;
  const std::string Type = Method->getParent()->getQualifiedNameAsString();
  return llvm::StringRef(Type).starts_with("__HIP_Coordinates") ||
         llvm::StringRef(Type).contains("_builtin_");
}

bool Finder::regionCalls(const clang::Stmt *S) {
  struct Calls : clang::RecursiveASTVisitor<Calls> {
    const clang::CallExpr *other = nullptr;
    bool VisitCallExpr(clang::CallExpr *C) {
      const clang::FunctionDecl *F = C->getDirectCallee();
      bool Pure = isBuiltinIndexRead(F) ||
                  (F && F->getIdentifier() &&
                   (F->getName() == "__ldg" || F->getName() == "min" || F->getName() == "max"));
      if (!Pure && !other)
        other = C;
      return true;
    }
  } C;
  C.TraverseStmt(const_cast<clang::Stmt *>(S));
  if (!C.other)
    return true;
  const clang::FunctionDecl *F = C.other->getDirectCallee();
  return refuse(
      C.other->getBeginLoc(),
      "the staged loads call " +
          (F && F->getIdentifier() ? "'" + F->getName().str() + "'" : std::string("a function")) +
          ", which the prefetch would run again for another tile");
}

bool Finder::regionExpression(const clang::Expr *E) {
  E = E->IgnoreParens();
  const clang::Expr *Lhs = nullptr, *Rhs = nullptr;
  if (const auto *B = llvm::dyn_cast<clang::BinaryOperator>(E);
      B && B->getOpcode() == clang::BO_Assign) {
    Lhs = B->getLHS();
    Rhs = B->getRHS();
  } else if (isCopyAssignment(E)) {
    Lhs = llvm::cast<clang::CXXOperatorCallExpr>(E)->getArg(0);
    Rhs = llvm::cast<clang::CXXOperatorCallExpr>(E)->getArg(1);
  } else {
    return refuse(E->getBeginLoc(), "a statement before the first barrier is not a store "
                                    "`shared[...] = value` (only those are prefetched)");
  }
  const clang::VarDecl *Array = subscriptedArray(Lhs);
  if (!isShared(Array))
    return refuse(E->getBeginLoc(), "a statement before the first barrier stores into "
                                    "something other than an element of a __shared__ array");
  if (!regionCalls(Lhs) || !regionCalls(Rhs))
    return false;
  loop.stores.push_back({E, Lhs, Rhs, Array, enclosing});
  if (std::find(loop.arrays.begin(), loop.arrays.end(), Array) == loop.arrays.end())
    loop.arrays.push_back(Array);
  return true;
}

bool Finder::regionLoop(const clang::ForStmt *For) {
  // `for (int i = c0; i < c1; i += c2)` with constants: one register per
  // iteration.
  RegionLoop R;
  const auto *Init = llvm::dyn_cast_or_null<clang::DeclStmt>(For->getInit());
  const auto *Var = Init && Init->isSingleDecl()
                        ? llvm::dyn_cast<clang::VarDecl>(Init->getSingleDecl())
                        : nullptr;
  const auto *Cond = llvm::dyn_cast_or_null<clang::BinaryOperator>(For->getCond());
  std::optional<int64_t> Start = Var ? constantOf(ctx, Var->getInit()) : std::nullopt;
  std::optional<int64_t> End =
      Cond && Cond->getOpcode() == clang::BO_LT && varOf(Cond->getLHS()) == Var
          ? constantOf(ctx, Cond->getRHS())
          : std::nullopt;
  std::optional<int64_t> Step = stepOf(ctx, For->getInc(), Var);
  if (!Start || !End || !Step || *Step <= 0 || assignedIn(For->getBody()).count(Var))
    return refuse(For->getBeginLoc(), "a loop among the staged loads has no constant trip count "
                                      "(for (int i = c0; i < c1; i += c2)), so its loads cannot "
                                      "be held in registers");
  R.counter = Var;
  R.init = *Start;
  R.step = *Step;
  R.trips = *End > *Start ? (*End - *Start + *Step - 1) / *Step : 0;
  if (R.trips > 64)
    return refuse(For->getBeginLoc(), "a loop among the staged loads runs " +
                                          std::to_string(R.trips) +
                                          " times; holding that many loads in registers is "
                                          "not attempted (at most 64)");
  loop.regionLoops[For] = R;
  declared.insert(Var);
  enclosing.push_back(For);
  bool Ok = regionStatement(For->getBody());
  enclosing.pop_back();
  return Ok;
}

bool Finder::regionStatement(const clang::Stmt *S) {
  if (!S || llvm::isa<clang::NullStmt>(S))
    return true;
  if (const auto *C = llvm::dyn_cast<clang::CompoundStmt>(S)) {
    for (const clang::Stmt *Child : C->body())
      if (!regionStatement(Child))
        return false;
    return true;
  }
  if (const auto *D = llvm::dyn_cast<clang::DeclStmt>(S)) {
    for (const clang::Decl *Decl : D->decls())
      if (const auto *VD = llvm::dyn_cast<clang::VarDecl>(Decl)) {
        if (isShared(VD) || VD->isStaticLocal())
          return refuse(VD->getLocation(), "a shared or static variable is declared among the "
                                           "staged loads");
        declared.insert(VD);
      }
    return regionCalls(D);
  }
  if (const auto *If = llvm::dyn_cast<clang::IfStmt>(S)) {
    if (If->getInit() || If->getConditionVariable())
      return refuse(If->getBeginLoc(), "an if with an initializer among the staged loads");
    return regionCalls(If->getCond()) && regionStatement(If->getThen()) &&
           regionStatement(If->getElse());
  }
  if (const auto *For = llvm::dyn_cast<clang::ForStmt>(S))
    return regionLoop(For);
  if (const auto *E = llvm::dyn_cast<clang::Expr>(S))
    return regionExpression(E);
  return refuse(S->getBeginLoc(), std::string("a '") + S->getStmtClassName() +
                                      "' among the staged loads is not one the prefetch can copy");
}

// Break, continue, return or goto that would leave the loop or skip its end.
const clang::Stmt *jumpOut(const clang::Stmt *S, bool InInnerLoop) {
  if (!S)
    return nullptr;
  if (llvm::isa<clang::ReturnStmt, clang::GotoStmt, clang::IndirectGotoStmt>(S))
    return S;
  if (!InInnerLoop && llvm::isa<clang::BreakStmt, clang::ContinueStmt>(S))
    return S;
  bool Inner = InInnerLoop || llvm::isa<clang::ForStmt, clang::WhileStmt, clang::DoStmt,
                                        clang::SwitchStmt, clang::CXXForRangeStmt>(S);
  for (const clang::Stmt *Child : S->children())
    if (const clang::Stmt *J = jumpOut(Child, Inner))
      return J;
  return nullptr;
}

bool containsBarrier(const clang::Stmt *S) {
  if (!S)
    return false;
  if (isBarrierStatement(S))
    return true;
  for (const clang::Stmt *Child : S->children())
    if (containsBarrier(Child))
      return true;
  return false;
}

// The header `for (v = a; v < b; v += c)`: fills Loop's counter, init,
// bound and step, or says why not.
std::string readHeader(clang::ASTContext &Ctx, const clang::ForStmt *For, StagedLoop &Loop) {
  if (const auto *D = llvm::dyn_cast_or_null<clang::DeclStmt>(For->getInit());
      D && D->isSingleDecl())
    if (const auto *VD = llvm::dyn_cast<clang::VarDecl>(D->getSingleDecl()); VD && VD->getInit()) {
      Loop.counter = VD;
      Loop.init = VD->getInit();
    }
  if (const auto *B = llvm::dyn_cast_or_null<clang::BinaryOperator>(For->getInit());
      B && B->getOpcode() == clang::BO_Assign && varOf(B->getLHS())) {
    Loop.counter = varOf(B->getLHS());
    Loop.init = B->getRHS();
  }
  Loop.loop = For;
  if (!Loop.counter || !Loop.counter->getType()->isIntegerType())
    return "the loop does not start an integer counter (for (int v = a; ...))";
  const auto *Cond = llvm::dyn_cast_or_null<clang::BinaryOperator>(
      For->getCond() ? For->getCond()->IgnoreParenImpCasts() : nullptr);
  if (!Cond || (Cond->getOpcode() != clang::BO_LT && Cond->getOpcode() != clang::BO_LE) ||
      varOf(Cond->getLHS()) != Loop.counter)
    return "the loop's condition is not `counter < bound` or `counter <= bound`";
  Loop.bound = Cond->getRHS();
  Loop.inclusive = Cond->getOpcode() == clang::BO_LE;
  std::optional<int64_t> Step = stepOf(Ctx, For->getInc(), Loop.counter);
  if (!Step || *Step <= 0)
    return "the loop's step is not a positive constant (v += c, ++v)";
  Loop.step = *Step;
  return "";
}

// The body split at its barriers: region, first barrier, compute, last.
std::string splitBody(const clang::ForStmt *For, StagedLoop &Loop) {
  const auto *Body = llvm::dyn_cast<clang::CompoundStmt>(For->getBody());
  if (!Body || Body->body_empty() || !isBarrierStatement(Body->body_back()))
    return "the loop body does not end with __syncthreads()";
  Loop.lastBarrier = Body->body_back();
  for (const clang::Stmt *S : Body->body()) {
    if (S == Loop.lastBarrier)
      break;
    if (!Loop.firstBarrier && isBarrierStatement(S)) {
      Loop.firstBarrier = S;
      continue;
    }
    if (!Loop.firstBarrier && containsBarrier(S))
      return "a barrier inside a statement before the first __syncthreads()";
    (Loop.firstBarrier ? Loop.compute : Loop.region).push_back(S);
  }
  if (!Loop.firstBarrier || Loop.region.empty())
    return "the loop body is not `stores; __syncthreads(); compute; __syncthreads();`";
  for (const clang::Stmt *S : Loop.compute)
    if (containsBarrier(S))
      return "the compute between the barriers has a barrier of its own";
  if (const clang::Stmt *J = jumpOut(Body, false))
    return std::string("the body can leave the iteration early (a ") +
           (llvm::isa<clang::BreakStmt>(J)      ? "break"
            : llvm::isa<clang::ContinueStmt>(J) ? "continue"
            : llvm::isa<clang::ReturnStmt>(J)   ? "return"
                                                : "goto") +
           ")";
  return "";
}

// What the loop may change: the region reads none of it but the counter,
// the counter and bound change only by the header, and the compute writes
// no staged array and reads no variable the region declares.
bool checkDependences(Finder &F, const clang::ForStmt *For) {
  StagedLoop &Loop = F.loop;
  std::set<const clang::VarDecl *> Changed = assignedIn(For->getBody());
  if (Changed.count(Loop.counter))
    return F.refuse(For->getBeginLoc(),
                    "the body changes the counter '" + Loop.counter->getName().str() + "'");
  for (const clang::DeclRefExpr *Ref : referencesIn(Loop.bound))
    if (const auto *VD = llvm::dyn_cast<clang::VarDecl>(Ref->getDecl()); Changed.count(VD))
      return F.refuse(Ref->getLocation(),
                      "the bound reads '" + VD->getName().str() + "', which the body changes");
  for (const clang::Stmt *S : Loop.region)
    for (const clang::DeclRefExpr *Ref : referencesIn(S))
      if (const auto *VD = llvm::dyn_cast<clang::VarDecl>(Ref->getDecl());
          VD && !F.declared.count(VD) && VD != Loop.counter && Changed.count(VD))
        return F.refuse(Ref->getLocation(), "the staged loads read '" + VD->getName().str() +
                                                "', which the loop changes: the prefetch of a "
                                                "later tile cannot know its value");
  for (const clang::Stmt *S : Loop.compute) {
    for (const clang::DeclRefExpr *Ref : referencesIn(S))
      if (const auto *VD = llvm::dyn_cast<clang::VarDecl>(Ref->getDecl()); F.declared.count(VD))
        return F.refuse(Ref->getLocation(), "the compute reads '" + VD->getName().str() +
                                                "', declared among the staged loads");
    for (const clang::VarDecl *VD : arraysWrittenIn(S))
      if (std::find(Loop.arrays.begin(), Loop.arrays.end(), VD) != Loop.arrays.end())
        return F.refuse(S->getBeginLoc(),
                        "the compute writes the staged array '" + VD->getName().str() + "'");
  }
  return true;
}

// Whether a write of object W may change what a read of object R sees. An
// unknown write (null) reaches every array and pointee, not a scalar whose
// address the kernel never takes (such a write names it).
bool mayMeet(MemoryObject W, MemoryObject R) {
  if (!W && R)
    return R->getType()->isPointerType() || R->getType()->isArrayType() ||
           R->getType()->isReferenceType();
  return !W || !R || W == R;
}

// The staged loads run S - 1 tiles early in the pipelined loop (and once
// per tile in a regenerated one): they may read no memory the loop's
// compute writes (a global tile the compute stores back, another
// __shared__ array it updates), since the early load would see the value
// from before that write.
bool checkMemoryDependences(Finder &F, const clang::FunctionDecl &Kernel) {
  const StagedLoop &Loop = F.loop;
  LoopMemory Memory(Kernel);
  std::vector<MemoryWrite> Writes;
  for (const clang::Stmt *S : Loop.compute)
    for (const MemoryWrite &W : Memory.writtenIn(S))
      Writes.push_back(W);
  const clang::SourceManager &SM = F.ctx.getSourceManager();
  for (const clang::Stmt *S : Loop.region)
    for (const MemoryRead &R : Memory.readIn(S)) {
      if (R.object &&
          std::find(Loop.arrays.begin(), Loop.arrays.end(), R.object) != Loop.arrays.end())
        continue; // the staged arrays themselves
      for (const MemoryWrite &W : Writes) {
        if (!mayMeet(W.object, R.object))
          continue;
        std::string Named = R.name->getDecl()->getName().str();
        std::string What =
            R.object ? "'" + R.object->getName().str() + "'" +
                           (R.object == R.name->getDecl() ? "" : " (through '" + Named + "')")
                     : "memory through '" + Named + "', an address not followed";
        std::string How = W.object ? "writes" : "may write (through an address not followed)";
        unsigned Line = SM.getExpansionLineNumber(W.at->getBeginLoc());
        return F.refuse(R.name->getLocation(),
                        "the staged loads read " + What + ", which the loop's compute " + How +
                            " at line " + std::to_string(Line) +
                            ": a load moved to an earlier iteration would read the value from "
                            "before that write");
      }
    }
  return true;
}

// Every use of a staged array lies in the loop body (its accesses get the
// stage), as an element access in every dimension.
bool checkArrayUses(Finder &F, const clang::FunctionDecl &Kernel) {
  clang::SourceManager &SM = F.ctx.getSourceManager();
  clang::SourceRange Body = F.loop.loop->getBody()->getSourceRange();
  for (const clang::VarDecl *Array : F.loop.arrays) {
    if (!F.ctx.getAsConstantArrayType(Array->getType()) || Array->hasExternalStorage())
      return F.refuse(Array->getLocation(),
                      "the staged array '" + Array->getName().str() + "' is not a static array");
    for (const clang::DeclRefExpr *Ref : referencesIn(Kernel.getBody())) {
      if (Ref->getDecl() != Array)
        continue;
      clang::SourceLocation L = SM.getExpansionLoc(Ref->getLocation());
      if (SM.isBeforeInTranslationUnit(L, SM.getExpansionLoc(Body.getBegin())) ||
          SM.isBeforeInTranslationUnit(SM.getExpansionLoc(Body.getEnd()), L))
        return F.refuse(Ref->getLocation(), "the staged array '" + Array->getName().str() +
                                                "' is used outside the loop");
    }
  }
  return true;
}

} // namespace

StagedLoopSearch findStagedLoops(clang::ASTContext &Ctx, const clang::FunctionDecl &Kernel) {
  struct Loops : clang::RecursiveASTVisitor<Loops> {
    std::vector<const clang::ForStmt *> found;
    bool VisitForStmt(clang::ForStmt *For) {
      if (containsBarrier(For->getBody()))
        found.push_back(For);
      return true;
    }
  } All;
  All.TraverseStmt(Kernel.getBody());
  StagedLoopSearch Out;
  for (const clang::ForStmt *For : All.found) {
    StagedLoop Loop;
    Finder F{Ctx, Loop, {}, {}, {}};
    std::string Why = readHeader(Ctx, For, Loop);
    if (Why.empty())
      Why = splitBody(For, Loop);
    if (!Why.empty()) {
      Out.refusals.push_back({For->getBeginLoc(), Why});
      continue;
    }
    bool Ok = true;
    for (const clang::Stmt *S : Loop.region)
      Ok = Ok && F.regionStatement(S);
    Ok = Ok && checkDependences(F, For) && checkMemoryDependences(F, Kernel) &&
         checkArrayUses(F, Kernel);
    if (!Ok) {
      Out.refusals.push_back(F.refusal);
      continue;
    }
    Out.loops.push_back(std::move(Loop));
  }
  return Out;
}

bool isBarrierStatement(const clang::Stmt *S) {
  const auto *Call = llvm::dyn_cast_or_null<clang::CallExpr>(S);
  const clang::FunctionDecl *F = Call ? Call->getDirectCallee() : nullptr;
  return F && F->getIdentifier() && F->getName() == "__syncthreads";
}

} // namespace ave::rw
