#include "LoopBodyScan.h"

#include "ave/invariants/MatrixLaneModel.h"

#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace ave::inv {

namespace {

bool mentions(const clang::Stmt *S, const clang::VarDecl *Var) {
  if (!S || !Var)
    return false;
  if (const auto *DRE = llvm::dyn_cast<clang::DeclRefExpr>(S); DRE && DRE->getDecl() == Var)
    return true;
  for (const clang::Stmt *Child : S->children())
    if (mentions(Child, Var))
      return true;
  return false;
}

bool bindsMutableReference(clang::QualType Ty) {
  return Ty->isReferenceType() && !Ty.getNonReferenceType().isConstQualified();
}

// The mma.sync helper, whose first argument the analysis models as the
// accumulator it adds into.
bool accumulatesIntoFirstArgument(const clang::FunctionDecl *FD) {
  const MatrixLaneModel *M =
      FD && FD->getIdentifier() ? findMatrixLaneModel(FD->getName()) : nullptr;
  return M && M->family == MatrixCoreFamily::NvidiaMmaM16N8K16;
}

// Each argument of Call bound to a non-const reference parameter, with its
// position.
template <typename Visit>
void forEachMutableReferenceArgument(const clang::CallExpr *Call, Visit &&Each) {
  const clang::FunctionDecl *FD = Call->getDirectCallee();
  if (!FD)
    return;
  for (unsigned I = 0; I < Call->getNumArgs() && I < FD->getNumParams(); ++I)
    if (bindsMutableReference(FD->getParamDecl(I)->getType()))
      Each(I, Call->getArg(I));
}

class AssignedVars : public clang::RecursiveASTVisitor<AssignedVars> {
public:
  explicit AssignedVars(const clang::VarDecl *OwnCounter) : OwnCounter(OwnCounter) {}

  std::set<const clang::VarDecl *> vars;

  bool VisitBinaryOperator(clang::BinaryOperator *BO) {
    if (BO->isAssignmentOp())
      note(BO->getLHS());
    return true;
  }
  bool VisitUnaryOperator(clang::UnaryOperator *UO) {
    // A local whose address is taken (`int *p = &k; ++*p;`) can change
    // through the pointer, which the scan does not follow: it counts as
    // assigned.
    if (UO->isIncrementDecrementOp())
      note(UO->getSubExpr());
    else if (UO->getOpcode() == clang::UO_AddrOf &&
             llvm::isa<clang::DeclRefExpr>(UO->getSubExpr()->IgnoreParenImpCasts()))
      note(UO->getSubExpr());
    return true;
  }
  // A non-const reference bound to a local (`int &r = k; r += 2;`), by a
  // declaration or as a call's argument, can change it the same way.
  bool VisitVarDecl(clang::VarDecl *VD) {
    if (bindsMutableReference(VD->getType()) && VD->getInit())
      note(VD->getInit());
    return true;
  }
  // Matrix-core helpers that accumulate into their first argument; any
  // callee's non-const reference parameter.
  bool VisitCallExpr(clang::CallExpr *Call) {
    forEachMutableReferenceArgument(Call, [&](unsigned, const clang::Expr *Arg) { note(Arg); });
    if (Call->getNumArgs() > 0 && accumulatesIntoFirstArgument(Call->getDirectCallee()))
      note(Call->getArg(0));
    return true;
  }

private:
  void note(const clang::Expr *E) {
    E = E->IgnoreParenImpCasts();
    // An element of a private array (`acc[i][j] += ...`): the array.
    bool Element = false;
    while (const auto *AS = llvm::dyn_cast<clang::ArraySubscriptExpr>(E)) {
      if (mentions(AS->getIdx(), OwnCounter))
        return;
      E = AS->getBase()->IgnoreParenImpCasts();
      Element = true;
    }
    if (const auto *DRE = llvm::dyn_cast<clang::DeclRefExpr>(E))
      if (const auto *VD = llvm::dyn_cast<clang::VarDecl>(DRE->getDecl()))
        if (VD->hasLocalStorage() && (!Element || VD->getType()->isConstantArrayType()))
          vars.insert(VD);
  }

  const clang::VarDecl *OwnCounter;
};

// escapedLocals' walk: the local scalars whose changes another name makes.
class EscapedScalars : public clang::RecursiveASTVisitor<EscapedScalars> {
public:
  std::set<const clang::VarDecl *> vars;

  bool VisitUnaryOperator(clang::UnaryOperator *UO) {
    if (UO->getOpcode() == clang::UO_AddrOf)
      note(UO->getSubExpr());
    return true;
  }
  bool VisitVarDecl(clang::VarDecl *VD) {
    if (bindsMutableReference(VD->getType()) && VD->getInit())
      note(VD->getInit());
    return true;
  }
  // The mma.sync helper's accumulator is an assignment the analysis models.
  bool VisitCallExpr(clang::CallExpr *Call) {
    bool Modelled = accumulatesIntoFirstArgument(Call->getDirectCallee());
    forEachMutableReferenceArgument(Call, [&](unsigned I, const clang::Expr *Arg) {
      if (!(I == 0 && Modelled))
        note(Arg);
    });
    return true;
  }
  bool VisitLambdaExpr(clang::LambdaExpr *LE) {
    std::set<const clang::VarDecl *> Assigned = assignedVariables(LE->getBody());
    for (const clang::LambdaCapture &C : LE->captures())
      if (C.capturesVariable() && C.getCaptureKind() == clang::LCK_ByRef)
        if (const auto *VD = llvm::dyn_cast<clang::VarDecl>(C.getCapturedVar());
            VD && Assigned.count(VD))
          vars.insert(VD);
    return true;
  }

private:
  // The local behind E (`ia`, `s.a`): a scalar, or a struct holding it.
  void note(const clang::Expr *E) {
    E = E->IgnoreParenImpCasts();
    while (const auto *ME = llvm::dyn_cast<clang::MemberExpr>(E))
      E = ME->getBase()->IgnoreParenImpCasts();
    if (const auto *DRE = llvm::dyn_cast<clang::DeclRefExpr>(E))
      if (const auto *VD = llvm::dyn_cast<clang::VarDecl>(DRE->getDecl()))
        if (VD->hasLocalStorage() && !VD->getType()->isArrayType() &&
            !VD->getType()->isReferenceType())
          vars.insert(VD);
  }
};

// Which shared arrays a loop body reads before it writes them, walking in
// evaluation order (right side of an assignment first). An element's
// address handed on (`&As[i][j]` to a call, an array decaying to a pointer)
// is a read and then a write: the call may do both (cp.async, an atomic).
class SharedReadBeforeWrite {
public:
  std::set<const clang::ValueDecl *> written, readFirst;

  void walk(const clang::Stmt *S) {
    if (!S)
      return;
    if (const auto *BO = llvm::dyn_cast<clang::BinaryOperator>(S); BO && BO->isAssignmentOp())
      return assignment(BO->getLHS(), BO->getRHS(), BO->isCompoundAssignmentOp());
    // `h = x` of a class element (__half, float4) is a call to operator=.
    if (const auto *OC = llvm::dyn_cast<clang::CXXOperatorCallExpr>(S);
        OC && OC->isAssignmentOp() && OC->getNumArgs() == 2)
      return assignment(OC->getArg(0), OC->getArg(1), OC->getOperator() != clang::OO_Equal);
    if (const clang::Expr *Element = vectorAccessElement(S))
      if (const clang::ValueDecl *Base = sharedBase(Element)) {
        walkIndices(Element);
        if (const auto *AS = llvm::dyn_cast<clang::ArraySubscriptExpr>(S))
          walk(AS->getIdx());
        read(Base);
        return;
      }
    if (const auto *AS = llvm::dyn_cast<clang::ArraySubscriptExpr>(S)) {
      if (const clang::ValueDecl *Base = sharedBase(AS)) {
        walkIndices(AS);
        read(Base);
        return;
      }
    }
    // An ldmatrix helper only reads through the row address it is given.
    if (const auto *Call = llvm::dyn_cast<clang::CallExpr>(S); Call && isLdmatrix(Call)) {
      for (const clang::Expr *Arg : Call->arguments()) {
        const clang::Expr *Row = escapingAddress(Arg->IgnoreParenImpCasts());
        const clang::ValueDecl *Base = Row ? sharedBase(Row) : nullptr;
        if (!Base) {
          walk(Arg);
          continue;
        }
        walkIndices(Row);
        read(Base);
      }
      return;
    }
    if (const clang::Expr *Escaping = escapingAddress(S))
      if (const clang::ValueDecl *Base = sharedBase(Escaping)) {
        walkIndices(Escaping);
        read(Base);
        written.insert(Base);
        return;
      }
    for (const clang::Stmt *Child : S->children())
      walk(Child);
  }

private:
  static const clang::ValueDecl *sharedBase(const clang::Expr *E) {
    E = E->IgnoreParenImpCasts();
    while (const auto *AS = llvm::dyn_cast<clang::ArraySubscriptExpr>(E))
      E = AS->getBase()->IgnoreParenImpCasts();
    // A member array of a __shared__ struct (`t.a[i]`) is its own array
    // (SharedStructMembers.cpp); any other member stands for the struct.
    if (const auto *ME = llvm::dyn_cast<clang::MemberExpr>(E)) {
      const auto *Owner = llvm::dyn_cast<clang::DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts());
      if (!Owner || !Owner->getDecl()->hasAttr<clang::CUDASharedAttr>())
        return nullptr;
      if (llvm::isa<clang::FieldDecl>(ME->getMemberDecl()) &&
          ME->getMemberDecl()->getType()->isConstantArrayType())
        return ME->getMemberDecl();
      return Owner->getDecl();
    }
    if (const auto *DRE = llvm::dyn_cast<clang::DeclRefExpr>(E))
      if (DRE->getDecl()->hasAttr<clang::CUDASharedAttr>())
        return DRE->getDecl();
    return nullptr;
  }
  void read(const clang::ValueDecl *D) {
    if (D && !written.count(D))
      readFirst.insert(D);
  }
  void assignment(const clang::Expr *Lhs, const clang::Expr *Rhs, bool Compound) {
    walk(Rhs);
    if (const clang::Expr *Element = vectorAccessElement(Lhs))
      Lhs = Element;
    const clang::ValueDecl *Base = sharedBase(Lhs);
    if (!Base) {
      walk(Lhs);
      return;
    }
    walkIndices(Lhs);
    if (Compound)
      read(Base);
    written.insert(Base);
  }
  // The element E of a vector access through a cast pointer,
  // `*reinterpret_cast<float4 *>(&E)` or `reinterpret_cast<float4 *>(&E)[0]`:
  // it reads (or, assigned to, writes) the elements from E on, and hands the
  // address to nobody.
  static const clang::Expr *vectorAccessElement(const clang::Stmt *S) {
    const clang::Expr *Pointer = nullptr;
    if (const auto *UO = llvm::dyn_cast<clang::UnaryOperator>(S);
        UO && UO->getOpcode() == clang::UO_Deref)
      Pointer = UO->getSubExpr();
    else if (const auto *AS = llvm::dyn_cast<clang::ArraySubscriptExpr>(S))
      Pointer = AS->getBase();
    const auto *Cast =
        Pointer ? llvm::dyn_cast<clang::ExplicitCastExpr>(Pointer->IgnoreParenImpCasts()) : nullptr;
    if (!Cast || !Cast->getType()->isPointerType())
      return nullptr;
    const auto *Addr =
        llvm::dyn_cast<clang::UnaryOperator>(Cast->getSubExpr()->IgnoreParenImpCasts());
    if (!Addr || Addr->getOpcode() != clang::UO_AddrOf)
      return nullptr;
    return Addr->getSubExpr();
  }
  static bool isLdmatrix(const clang::CallExpr *Call) {
    const clang::FunctionDecl *FD = Call->getDirectCallee();
    return FD && FD->getIdentifier() && findLdmatrixModel(FD->getName());
  }
  // `&E` or E decaying to a pointer (a subscript's own base never gets here).
  static const clang::Expr *escapingAddress(const clang::Stmt *S) {
    if (const auto *UO = llvm::dyn_cast<clang::UnaryOperator>(S);
        UO && UO->getOpcode() == clang::UO_AddrOf)
      return UO->getSubExpr();
    if (const auto *Cast = llvm::dyn_cast<clang::ImplicitCastExpr>(S);
        Cast && Cast->getCastKind() == clang::CK_ArrayToPointerDecay)
      return Cast->getSubExpr();
    return nullptr;
  }
  void walkIndices(const clang::Expr *E) {
    E = E->IgnoreParenImpCasts();
    while (const auto *AS = llvm::dyn_cast<clang::ArraySubscriptExpr>(E)) {
      walk(AS->getIdx());
      E = AS->getBase()->IgnoreParenImpCasts();
    }
  }
};

} // namespace

std::set<const clang::VarDecl *> assignedVariables(const clang::Stmt *S,
                                                   const clang::VarDecl *OwnCounter) {
  AssignedVars V(OwnCounter);
  V.TraverseStmt(const_cast<clang::Stmt *>(S));
  return V.vars;
}

std::set<const clang::VarDecl *> assignedInLoop(const clang::Stmt *Loop, const clang::Stmt *Body) {
  std::set<const clang::VarDecl *> Assigned = assignedVariables(Body);
  auto Add = [&](const clang::Stmt *S) {
    if (!S)
      return;
    std::set<const clang::VarDecl *> More = assignedVariables(S);
    Assigned.insert(More.begin(), More.end());
  };
  // The condition runs every iteration too (`for (k = K; k-- > 0;)`,
  // `while (i++ < n)`).
  if (const auto *For = llvm::dyn_cast<clang::ForStmt>(Loop)) {
    Add(For->getInc());
    Add(For->getCond());
  } else if (const auto *While = llvm::dyn_cast<clang::WhileStmt>(Loop)) {
    Add(While->getCond());
  } else if (const auto *Do = llvm::dyn_cast<clang::DoStmt>(Loop)) {
    Add(Do->getCond());
  }
  return Assigned;
}

std::set<const clang::VarDecl *> escapedLocals(const clang::Stmt *Body) {
  EscapedScalars V;
  V.TraverseStmt(const_cast<clang::Stmt *>(Body));
  return V.vars;
}

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

} // namespace ave::inv
