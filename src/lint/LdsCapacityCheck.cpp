// ave-lds-capacity: the static __shared__ bytes a kernel uses (arrays it
// declares or names) against the target's per-workgroup limit.

#include "Checks.h"
#include "ave/lint/LintSettings.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"

#include <set>

namespace ave::lint {

namespace {

class SharedVars : public clang::RecursiveASTVisitor<SharedVars> {
public:
  std::vector<const clang::VarDecl *> vars;
  std::set<const clang::VarDecl *> seen;
  void add(const clang::Decl *D) {
    const auto *VD = llvm::dyn_cast<clang::VarDecl>(D);
    if (VD && VD->hasAttr<clang::CUDASharedAttr>() && seen.insert(VD).second)
      vars.push_back(VD);
  }
  bool VisitDeclRefExpr(clang::DeclRefExpr *DRE) {
    add(DRE->getDecl());
    return true;
  }
  bool VisitDeclStmt(clang::DeclStmt *DS) {
    for (const clang::Decl *D : DS->decls())
      add(D);
    return true;
  }
};

} // namespace

void LdsCapacityCheck::checkKernel(clang::ASTContext &Ctx, UnitState &, KernelState &K) {
  SharedVars Vars;
  Vars.TraverseStmt(K.kernel->getBody());
  uint64_t Total = 0;
  std::vector<std::pair<const clang::VarDecl *, uint64_t>> Sizes;
  for (const clang::VarDecl *VD : Vars.vars) {
    clang::QualType Ty = VD->getType();
    if (Ty->isIncompleteType() || Ty->isDependentType() || VD->hasExternalStorage())
      continue; // dynamic `extern __shared__`: sized at launch
    uint64_t Bytes = uint64_t(Ctx.getTypeSizeInChars(Ty).getQuantity());
    Total += Bytes;
    Sizes.push_back({VD, Bytes});
  }
  uint64_t Limit = frontend::targetInfo(lintSettings().target).ldsBytesPerBlock;
  if (Total <= Limit)
    return;
  diag(K.kernel->getLocation(),
       "kernel '%0' uses %1 bytes of static shared memory, above the %2-byte limit of %3")
      << K.kernel->getName() << unsigned(Total) << unsigned(Limit)
      << std::string(frontend::targetInfo(lintSettings().target).name);
  for (const auto &[VD, Bytes] : Sizes)
    noteAt(VD->getLocation(),
           "'" + VD->getNameAsString() + "' takes " + std::to_string(Bytes) + " bytes");
}

} // namespace ave::lint
