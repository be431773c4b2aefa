// Launch facts from the model's launch sites (LaunchContext.h). A value a
// site does not fold stays unconstrained: the facts are never stronger than
// the launch.

#include "ave/invariants/lds/LaunchContext.h"

#include "ave/invariants/KernelAnalysis.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "llvm/Support/Path.h"

namespace ave::inv::lds {

namespace {

std::optional<int64_t> foldAttrArg(const clang::FunctionDecl &Kernel, const clang::Expr *E) {
  clang::Expr::EvalResult R;
  if (!E || E->isValueDependent() || !E->EvaluateAsInt(R, Kernel.getASTContext()))
    return std::nullopt;
  return R.Val.getInt().getExtValue();
}

// `__launch_bounds__(N)`: at most N threads per block (HIP spells it
// amdgpu_flat_work_group_size(1, N)).
std::optional<int64_t> maxThreadsPerBlock(const clang::FunctionDecl &Kernel) {
  if (const auto *B = Kernel.getAttr<clang::CUDALaunchBoundsAttr>())
    return foldAttrArg(Kernel, B->getMaxThreads());
  if (const auto *F = Kernel.getAttr<clang::AMDGPUFlatWorkGroupSizeAttr>())
    return foldAttrArg(Kernel, F->getMax());
  return std::nullopt;
}

bool launches(const model::LaunchSite &Site, const clang::FunctionDecl &Kernel) {
  return Site.kernel && Site.kernel->getCanonicalDecl() == Kernel.getCanonicalDecl();
}

LaunchContext siteContext(KernelAnalysis &A, const clang::FunctionDecl &Kernel,
                          const model::LaunchSite &Site) {
  TermContext &T = A.terms();
  LaunchContext C;
  C.label = llvm::sys::path::filename(Site.location.file).str() + ":" +
            std::to_string(Site.location.line);
  if (Site.call)
    C.location =
        Kernel.getASTContext().getSourceManager().getExpansionLoc(Site.call->getBeginLoc());
  for (unsigned D = 0; D < 3; ++D) {
    if (Site.block[D]) {
      C.facts.push_back(T.eq(A.blockDim(D), T.constant(*Site.block[D])));
      C.blockFixed[D] = true;
    }
    if (Site.grid[D]) {
      C.facts.push_back(T.eq(A.gridDim(D), T.constant(*Site.grid[D])));
      C.gridFixed[D] = true;
    }
  }
  if (Site.sharedMemBytes)
    C.facts.push_back(T.eq(T.symbol(DynamicSharedBytesName, SymbolKind::Param),
                           T.constant(*Site.sharedMemBytes)));
  for (size_t I = 0; I < Site.argValues.size() && I < Kernel.getNumParams(); ++I) {
    const clang::ParmVarDecl *P = Kernel.getParamDecl(unsigned(I));
    if (!Site.argValues[I] || P->getName().empty())
      continue;
    C.facts.push_back(
        T.eq(T.symbol(P->getName().str(), SymbolKind::Param), T.constant(*Site.argValues[I])));
  }
  return C;
}

} // namespace

std::vector<LaunchContext> launchContexts(KernelAnalysis &A, const clang::FunctionDecl &Kernel,
                                          std::span<const model::LaunchSite> Sites) {
  TermContext &T = A.terms();
  std::vector<const Term *> Bounds;
  if (std::optional<int64_t> Max = maxThreadsPerBlock(Kernel); Max && *Max > 0)
    for (unsigned D = 0; D < 3; ++D)
      Bounds.push_back(T.le(A.blockDim(D), T.constant(*Max)));
  std::vector<LaunchContext> Out;
  for (const model::LaunchSite &Site : Sites) {
    if (!launches(Site, Kernel))
      continue;
    LaunchContext C = siteContext(A, Kernel, Site);
    C.facts.insert(C.facts.end(), Bounds.begin(), Bounds.end());
    // A launch the kernel's own facts rule out would make every question
    // about it vacuous: it is not used, and says so.
    if (A.solver().decide(T.allOf(C.facts)).status == SolverResult::Proven)
      C.unusable = "the launch at " + C.label +
                   " contradicts the kernel's own launch facts (#pragma ave launch, assumptions "
                   "or __launch_bounds__)";
    Out.push_back(std::move(C));
  }
  if (Out.empty()) {
    LaunchContext C;
    C.facts = std::move(Bounds);
    Out.push_back(std::move(C));
  }
  return Out;
}

} // namespace ave::inv::lds
