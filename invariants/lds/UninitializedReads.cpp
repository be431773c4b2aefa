// ave-lds-uninitialized: a shared-memory read that no write of the block can
// have produced. For each read, every write of the same array that can come
// before it (earlier in program order, or in an earlier iteration of a loop
// around both) is asked whether some thread writes the element some thread
// reads. Only when every such question is answered "no" is the read
// reported; an unknown answer, an index the analysis does not follow, or an
// array whose address escapes (passed to a call, written by an atomic or in
// code the interpreter does not log) keeps the check silent.

#include "ave/invariants/KernelAnalysis.h"
#include "ave/invariants/lds/SharedMemoryChecks.h"
#include "ave/invariants/lds/ThreadPair.h"

#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/RecursiveASTVisitor.h"

#include <map>
#include <set>

namespace ave::inv::lds {

namespace {

class ArrayUses : public clang::RecursiveASTVisitor<ArrayUses> {
public:
  std::map<const clang::ValueDecl *, std::vector<const clang::DeclRefExpr *>> uses;
  bool VisitDeclRefExpr(clang::DeclRefExpr *DRE) {
    if (DRE->getDecl()->hasAttr<clang::CUDASharedAttr>())
      uses[DRE->getDecl()].push_back(DRE);
    return true;
  }
};

const clang::DeclRefExpr *baseOf(const clang::Expr *E) {
  while (E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *DRE = llvm::dyn_cast<clang::DeclRefExpr>(E))
      return DRE;
    // A store is logged at its assignment: the array is on the left.
    if (const auto *BO = llvm::dyn_cast<clang::BinaryOperator>(E)) {
      E = BO->getLHS();
      continue;
    }
    if (const auto *UO = llvm::dyn_cast<clang::UnaryOperator>(E)) {
      E = UO->getSubExpr();
      continue;
    }
    if (const auto *AS = llvm::dyn_cast<clang::ArraySubscriptExpr>(E)) {
      E = AS->getBase();
      continue;
    }
    return nullptr;
  }
  return nullptr;
}

bool isTagged(const clang::ValueDecl *D) {
  for (const auto *A : D->specific_attrs<clang::AnnotateAttr>())
    if (A->getAnnotation() == "ave.tag")
      return true;
  return false;
}

bool followable(const LdsAccess &A) {
  return isFollowable(A.address) && std::all_of(A.guard.begin(), A.guard.end(), isFollowable);
}

bool shareLoop(const LdsAccess &A, const LdsAccess &B) {
  return !A.loops.empty() && !B.loops.empty() && A.loops[0].id == B.loops[0].id;
}

} // namespace

std::vector<UninitializedRead> findUninitializedReads(KernelAnalysis &A, clang::ASTContext &Ctx,
                                                      const clang::FunctionDecl &Kernel,
                                                      const LaunchShape &Shape,
                                                      const LaunchContext *Launch) {
  std::vector<UninitializedRead> Out;
  const std::vector<LdsAccess> &Log = A.ldsAccesses();
  // Arrays every use of which the log accounts for, as plain loads/stores.
  ArrayUses Uses;
  Uses.TraverseStmt(Kernel.getBody());
  std::set<const clang::DeclRefExpr *> Logged;
  std::set<const clang::ValueDecl *> Opaque;
  for (const LdsAccess &Acc : Log) {
    if (const clang::DeclRefExpr *DRE = baseOf(Acc.expr))
      Logged.insert(DRE);
    if (isAddressTaken(Ctx, Acc.expr) || (Acc.isWrite && !followable(Acc)))
      Opaque.insert(Acc.array);
  }
  for (const auto &[Array, Refs] : Uses.uses)
    for (const clang::DeclRefExpr *DRE : Refs)
      if (!Logged.count(DRE))
        Opaque.insert(Array);

  ThreadPair P(A, Shape, Launch);
  TermContext &T = P.terms();
  std::set<const clang::Expr *> Reported;
  for (const LdsAccess &Read : Log) {
    if (Read.isWrite || Opaque.count(Read.array) || isTagged(Read.array) || !followable(Read) ||
        Reported.count(Read.expr))
      continue;
    std::vector<const Term *> ReadSide = P.threadFacts(0);
    for (const Term *G : Read.guard)
      ReadSide.push_back(P.rename(0, G));
    const Term *ReadAddr = P.rename(0, Read.address);
    bool MayBeProduced = false;
    for (const LdsAccess &Write : Log) {
      if (!Write.isWrite || Write.array != Read.array)
        continue;
      if (Write.seq > Read.seq && !shareLoop(Write, Read))
        continue;
      std::vector<const Term *> Query = ReadSide;
      Query.insert(Query.end(), P.threadFacts(1).begin(), P.threadFacts(1).end());
      for (const Term *G : Write.guard)
        Query.push_back(P.rename(1, G));
      Query.push_back(T.eq(ReadAddr, P.rename(1, Write.address)));
      if (A.solver().check(T.allOf(Query)).status != SolverResult::Proven) {
        MayBeProduced = true;
        break;
      }
    }
    if (MayBeProduced)
      continue;
    const Term *Q = T.allOf(ReadSide);
    SolverResult R = A.solver().check(Q, {ReadAddr});
    if (R.status != SolverResult::Violated || !A.solver().confirms(Q, R))
      continue; // the read never runs: nothing to report
    UninitializedRead U;
    U.read = &Read;
    for (unsigned D = 0; D < 3; ++D)
      U.thread[D] = evaluate(P.threadIdx(0, D), R.assignment).value_or(0);
    U.element = evaluate(ReadAddr, R.assignment).value_or(0);
    U.elementText = formatElement(Read.array, U.element);
    Reported.insert(Read.expr);
    Out.push_back(std::move(U));
  }
  return Out;
}

} // namespace ave::inv::lds
