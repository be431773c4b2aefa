// Host-side kernel launches. Both spellings end up as a CUDAKernelCallExpr:
// `k<<<grid, block, shmem, stream>>>(args)` directly, and
// `hipLaunchKernelGGL(k, grid, block, shmem, stream, args...)` because the
// HIP headers define it as a macro expanding to a triple-chevron launch
// inside `do { ... } while (0)`. The macro form is told apart by the name
// of the macro the call was expanded from; its texts come from the macro
// arguments as the user spelled them.

#include "ModelParts.h"
#include "SourceFacts.h"
#include "ave/model/ModelBuilder.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

namespace ave::model {

using namespace clang;

namespace {

constexpr llvm::StringLiteral HipLaunchMacro = "hipLaunchKernelGGL";

// True when Loc comes from an expansion of hipLaunchKernelGGL, at any depth
// (the public macro forwards to hipLaunchKernelGGLInternal).
bool isInsideHipLaunchMacro(const SourceManager &SM, const LangOptions &LO, SourceLocation Loc) {
  while (Loc.isMacroID()) {
    if (Lexer::getImmediateMacroName(Loc, SM, LO) == HipLaunchMacro)
      return true;
    Loc = SM.getImmediateMacroCallerLoc(Loc);
  }
  return false;
}

// Strips what the compiler added around a launch argument: implicit
// conversions, the parentheses the macro body puts around its parameters,
// and the implicit `dim3(x)` conversion of a plain integer.
const Expr *asWritten(const Expr *E) {
  while (true) {
    const Expr *Inner = E->IgnoreParenImpCasts();
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(Inner);
        Construct && !isa<CXXTemporaryObjectExpr>(Construct) &&
        Construct->getParenOrBraceRange().isInvalid() && Construct->getNumArgs() >= 1) {
      Inner = Construct->getArg(0);
    } else if (const auto *Bind = dyn_cast<CXXBindTemporaryExpr>(Inner)) {
      Inner = Bind->getSubExpr();
    } else if (const auto *Temp = dyn_cast<MaterializeTemporaryExpr>(Inner)) {
      Inner = Temp->getSubExpr();
    }
    if (Inner == E)
      return E;
    E = Inner;
  }
}

std::optional<std::string> optionalArgText(const ASTContext &Ctx, const Expr *E) {
  if (!E || isa<CXXDefaultArgExpr>(E->IgnoreParenImpCasts()))
    return std::nullopt;
  return detail::exprText(Ctx, asWritten(E));
}

// A launch inside a host template may name its kernel through a dependent
// expression (`ops::k<T>`); the name is then the callee as written.
std::string kernelNameOf(const ASTContext &Ctx, const Expr *Callee, const FunctionDecl *Kernel) {
  if (Kernel)
    return detail::functionName(Kernel);
  return detail::spelledText(Ctx, Callee);
}

class LaunchFinder : public RecursiveASTVisitor<LaunchFinder> {
  using Base = RecursiveASTVisitor<LaunchFinder>;

public:
  explicit LaunchFinder(const ASTContext &Ctx) : Ctx(Ctx), SM(Ctx.getSourceManager()) {}

  bool TraverseDecl(Decl *D) {
    if (D && !isa<TranslationUnitDecl>(D) && !detail::isUserCode(SM, D->getLocation()))
      return true;
    const auto *Function = dyn_cast_or_null<FunctionDecl>(D);
    if (Function)
      Callers.push_back(Function);
    bool Continue = Base::TraverseDecl(D);
    if (Function)
      Callers.pop_back();
    return Continue;
  }

  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *Launch) {
    LaunchSite Site;
    Site.call = Launch;
    const Expr *Callee = Launch->getCallee()->IgnoreParenImpCasts();
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Callee))
      Site.kernel = dyn_cast<FunctionDecl>(Ref->getDecl());
    Site.kernelName = kernelNameOf(Ctx, Callee, Site.kernel);
    Site.caller = Callers.empty() ? std::string() : Callers.back()->getQualifiedNameAsString();
    SourceLocation Begin = Launch->getBeginLoc();
    Site.form = isInsideHipLaunchMacro(SM, Ctx.getLangOpts(), Begin)
                    ? LaunchForm::HipLaunchKernelGGL
                    : LaunchForm::TripleChevron;
    Site.location = ave::positionOf(SM, SM.getExpansionLoc(Begin));
    if (const CallExpr *Config = Launch->getConfig()) {
      unsigned N = Config->getNumArgs();
      if (N > 0)
        Site.gridText = detail::exprText(Ctx, asWritten(Config->getArg(0)));
      if (N > 1)
        Site.blockText = detail::exprText(Ctx, asWritten(Config->getArg(1)));
      if (N > 2)
        Site.sharedMemText = optionalArgText(Ctx, Config->getArg(2));
      if (N > 3)
        Site.streamText = optionalArgText(Ctx, Config->getArg(3));
    }
    detail::foldLaunchValues(Ctx, *Launch, Callers.empty() ? nullptr : Callers.back(), Site);
    sites.push_back(std::move(Site));
    return true;
  }

  std::vector<LaunchSite> sites;

private:
  const ASTContext &Ctx;
  const SourceManager &SM;
  std::vector<const FunctionDecl *> Callers;
};

} // namespace

std::vector<LaunchSite> findLaunchSites(ASTContext &Ctx) {
  LaunchFinder Finder(Ctx);
  Finder.TraverseDecl(Ctx.getTranslationUnitDecl());
  return std::move(Finder.sites);
}

} // namespace ave::model
