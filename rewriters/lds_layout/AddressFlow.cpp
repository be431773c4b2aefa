#include "ave/rewriters/lds_layout/AddressFlow.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/Builtins.h"

namespace ave::rw {

namespace {

// The one parent of a node: a statement or a declaration (an initialiser).
struct Parent {
  const clang::Stmt *stmt = nullptr;
  const clang::Decl *decl = nullptr;
  bool found() const { return stmt || decl; }
};

Parent parentOf(clang::ASTContext &Ctx, const clang::Expr &E) {
  clang::DynTypedNodeList Parents = Ctx.getParents(E);
  if (Parents.size() != 1)
    return {};
  return {Parents[0].get<clang::Stmt>(), Parents[0].get<clang::Decl>()};
}

std::string typeText(clang::QualType T, const clang::ASTContext &Ctx) {
  return T.getAsString(Ctx.getPrintingPolicy());
}

std::string calleeText(const clang::CallExpr &Call) {
  if (const clang::FunctionDecl *F = Call.getDirectCallee())
    return "'" + F->getNameAsString() + "'";
  return "a function through a pointer";
}

// What `Node` designates, for messages: the array, a row, or an element.
std::string what(const std::string &Array, unsigned Depth, unsigned Rank) {
  if (Depth == 0)
    return "'" + Array + "'";
  if (Depth < Rank)
    return "a row of '" + Array + "'";
  return "an element of '" + Array + "'";
}

bool isBuiltinAddressOf(const clang::CallExpr &Call) {
  unsigned Id = Call.getBuiltinCallee();
  if (Id == clang::Builtin::BI__builtin_addressof || Id == clang::Builtin::BIaddressof ||
      Id == clang::Builtin::BI__addressof)
    return true;
  const clang::FunctionDecl *F = Call.getDirectCallee();
  return F && F->getName() == "addressof";
}

// A cast that gives the same storage another type: the vector idiom when
// the new type is wider than one element.
std::string castEscape(const clang::ExplicitCastExpr &Cast, const std::string &Of,
                       const clang::Expr &Node, const clang::ASTContext &Ctx) {
  clang::QualType To = Cast.getTypeAsWritten();
  clang::QualType Pointee = To->isReferenceType() ? To->getPointeeType()
                            : To->isPointerType() ? To->getPointeeType()
                                                  : clang::QualType();
  std::string Text = Of + " is cast to '" + typeText(To, Ctx) + "'";
  clang::QualType From = Node.getType();
  if (!Pointee.isNull() && !Pointee->isIncompleteType() && !From->isArrayType() &&
      !From->isIncompleteType() && Ctx.getTypeSize(Pointee) > Ctx.getTypeSize(From))
    Text += " (a vector access: a layout rewrite would have to prove that the " +
            std::to_string(Ctx.getTypeSize(Pointee) / Ctx.getTypeSize(From)) +
            " elements it covers stay adjacent and aligned)";
  return Text;
}

// Why the node (the array, a row or an element) escapes through `P`.
std::string describeEscape(const Parent &P, const clang::Expr &Node, const std::string &Of,
                           clang::ASTContext &Ctx) {
  if (P.decl) {
    if (const auto *VD = llvm::dyn_cast<clang::VarDecl>(P.decl)) {
      if (VD->getType()->isReferenceType())
        return "a reference '" + VD->getNameAsString() + "' is bound to " + Of;
      return Of + " initialises '" + VD->getNameAsString() + "' of type '" +
             typeText(VD->getType(), Ctx) + "' (a pointer or flat view)";
    }
    return Of + " is used in a declaration";
  }
  const clang::Stmt *S = P.stmt;
  if (const auto *U = llvm::dyn_cast<clang::UnaryOperator>(S)) {
    if (U->getOpcode() == clang::UO_AddrOf)
      return "the address of " + Of + " is taken ('&')";
    if (U->getOpcode() == clang::UO_Deref)
      return Of + " is dereferenced as a pointer (a flat view)";
  }
  if (const auto *B = llvm::dyn_cast<clang::BinaryOperator>(S);
      B && B->isAssignmentOp() && B->getRHS()->IgnoreParenImpCasts() == Node.IgnoreParenImpCasts())
    return Of + " is stored in a pointer ('" + B->getOpcodeStr().str() + "')";
  if (const auto *B = llvm::dyn_cast<clang::BinaryOperator>(S))
    return Of + " is an operand of '" + B->getOpcodeStr().str() + "'" +
           (B->isAdditiveOp() ? " (pointer arithmetic: a flat view)" : "");
  if (const auto *Cast = llvm::dyn_cast<clang::ExplicitCastExpr>(S))
    return castEscape(*Cast, Of, Node, Ctx);
  if (const auto *Call = llvm::dyn_cast<clang::CallExpr>(S)) {
    if (isBuiltinAddressOf(*Call))
      return "the address of " + Of + " is taken (" + calleeText(*Call) + ")";
    if (Call->getCallee()->IgnoreParenImpCasts() == &Node)
      return Of + " is called";
    return Of + " is passed by pointer or reference to " + calleeText(*Call);
  }
  if (llvm::isa<clang::CXXConstructExpr>(S))
    return Of + " is passed by reference to a constructor of '" +
           typeText(llvm::cast<clang::Expr>(S)->getType(), Ctx) + "'";
  if (const auto *T = llvm::dyn_cast<clang::UnaryExprOrTypeTraitExpr>(S))
    return std::string(T->getKind() == clang::UETT_SizeOf ? "sizeof" : "a type trait") +
           " is taken of " + Of;
  if (llvm::isa<clang::AsmStmt>(S))
    return Of + " is an operand of inline asm";
  if (llvm::isa<clang::ReturnStmt>(S))
    return Of + " is returned";
  if (const auto *M = llvm::dyn_cast<clang::MemberExpr>(S))
    return Of + " is used through '" + M->getMemberNameInfo().getAsString() + "'";
  return Of + " is used in a " + std::string(S->getStmtClassName());
}

bool isTrivialCopy(const clang::CXXMethodDecl *M) {
  if (!M)
    return false;
  if (const auto *Ctor = llvm::dyn_cast<clang::CXXConstructorDecl>(M))
    return Ctor->isTrivial() && (Ctor->isCopyConstructor() || Ctor->isMoveConstructor());
  return M->isTrivial() && (M->isCopyAssignmentOperator() || M->isMoveAssignmentOperator());
}

// Walks from the DeclRefExpr through the subscripts to the element;
// false (with the escape set) when something else uses the array or a row.
bool reachElement(clang::ASTContext &Ctx, const clang::DeclRefExpr &Ref, unsigned Rank,
                  ElementUse &Out, const clang::Expr *&Node) {
  const std::string Array = Ref.getDecl()->getNameAsString();
  Node = &Ref;
  unsigned Depth = 0;
  while (Depth < Rank) {
    Parent P = parentOf(Ctx, *Node);
    if (P.stmt && llvm::isa<clang::ParenExpr>(P.stmt)) {
      Node = llvm::cast<clang::Expr>(P.stmt);
      continue;
    }
    if (const auto *ICE = llvm::dyn_cast_or_null<clang::ImplicitCastExpr>(P.stmt);
        ICE && (ICE->getCastKind() == clang::CK_ArrayToPointerDecay ||
                ICE->getCastKind() == clang::CK_NoOp)) {
      Node = ICE;
      continue;
    }
    if (const auto *Sub = llvm::dyn_cast_or_null<clang::ArraySubscriptExpr>(P.stmt);
        Sub && Sub->getBase() == Node) {
      Out.indices.push_back(Sub->getIdx());
      Out.reversed.push_back(Sub->getLHS() != Sub->getBase());
      Node = Sub;
      ++Depth;
      continue;
    }
    Out.escape = P.found() ? describeEscape(P, *Node, what(Array, Depth, Rank), Ctx)
                           : what(Array, Depth, Rank) + " is used where its parent is unknown";
    Out.escapeLocation = P.stmt ? P.stmt->getBeginLoc() : Node->getBeginLoc();
    if (P.decl)
      Out.escapeLocation = P.decl->getLocation();
    return false;
  }
  Out.expr = llvm::cast<clang::ArraySubscriptExpr>(Node);
  return true;
}

enum class Step { Continue, Done, Escape };

// One step up from an lvalue that designates the element (or a field of it).
Step stepFromElement(const Parent &P, const clang::Expr *&Node, ElementUse &Out) {
  const clang::Stmt *S = P.stmt;
  if (!S)
    return Step::Escape;
  if (llvm::isa<clang::ParenExpr, clang::FullExpr>(S)) {
    Node = llvm::cast<clang::Expr>(S);
    return Step::Continue;
  }
  if (const auto *ICE = llvm::dyn_cast<clang::ImplicitCastExpr>(S)) {
    switch (ICE->getCastKind()) {
    case clang::CK_LValueToRValue:
      Out.isRead = true;
      return Step::Done;
    case clang::CK_NoOp:
      Node = ICE;
      return Step::Continue;
    case clang::CK_ToVoid:
      return Step::Done;
    default:
      return Step::Escape;
    }
  }
  if (const auto *M = llvm::dyn_cast<clang::MemberExpr>(S);
      M && !M->isArrow() && M->getBase() == Node &&
      llvm::isa<clang::FieldDecl>(M->getMemberDecl())) {
    Node = M;
    return Step::Continue;
  }
  if (const auto *B = llvm::dyn_cast<clang::BinaryOperator>(S)) {
    if (B->isAssignmentOp() && B->getLHS() == Node) {
      Out.isWrite = true;
      Out.isRead |= B->isCompoundAssignmentOp();
      Node = B; // in C++ the assignment is an lvalue of the element
      return Step::Continue;
    }
    if (B->getOpcode() == clang::BO_Comma) {
      if (B->getLHS() == Node)
        return Step::Done;
      Node = B;
      return Step::Continue;
    }
    return Step::Escape;
  }
  if (const auto *U = llvm::dyn_cast<clang::UnaryOperator>(S)) {
    if (!U->isIncrementDecrementOp())
      return Step::Escape;
    Out.isWrite = Out.isRead = true;
    if (U->isPostfix())
      return Step::Done;
    Node = U;
    return Step::Continue;
  }
  if (const auto *C = llvm::dyn_cast<clang::ConditionalOperator>(S); C && C->getCond() != Node) {
    Node = C; // `c ? t[i] : t[j]` as an lvalue: still one of the elements
    return Step::Continue;
  }
  if (const auto *Cast = llvm::dyn_cast<clang::ExplicitCastExpr>(S))
    return Cast->getCastKind() == clang::CK_ToVoid ? Step::Done : Step::Escape;
  if (const auto *Call = llvm::dyn_cast<clang::CXXOperatorCallExpr>(S);
      Call && Call->getNumArgs() == 2 && Call->getArg(0) == Node &&
      isTrivialCopy(llvm::dyn_cast_or_null<clang::CXXMethodDecl>(Call->getDirectCallee()))) {
    Out.isWrite = true;
    Node = Call;
    return Step::Continue;
  }
  if (const auto *Ctor = llvm::dyn_cast<clang::CXXConstructExpr>(S);
      Ctor && Ctor->getNumArgs() == 1 && isTrivialCopy(Ctor->getConstructor())) {
    Out.isRead = true;
    return Step::Done;
  }
  if (llvm::isa<clang::Expr, clang::AsmStmt, clang::ReturnStmt>(S))
    return Step::Escape;
  return Step::Done; // a statement: the value is discarded
}

} // namespace

ElementUse followUse(clang::ASTContext &Ctx, const clang::DeclRefExpr &Ref, unsigned Rank) {
  ElementUse Out;
  const clang::Expr *Node = nullptr;
  if (!reachElement(Ctx, Ref, Rank, Out, Node))
    return Out;
  const std::string Array = Ref.getDecl()->getNameAsString();
  while (true) {
    Parent P = parentOf(Ctx, *Node);
    const clang::Expr *Before = Node;
    Step S = P.found() ? stepFromElement(P, Node, Out) : Step::Escape;
    if (S == Step::Done)
      return Out;
    if (S == Step::Escape) {
      Out.escape = P.found() ? describeEscape(P, *Before, what(Array, Rank, Rank), Ctx)
                             : "an element of '" + Array + "' is used where its parent is unknown";
      Out.escapeLocation = P.decl   ? P.decl->getLocation()
                           : P.stmt ? P.stmt->getBeginLoc()
                                    : Before->getBeginLoc();
      if (const auto *U = llvm::dyn_cast_or_null<clang::UnaryOperator>(P.stmt);
          U && U->getOpcode() == clang::UO_AddrOf && Before == Out.expr)
        Out.escape += " (a vector or pointer access)";
      return Out;
    }
  }
}

} // namespace ave::rw
