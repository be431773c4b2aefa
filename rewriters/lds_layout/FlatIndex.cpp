#include "ave/rewriters/lds_layout/FlatIndex.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

namespace ave::rw {

namespace {

std::optional<int64_t> constantValue(const clang::ASTContext &Ctx, const clang::Expr *E) {
  if (E->isValueDependent())
    return std::nullopt;
  clang::Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  return R.Val.getInt().getExtValue();
}

// `r * W` or `W * r` with W constant and r not.
bool matchProduct(const clang::ASTContext &Ctx, const clang::Expr *E, FlatIndex &Out) {
  const auto *Mul = llvm::dyn_cast<clang::BinaryOperator>(E->IgnoreParenImpCasts());
  if (!Mul || Mul->getOpcode() != clang::BO_Mul)
    return false;
  std::optional<int64_t> L = constantValue(Ctx, Mul->getLHS());
  std::optional<int64_t> R = constantValue(Ctx, Mul->getRHS());
  if (R && !L) {
    Out.row = Mul->getLHS();
    Out.width = Mul->getRHS();
    Out.widthValue = *R;
  } else if (L && !R) {
    Out.row = Mul->getRHS();
    Out.width = Mul->getLHS();
    Out.widthValue = *L;
  } else {
    return false;
  }
  Out.product = E;
  return Out.widthValue > 0;
}

} // namespace

FlatIndex decomposeFlatIndex(const clang::ASTContext &Ctx, const clang::Expr *Index) {
  FlatIndex Out;
  const clang::Expr *E = Index->IgnoreParenImpCasts();
  if (const auto *Add = llvm::dyn_cast<clang::BinaryOperator>(E);
      Add && Add->getOpcode() == clang::BO_Add) {
    if (matchProduct(Ctx, Add->getLHS(), Out)) {
      Out.column = Add->getRHS();
      return Out;
    }
    Out = FlatIndex();
    if (matchProduct(Ctx, Add->getRHS(), Out)) {
      Out.column = Add->getLHS();
      return Out;
    }
    Out = FlatIndex();
  } else if (matchProduct(Ctx, E, Out)) {
    return Out;
  }
  Out.failure = "its index is not of the form r * W + c with a constant W";
  return Out;
}

bool looksPadded(const clang::Expr *E) {
  const auto *Add =
      llvm::dyn_cast_or_null<clang::BinaryOperator>(E ? E->IgnoreParenImpCasts() : nullptr);
  return Add && Add->getOpcode() == clang::BO_Add &&
         llvm::isa<clang::IntegerLiteral>(Add->getRHS()->IgnoreParenImpCasts());
}

} // namespace ave::rw
