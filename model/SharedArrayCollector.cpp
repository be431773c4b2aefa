// The `__shared__` (LDS) variables of a kernel: their element type, extents
// and byte size, which the LDS model, the capacity check and the layout
// rewriters start from.

#include "ModelParts.h"
#include "SourceFacts.h"
#include "ave/model/ModelBuilder.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace ave::model::detail {

using namespace clang;

namespace {

bool isShared(const VarDecl *Var) { return Var && Var->hasAttr<CUDASharedAttr>(); }

SharedArray describeShared(const ASTContext &Ctx, const VarDecl &Var, SharedScope Scope) {
  SharedArray Array;
  Array.name = Var.getNameAsString();
  Array.scope = Scope;
  Array.decl = &Var;
  Array.location = ave::positionOf(Ctx.getSourceManager(), Var.getLocation());

  QualType Type = Var.getType();
  while (const ArrayType *AT = Ctx.getAsArrayType(Type)) {
    if (const auto *Sized = dyn_cast<ConstantArrayType>(AT)) {
      ConstantOrText Extent;
      Extent.value = static_cast<std::int64_t>(Sized->getSize().getZExtValue());
      Extent.text = Sized->getSizeExpr() ? exprText(Ctx, Sized->getSizeExpr())
                                         : std::to_string(*Extent.value);
      Array.extents.push_back(std::move(Extent));
    } else if (isa<IncompleteArrayType>(AT)) {
      Array.dynamic = true;
    } else if (const auto *Dependent = dyn_cast<DependentSizedArrayType>(AT)) {
      Array.extents.push_back(constantOrText(Ctx, Dependent->getSizeExpr()));
    } else if (const auto *Variable = dyn_cast<VariableArrayType>(AT)) {
      Array.extents.push_back(constantOrText(Ctx, Variable->getSizeExpr()));
    }
    Type = AT->getElementType();
  }
  Array.elementType = Type.getAsString(Ctx.getPrintingPolicy());
  if (!Type->isDependentType() && !Type->isIncompleteType())
    Array.elementBytes = static_cast<std::uint64_t>(Ctx.getTypeSizeInChars(Type).getQuantity());

  if (Array.dynamic || !Array.elementBytes)
    return Array;
  std::uint64_t Bytes = *Array.elementBytes;
  for (const ConstantOrText &Extent : Array.extents) {
    if (!Extent.value || *Extent.value < 0)
      return Array;
    Bytes *= static_cast<std::uint64_t>(*Extent.value);
  }
  Array.bytes = Bytes;
  return Array;
}

class SharedCollector : public RecursiveASTVisitor<SharedCollector> {
public:
  explicit SharedCollector(const ASTContext &Ctx) : Ctx(Ctx) {}

  bool VisitVarDecl(VarDecl *Var) {
    if (isShared(Var) && Seen.insert(Var).second)
      Local.push_back(describeShared(Ctx, *Var, SharedScope::Kernel));
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
    if (isShared(Var) && !Var->isLocalVarDeclOrParm() && Seen.insert(Var).second)
      Global.push_back(describeShared(Ctx, *Var, SharedScope::Namespace));
    return true;
  }

  std::vector<SharedArray> take() {
    std::vector<SharedArray> All = std::move(Local);
    for (SharedArray &Array : Global)
      All.push_back(std::move(Array));
    return All;
  }

private:
  const ASTContext &Ctx;
  llvm::SmallPtrSet<const VarDecl *, 8> Seen;
  std::vector<SharedArray> Local;
  std::vector<SharedArray> Global;
};

} // namespace

} // namespace ave::model::detail

namespace ave::model {

using namespace clang;

std::vector<SharedArray> collectSharedArrays(const ASTContext &Ctx, const FunctionDecl &Kernel) {
  detail::SharedCollector Collector(Ctx);
  if (Stmt *Body = Kernel.getBody())
    Collector.TraverseStmt(Body);
  return Collector.take();
}

std::optional<std::uint64_t> staticLdsBytes(const std::vector<SharedArray> &Arrays) {
  std::uint64_t Total = 0;
  for (const SharedArray &Array : Arrays) {
    if (Array.dynamic)
      continue;
    if (!Array.bytes)
      return std::nullopt;
    Total += *Array.bytes;
  }
  return Total;
}

} // namespace ave::model
