// Shared arrays inside structs: `__shared__ struct { float a[16][16];
// float b[16][16]; } t;` holds two LDS arrays that never overlap. Each
// member array is taken as an array of its own, identified by its
// FieldDecl, so `t.a[ty][k]` and `t.b[k][tx]` find their own writers (taking
// `t` as one array put both at offset 0, and a correct GEMM with its tiles
// in a struct was reported violated). A union's members overlap, and a
// FieldDecl is shared by every variable of its struct type, so those cases
// are left unresolved: the member's value is then unknown (unproven).

#include "AnalysisContext.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace ave::inv {

namespace {

// The struct type of a __shared__ variable, or null.
const clang::RecordDecl *sharedStructOf(const clang::ValueDecl *D) {
  const auto *Var = llvm::dyn_cast_or_null<clang::VarDecl>(D);
  if (!Var || !Var->hasAttr<clang::CUDASharedAttr>())
    return nullptr;
  const clang::RecordDecl *Record = Var->getType()->getAsRecordDecl();
  return Record ? Record->getDefinition() : nullptr;
}

// Every __shared__ struct variable the kernel body names, once.
class SharedStructUses : public clang::RecursiveASTVisitor<SharedStructUses> {
public:
  bool VisitDeclRefExpr(clang::DeclRefExpr *Ref) {
    if (const clang::RecordDecl *Record = sharedStructOf(Ref->getDecl()))
      if (Seen.insert(Ref->getDecl()).second)
        ++counts[Record];
    return true;
  }
  bool VisitDeclStmt(clang::DeclStmt *S) {
    for (const clang::Decl *D : S->decls())
      if (const auto *Var = llvm::dyn_cast<clang::VarDecl>(D))
        if (const clang::RecordDecl *Record = sharedStructOf(Var))
          if (Seen.insert(Var).second)
            ++counts[Record];
    return true;
  }
  std::map<const clang::RecordDecl *, unsigned> counts;

private:
  std::set<const clang::ValueDecl *> Seen;
};

} // namespace

const clang::FieldDecl *AnalysisContext::sharedMemberArray(const clang::MemberExpr *ME) const {
  const auto *Field = llvm::dyn_cast_or_null<clang::FieldDecl>(ME ? ME->getMemberDecl() : nullptr);
  if (!Field || ME->isArrow() || !ast.getAsConstantArrayType(Field->getType()))
    return nullptr;
  const auto *Base = llvm::dyn_cast<clang::DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts());
  const clang::RecordDecl *Record = Base ? sharedStructOf(Base->getDecl()) : nullptr;
  if (!Record || Record->isUnion() || Field->getParent()->getDefinition() != Record)
    return nullptr;
  if (!SharedStructs) {
    SharedStructUses Uses;
    if (annotations.kernel && annotations.kernel->getBody())
      Uses.TraverseStmt(annotations.kernel->getBody());
    SharedStructs = std::move(Uses.counts);
  }
  auto It = SharedStructs->find(Record);
  if (It == SharedStructs->end() || It->second != 1)
    return nullptr;
  SharedMembers.insert(Field);
  return Field;
}

} // namespace ave::inv
