// Finds the `__global__` kernels of a translation unit and assembles their
// models from the parts (parameters and launch bounds here; body facts and
// shared arrays in their own files). Kernel templates are modelled once,
// from the pattern the user wrote, with their instantiations listed.

#include "ModelParts.h"
#include "SourceFacts.h"
#include "ave/model/ModelBuilder.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/AddressSpaces.h"
#include "clang/Basic/SourceManager.h"

namespace ave::model {

using namespace clang;

namespace {

std::string addressSpaceName(LangAS Space) {
  switch (Space) {
  case LangAS::Default:
    return {};
  case LangAS::cuda_device:
  case LangAS::opencl_global:
  case LangAS::opencl_global_device:
  case LangAS::opencl_global_host:
    return "global";
  case LangAS::cuda_shared:
  case LangAS::opencl_local:
    return "shared";
  case LangAS::cuda_constant:
  case LangAS::opencl_constant:
    return "constant";
  case LangAS::opencl_private:
    return "private";
  case LangAS::opencl_generic:
    return "generic";
  default:
    break;
  }
  if (isTargetAddressSpace(Space))
    return "address_space(" + std::to_string(toTargetAddressSpace(Space)) + ")";
  return "address_space(?)";
}

KernelParam describeParam(const ASTContext &Ctx, const ParmVarDecl &Param) {
  KernelParam P;
  P.name = Param.getNameAsString();
  P.decl = &Param;
  QualType Type = Param.getOriginalType();
  P.type = Type.getAsString(Ctx.getPrintingPolicy());
  if (const auto *Pointer = Type->getAs<PointerType>()) {
    QualType Pointee = Pointer->getPointeeType();
    P.isPointer = true;
    P.pointeeConst = Pointee.isConstQualified();
    P.addressSpace = addressSpaceName(Pointee.getAddressSpace());
    P.pointeeType = Pointee.getUnqualifiedType().getAsString(Ctx.getPrintingPolicy());
  }
  return P;
}

// `__launch_bounds__(T, B)` is Clang's launch_bounds attribute in CUDA, but
// HIP's headers spell it `amdgpu_flat_work_group_size(1, T)` plus
// `amdgpu_waves_per_eu(B)`; both read back as (max threads, min blocks).
std::optional<LaunchBounds> launchBoundsOf(const ASTContext &Ctx, const FunctionDecl &Kernel) {
  if (const auto *Bounds = Kernel.getAttr<CUDALaunchBoundsAttr>()) {
    LaunchBounds LB;
    LB.maxThreads = detail::constantOrText(Ctx, Bounds->getMaxThreads());
    if (Bounds->getMinBlocks())
      LB.minBlocks = detail::constantOrText(Ctx, Bounds->getMinBlocks());
    return LB;
  }
  const auto *FlatSize = Kernel.getAttr<AMDGPUFlatWorkGroupSizeAttr>();
  if (!FlatSize)
    return std::nullopt;
  LaunchBounds LB;
  LB.maxThreads = detail::constantOrText(Ctx, FlatSize->getMax());
  if (const auto *Waves = Kernel.getAttr<AMDGPUWavesPerEUAttr>())
    LB.minBlocks = detail::constantOrText(Ctx, Waves->getMin());
  return LB;
}

std::vector<KernelInstantiation> instantiationsOf(const ASTContext &Ctx,
                                                  const FunctionTemplateDecl &Template) {
  std::vector<KernelInstantiation> Result;
  for (const FunctionDecl *Spec : Template.specializations()) {
    if (!Spec->isTemplateInstantiation())
      continue;
    KernelInstantiation I;
    I.name = detail::functionName(Spec);
    I.decl = Spec;
    if (Spec->hasBody())
      I.ldsBytes = staticLdsBytes(collectSharedArrays(Ctx, *Spec));
    Result.push_back(std::move(I));
  }
  return Result;
}

KernelModel describeKernel(const ASTContext &Ctx, const FunctionDecl &Kernel) {
  KernelModel K;
  K.name = Kernel.getQualifiedNameAsString();
  K.decl = &Kernel;
  K.location = ave::positionOf(Ctx.getSourceManager(), Kernel.getLocation());
  if (const FunctionTemplateDecl *Template = Kernel.getDescribedFunctionTemplate()) {
    K.isTemplate = true;
    K.instantiations = instantiationsOf(Ctx, *Template);
  } else if (Kernel.getTemplatedKind() == FunctionDecl::TK_FunctionTemplateSpecialization) {
    K.name = detail::functionName(&Kernel); // an explicit specialization
  }
  K.launchBounds = launchBoundsOf(Ctx, Kernel);
  for (const ParmVarDecl *Param : Kernel.parameters())
    K.params.push_back(describeParam(Ctx, *Param));
  K.sharedArrays = collectSharedArrays(Ctx, Kernel);
  K.ldsBytes = staticLdsBytes(K.sharedArrays);
  for (const SharedArray &Array : K.sharedArrays)
    K.dynamicLds |= Array.dynamic;
  detail::KernelBodyFacts Body = detail::scanKernelBody(Ctx, Kernel);
  K.loops = std::move(Body.loops);
  K.barriers = std::move(Body.barriers);
  K.intrinsics = std::move(Body.intrinsics);
  return K;
}

// Visits the declarations the user wrote; implicit template instantiations
// are not visited (they are reached through their template instead).
class KernelFinder : public RecursiveASTVisitor<KernelFinder> {
public:
  explicit KernelFinder(const ASTContext &Ctx) : Ctx(Ctx) {}

  // The HIP and C++ headers hold thousands of declarations and no kernel
  // of the user's: skip them whole.
  bool TraverseDecl(Decl *D) {
    if (D && !isa<TranslationUnitDecl>(D) &&
        !detail::isUserCode(Ctx.getSourceManager(), D->getLocation()))
      return true;
    return RecursiveASTVisitor::TraverseDecl(D);
  }

  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->hasAttr<CUDAGlobalAttr>() && FD->doesThisDeclarationHaveABody() &&
        !FD->isTemplateInstantiation() &&
        detail::isUserCode(Ctx.getSourceManager(), FD->getLocation()))
      kernels.push_back(FD);
    return true;
  }

  std::vector<const FunctionDecl *> kernels;

private:
  const ASTContext &Ctx;
};

} // namespace

KernelModel buildKernelModel(ASTContext &Ctx, const FunctionDecl &Kernel) {
  return describeKernel(Ctx, Kernel);
}

std::vector<KernelModel> buildKernelModels(ASTContext &Ctx) {
  KernelFinder Finder(Ctx);
  Finder.TraverseDecl(Ctx.getTranslationUnitDecl());
  std::vector<KernelModel> Models;
  Models.reserve(Finder.kernels.size());
  for (const FunctionDecl *Kernel : Finder.kernels)
    Models.push_back(describeKernel(Ctx, *Kernel));
  return Models;
}

TranslationUnitModel buildTranslationUnitModel(ASTContext &Ctx) {
  TranslationUnitModel TU;
  const SourceManager &SM = Ctx.getSourceManager();
  if (OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID()))
    TU.file = Main->getName().str();
  TU.kernels = buildKernelModels(Ctx);
  TU.launches = findLaunchSites(Ctx);
  return TU;
}

} // namespace ave::model
