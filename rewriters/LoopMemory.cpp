// Memory objects by declaration (LoopMemory.h).

#include "LoopMemory.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/Stmt.h"

namespace ave::rw {

namespace {

// A local (not a parameter) whose value is an address: a pointer, or a
// reference bound to an element or an array.
bool isLocalAddress(const clang::VarDecl *VD) {
  return VD && !llvm::isa<clang::ParmVarDecl>(VD) && VD->hasLocalStorage() &&
         (VD->getType()->isPointerType() || VD->getType()->isReferenceType());
}

const clang::VarDecl *plainVariable(const clang::Expr *E) {
  const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(E->IgnoreParenImpCasts());
  return Ref ? llvm::dyn_cast<clang::VarDecl>(Ref->getDecl()) : nullptr;
}

// A pointee the argument of a parameter of type T may be written through.
bool writableThrough(clang::QualType T) {
  if (T->isReferenceType())
    return !T.getNonReferenceType().isConstQualified();
  return T->isPointerType() && !T->getPointeeType().isConstQualified();
}

} // namespace

LoopMemory::LoopMemory(const clang::FunctionDecl &Kernel) {
  struct Values : clang::RecursiveASTVisitor<Values> {
    std::map<const clang::VarDecl *, std::vector<const clang::Expr *>> &out;
    explicit Values(std::map<const clang::VarDecl *, std::vector<const clang::Expr *>> &Out)
        : out(Out) {}
    bool VisitVarDecl(clang::VarDecl *VD) {
      if (isLocalAddress(VD))
        out[VD].push_back(VD->getInit()); // null: none yet (assigned later)
      return true;
    }
    bool VisitBinaryOperator(clang::BinaryOperator *B) {
      if (const clang::VarDecl *VD = plainVariable(B->getLHS());
          B->isAssignmentOp() && isLocalAddress(VD))
        out[VD].push_back(B->getRHS()); // `p += n` stays in p's objects
      return true;
    }
    bool VisitUnaryOperator(clang::UnaryOperator *U) {
      // `&p`: p may be changed through the address.
      if (const clang::VarDecl *VD = plainVariable(U->getSubExpr());
          U->getOpcode() == clang::UO_AddrOf && isLocalAddress(VD))
        out[VD].push_back(U);
      return true;
    }
  } V(PointerValues);
  V.TraverseStmt(Kernel.getBody());
}

void LoopMemory::objectsInto(const clang::Expr *E, std::set<MemoryObject> &Out,
                             std::set<const clang::VarDecl *> &Seen) const {
  if (!E) {
    Out.insert(nullptr);
    return;
  }
  E = E->IgnoreParenCasts();
  if (const auto *Sub = llvm::dyn_cast<clang::ArraySubscriptExpr>(E))
    return objectsInto(Sub->getBase(), Out, Seen);
  if (const auto *M = llvm::dyn_cast<clang::MemberExpr>(E))
    return objectsInto(M->getBase(), Out, Seen);
  if (const auto *U = llvm::dyn_cast<clang::UnaryOperator>(E)) {
    // `&p` of a local pointer: what is stored through it is any address.
    if (U->getOpcode() == clang::UO_AddrOf && isLocalAddress(plainVariable(U->getSubExpr())))
      return (void)Out.insert(nullptr);
    return objectsInto(U->getSubExpr(), Out, Seen);
  }
  if (const auto *B = llvm::dyn_cast<clang::BinaryOperator>(E)) {
    if (B->getOpcode() == clang::BO_Comma)
      return objectsInto(B->getRHS(), Out, Seen);
    if (B->isAssignmentOp())
      return objectsInto(B->getLHS(), Out, Seen);
    bool LeftAddress =
        B->getLHS()->getType()->isPointerType() || B->getLHS()->getType()->isArrayType();
    return objectsInto(LeftAddress ? B->getLHS() : B->getRHS(), Out, Seen);
  }
  if (const auto *C = llvm::dyn_cast<clang::AbstractConditionalOperator>(E)) {
    objectsInto(C->getTrueExpr(), Out, Seen);
    return objectsInto(C->getFalseExpr(), Out, Seen);
  }
  const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(E);
  const auto *VD = Ref ? llvm::dyn_cast<clang::VarDecl>(Ref->getDecl()) : nullptr;
  if (!VD)
    return (void)Out.insert(nullptr);
  auto Values = PointerValues.find(VD);
  if (Values == PointerValues.end())
    return (void)Out.insert(VD);
  if (!Seen.insert(VD).second)
    return;
  for (const clang::Expr *Value : Values->second)
    if (Value) // an uninitialised declaration adds nothing
      objectsInto(Value, Out, Seen);
}

std::set<MemoryObject> LoopMemory::objectsOf(const clang::Expr *E) const {
  std::set<MemoryObject> Out;
  std::set<const clang::VarDecl *> Seen;
  objectsInto(E, Out, Seen);
  return Out;
}

std::vector<MemoryRead> LoopMemory::readIn(const clang::Stmt *S) const {
  struct Names : clang::RecursiveASTVisitor<Names> {
    std::vector<const clang::DeclRefExpr *> found;
    bool VisitDeclRefExpr(clang::DeclRefExpr *Ref) {
      if (llvm::isa<clang::VarDecl>(Ref->getDecl()))
        found.push_back(Ref);
      return true;
    }
  } N;
  N.TraverseStmt(const_cast<clang::Stmt *>(S));
  std::vector<MemoryRead> Out;
  for (const clang::DeclRefExpr *Ref : N.found)
    for (MemoryObject O : objectsOf(Ref))
      Out.push_back({O, Ref});
  return Out;
}

std::vector<MemoryWrite> LoopMemory::writtenIn(const clang::Stmt *S) const {
  struct Writes : clang::RecursiveASTVisitor<Writes> {
    const LoopMemory &memory;
    std::vector<MemoryWrite> found;
    explicit Writes(const LoopMemory &M) : memory(M) {}
    void add(const clang::Expr *Target, const clang::Stmt *At) {
      for (MemoryObject O : memory.objectsOf(Target))
        found.push_back({O, At});
    }
    // An lvalue assigned: memory unless it is a plain variable (a
    // reference variable is the memory it is bound to).
    void assigned(const clang::Expr *Lhs, const clang::Stmt *At) {
      const clang::VarDecl *VD = plainVariable(Lhs);
      if (!VD || VD->getType()->isReferenceType())
        add(Lhs, At);
    }
    bool VisitBinaryOperator(clang::BinaryOperator *B) {
      if (B->isAssignmentOp())
        assigned(B->getLHS(), B);
      return true;
    }
    bool VisitUnaryOperator(clang::UnaryOperator *U) {
      if (U->isIncrementDecrementOp())
        assigned(U->getSubExpr(), U);
      return true;
    }
    bool VisitCallExpr(clang::CallExpr *C) {
      if (const auto *Op = llvm::dyn_cast<clang::CXXOperatorCallExpr>(C)) {
        if (Op->isAssignmentOp() && Op->getNumArgs() > 0)
          assigned(Op->getArg(0), C);
        return true;
      }
      const clang::FunctionDecl *F = C->getDirectCallee();
      for (unsigned I = 0; I < C->getNumArgs(); ++I) {
        clang::QualType T =
            F && I < F->getNumParams() ? F->getParamDecl(I)->getType() : C->getArg(I)->getType();
        if (writableThrough(T))
          add(C->getArg(I), C);
      }
      return true;
    }
    bool VisitGCCAsmStmt(clang::GCCAsmStmt *A) {
      for (unsigned I = 0; I < A->getNumOutputs(); ++I)
        assigned(A->getOutputExpr(I), A);
      for (unsigned I = 0; I < A->getNumClobbers(); ++I)
        if (A->getClobber(I) == "memory")
          found.push_back({nullptr, A});
      return true;
    }
  } W(*this);
  W.TraverseStmt(const_cast<clang::Stmt *>(S));
  return W.found;
}

} // namespace ave::rw
