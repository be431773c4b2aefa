#include "SourceFacts.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/raw_ostream.h"

namespace ave::model::detail {

using namespace clang;

bool isUserCode(const SourceManager &SM, SourceLocation Loc) {
  if (Loc.isInvalid())
    return false;
  return !SM.isInSystemHeader(SM.getExpansionLoc(Loc));
}

std::string exprText(const ASTContext &Ctx, const Expr *E) {
  if (!E)
    return {};
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  CharSourceRange Range =
      Lexer::makeFileCharRange(CharSourceRange::getTokenRange(E->getSourceRange()), SM, LO);
  if (Range.isInvalid()) {
    // A macro argument whose two ends lie in the same argument: read the
    // text where it was spelled.
    SourceLocation Begin = SM.getSpellingLoc(E->getBeginLoc());
    SourceLocation End = SM.getSpellingLoc(E->getEndLoc());
    if (Begin.isValid() && End.isValid() && SM.getFileID(Begin) == SM.getFileID(End) &&
        !SM.isBeforeInTranslationUnit(End, Begin))
      Range = CharSourceRange::getTokenRange(Begin, End);
  }
  if (Range.isValid()) {
    bool Invalid = false;
    llvm::StringRef Text = Lexer::getSourceText(Range, SM, LO, &Invalid);
    if (!Invalid && !Text.empty())
      return Text.str();
  }
  std::string Printed;
  llvm::raw_string_ostream OS(Printed);
  E->printPretty(OS, nullptr, Ctx.getPrintingPolicy());
  return Printed;
}

std::string spelledText(const ASTContext &Ctx, const Expr *E) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Begin = SM.getSpellingLoc(E->getBeginLoc());
  SourceLocation End = SM.getSpellingLoc(E->getEndLoc());
  if (Begin.isValid() && End.isValid() && SM.getFileID(Begin) == SM.getFileID(End) &&
      !SM.isBeforeInTranslationUnit(End, Begin)) {
    bool Invalid = false;
    llvm::StringRef Text = Lexer::getSourceText(CharSourceRange::getTokenRange(Begin, End), SM,
                                                Ctx.getLangOpts(), &Invalid);
    if (!Invalid && !Text.empty())
      return Text.str();
  }
  return exprText(Ctx, E);
}

ConstantOrText constantOrText(const ASTContext &Ctx, const Expr *E) {
  ConstantOrText Result;
  if (!E)
    return Result;
  Result.text = exprText(Ctx, E);
  if (!E->isValueDependent() && !E->isTypeDependent()) {
    Expr::EvalResult Value;
    if (E->EvaluateAsInt(Value, Ctx) && Value.Val.isInt())
      Result.value = Value.Val.getInt().getExtValue();
  }
  return Result;
}

std::string calleeName(const CallExpr *Call) {
  if (const FunctionDecl *FD = Call->getDirectCallee())
    return FD->getNameAsString();
  const Expr *Callee = Call->getCallee()->IgnoreParenImpCasts();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Callee))
    return Ref->getNameInfo().getAsString();
  if (const auto *Overloads = dyn_cast<OverloadExpr>(Callee))
    return Overloads->getName().getAsString();
  if (const auto *Dependent = dyn_cast<CXXDependentScopeMemberExpr>(Callee))
    return Dependent->getMember().getAsString();
  return {};
}

std::string functionName(const FunctionDecl *FD) {
  std::string Name;
  llvm::raw_string_ostream OS(Name);
  PrintingPolicy Policy(FD->getASTContext().getLangOpts());
  Policy.SuppressScope = false;
  FD->getNameForDiagnostic(OS, Policy, /*Qualified=*/true);
  return Name;
}

} // namespace ave::model::detail
