// What a launch fixes: its configuration and integer arguments folded to
// constants where the translation unit makes them constant. A value that
// does not fold stays unset (symbolic): a fact taken from a launch must
// never be stronger than the launch itself.
//
// A `dim3` is folded through its constructor (`dim3(w / bx, w / by)`, its
// default arguments included), the implicit conversion of an integer, or a
// local `dim3 grid(...)` variable whose only uses are launch configurations
// (anything else could have changed it before the launch).

#include "ModelParts.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

#include <array>

namespace ave::model::detail {

using namespace clang;

namespace {

using Dim3 = std::array<std::optional<std::int64_t>, 3>;

std::optional<std::int64_t> foldInt(const ASTContext &Ctx, const Expr *E) {
  if (!E || E->isValueDependent() || E->isTypeDependent())
    return std::nullopt;
  Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  return R.Val.getInt().getExtValue();
}

const Expr *stripTemporaries(const Expr *E) {
  while (true) {
    const Expr *Inner = E->IgnoreParenImpCasts();
    if (const auto *Temp = dyn_cast<MaterializeTemporaryExpr>(Inner))
      Inner = Temp->getSubExpr();
    else if (const auto *Bind = dyn_cast<CXXBindTemporaryExpr>(Inner))
      Inner = Bind->getSubExpr();
    else if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(Inner))
      Inner = Cast->getSubExpr();
    if (Inner == E)
      return E;
    E = Inner;
  }
}

bool isDim3(QualType T) {
  const auto *Record = T.getNonReferenceType()->getAsCXXRecordDecl();
  return Record && Record->getName() == "dim3";
}

// A `dim3` variable as a launch argument is copied: the reference under
// the copy constructor.
const DeclRefExpr *copiedVariable(const Expr *E) {
  E = stripTemporaries(E);
  if (const auto *Copy = dyn_cast<CXXConstructExpr>(E);
      Copy && Copy->getNumArgs() == 1 && isDim3(Copy->getArg(0)->getType()))
    E = stripTemporaries(Copy->getArg(0));
  return dyn_cast<DeclRefExpr>(E);
}

// Counts the references to Var in a function body, and those that are a
// launch's grid or block argument.
class DimVarUses : public RecursiveASTVisitor<DimVarUses> {
public:
  explicit DimVarUses(const VarDecl *Var) : var(Var) {}
  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    total += Ref->getDecl() == var;
    return true;
  }
  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *Launch) {
    if (const CallExpr *Config = Launch->getConfig())
      for (unsigned I = 0; I < Config->getNumArgs() && I < 2; ++I)
        if (const DeclRefExpr *Ref = copiedVariable(Config->getArg(I)))
          inLaunches += Ref->getDecl() == var;
    return true;
  }
  const VarDecl *var;
  unsigned total = 0, inLaunches = 0;
};

// The initialiser of a local dim3 that nothing but launches reads.
const Expr *unchangedInit(const VarDecl *Var, const FunctionDecl *Caller) {
  if (!Var || !Var->hasLocalStorage() || isa<ParmVarDecl>(Var) || !Var->getInit() || !Caller ||
      !Caller->getBody() || Var->getType()->isReferenceType())
    return nullptr;
  DimVarUses Uses(Var);
  Uses.TraverseStmt(Caller->getBody());
  return Uses.total == Uses.inLaunches ? Var->getInit() : nullptr;
}

Dim3 foldDim3(const ASTContext &Ctx, const Expr *E, const FunctionDecl *Caller,
              unsigned Depth = 0) {
  Dim3 Out;
  if (!E || Depth > 4)
    return Out;
  E = stripTemporaries(E);
  if (E->getType()->isIntegralOrEnumerationType()) {
    Out = {foldInt(Ctx, E), 1, 1};
    return Out;
  }
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
    unsigned N = Construct->getNumArgs();
    if (N == 1 && isDim3(Construct->getArg(0)->getType())) // copy or move
      return foldDim3(Ctx, Construct->getArg(0), Caller, Depth + 1);
    if (N == 1 && Construct->getArg(0)->getType()->isIntegralOrEnumerationType() &&
        Construct->getConstructor()->getNumParams() == 1) // a converting constructor
      return {foldInt(Ctx, Construct->getArg(0)), 1, 1};
    if (!isDim3(Construct->getType()) || N > 3)
      return Out;
    Out = {1, 1, 1};
    for (unsigned I = 0; I < N; ++I)
      Out[I] = foldInt(Ctx, Construct->getArg(I));
    return Out;
  }
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
    if (Var && Var->getType().isConstQualified() && Var->getAnyInitializer())
      return foldDim3(Ctx, Var->getAnyInitializer(), Caller, Depth + 1);
    return foldDim3(Ctx, unchangedInit(Var, Caller), Caller, Depth + 1);
  }
  return Out;
}

} // namespace

void foldLaunchValues(const ASTContext &Ctx, const CUDAKernelCallExpr &Launch,
                      const FunctionDecl *Caller, LaunchSite &Site) {
  if (const CallExpr *Config = Launch.getConfig()) {
    unsigned N = Config->getNumArgs();
    Dim3 Grid = N > 0 ? foldDim3(Ctx, Config->getArg(0), Caller) : Dim3{};
    Dim3 Block = N > 1 ? foldDim3(Ctx, Config->getArg(1), Caller) : Dim3{};
    for (unsigned D = 0; D < 3; ++D) {
      Site.grid[D] = Grid[D];
      Site.block[D] = Block[D];
    }
    if (N > 2)
      Site.sharedMemBytes = foldInt(Ctx, Config->getArg(2)); // a default argument folds to 0
    else
      Site.sharedMemBytes = 0;
  }
  const FunctionDecl *Kernel = Site.kernel;
  if (!Kernel)
    return;
  for (unsigned I = 0; I < Kernel->getNumParams(); ++I) {
    std::optional<std::int64_t> V;
    if (I < Launch.getNumArgs() &&
        Kernel->getParamDecl(I)->getType()->isIntegralOrEnumerationType())
      V = foldInt(Ctx, Launch.getArg(I));
    Site.argValues.push_back(V);
  }
}

} // namespace ave::model::detail
