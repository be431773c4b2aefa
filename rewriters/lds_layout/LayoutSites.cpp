#include "LayoutSites.h"

#include "ave/rewriters/EditRange.h"
#include "ave/rewriters/TestHooks.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

namespace ave::rw {

std::vector<SharedArrayUses> selectArrays(const RewriteRequest &Request, RewriteResult &Result) {
  std::string Wanted;
  if (auto It = Request.parameters.find("array"); It != Request.parameters.end())
    Wanted = It->second;
  std::vector<SharedArrayUses> Out;
  for (const clang::VarDecl *VD : sharedArraysOf(Request.kernel)) {
    if (!Wanted.empty() && VD->getName() != Wanted)
      continue;
    Out.push_back(collectSharedArrayUses(Request.context, Request.kernel, *VD, Request.pragmas));
  }
  if (Out.empty())
    addNotApplicable(Result, Request.context, Request.kernel.getLocation(),
                     "kernel '" + Request.kernel.getNameAsString() +
                         "' declares no __shared__ array" +
                         (Wanted.empty() ? std::string() : " named '" + Wanted + "'"));
  return Out;
}

bool layoutIsFollowable(const SharedArrayUses &Uses, const RewriteRequest &Request,
                        const std::string &Rewrite, RewriteResult &Result) {
  const std::string Name = Uses.array->getNameAsString();
  if (Uses.extents.empty()) {
    const bool Dependent = Uses.array->getType()->isDependentSizedArrayType();
    addNotApplicable(Result, Request.context, Uses.array->getLocation(),
                     Rewrite + " needs a static extent, and '" + Name + "' has " +
                         (Dependent ? "one that depends on a template parameter" : "none"));
    return false;
  }
  if (!Uses.unfollowed.empty() && testing::injectedBug() != testing::InjectedBug::AcceptEscapes) {
    addNotApplicable(Result, Request.context, Uses.unfollowed.front().location,
                     Uses.unfollowed.front().why + ", so " + Rewrite +
                         " cannot follow every access");
    return false;
  }
  if (Uses.accesses.empty()) {
    addNotApplicable(Result, Request.context, Uses.array->getLocation(),
                     "'" + Name + "' is never accessed");
    return false;
  }
  return true;
}

std::optional<std::string> textOf(const clang::Expr *E, const RewriteRequest &Request,
                                  const std::string &Rewrite, RewriteResult &Result) {
  EditRange R = fileRangeForEdit(Request.context, E->getSourceRange());
  if (!R.ok()) {
    addNotApplicable(Result, Request.context, E->getBeginLoc(), Rewrite + ": " + R.refusal);
    return std::nullopt;
  }
  return sourceText(Request.context, R.range);
}

std::string parenthesized(const clang::Expr *E, const std::string &Text) {
  const clang::Expr *Bare = E->IgnoreImpCasts();
  if (llvm::isa<clang::DeclRefExpr, clang::IntegerLiteral, clang::ParenExpr, clang::CallExpr,
                clang::ArraySubscriptExpr, clang::MemberExpr>(Bare))
    return Text;
  return "(" + Text + ")";
}

} // namespace ave::rw
