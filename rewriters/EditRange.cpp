#include "ave/rewriters/EditRange.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

namespace ave::rw {

EditRange fileRangeForEdit(const clang::ASTContext &Ctx, clang::SourceRange Tokens) {
  const clang::SourceManager &SM = Ctx.getSourceManager();
  EditRange Out;
  clang::CharSourceRange Range = clang::Lexer::makeFileCharRange(
      clang::CharSourceRange::getTokenRange(Tokens), SM, Ctx.getLangOpts());
  if (Range.isInvalid()) {
    clang::SourceLocation Begin = Tokens.getBegin();
    llvm::StringRef Macro = Begin.isMacroID()
                                ? clang::Lexer::getImmediateMacroName(Begin, SM, Ctx.getLangOpts())
                                : llvm::StringRef();
    Out.refusal = Macro.empty()
                      ? "the edit would split a macro expansion"
                      : "the edit would split the expansion of macro '" + Macro.str() + "'";
    return Out;
  }
  if (!SM.isWrittenInMainFile(Range.getBegin())) {
    Out.refusal = "the edit would be in an included file";
    return Out;
  }
  Out.range = Range;
  return Out;
}

namespace {

// Finds an expression that starts at the same spelled token as the target
// but in another expansion (another use of the same macro argument).
class OtherExpansionFinder : public clang::RecursiveASTVisitor<OtherExpansionFinder> {
public:
  OtherExpansionFinder(const clang::SourceManager &SM, clang::SourceLocation Target)
      : SM(SM), Target(Target), Spelling(SM.getSpellingLoc(Target)) {}
  bool VisitExpr(clang::Expr *E) {
    clang::SourceLocation Begin = E->getBeginLoc();
    if (Begin.isMacroID() && Begin != Target && SM.getSpellingLoc(Begin) == Spelling) {
      found = Begin;
      return false;
    }
    return true;
  }
  clang::SourceLocation found;

private:
  const clang::SourceManager &SM;
  clang::SourceLocation Target, Spelling;
};

} // namespace

std::string macroArgumentRefusal(const clang::ASTContext &Ctx, const clang::Stmt &Scope,
                                 const clang::Expr &Target) {
  const clang::SourceManager &SM = Ctx.getSourceManager();
  clang::SourceLocation Begin = Target.getBeginLoc();
  if (!Begin.isMacroID() || !SM.isMacroArgExpansion(Begin))
    return "";
  OtherExpansionFinder Finder(SM, Begin);
  Finder.TraverseStmt(const_cast<clang::Stmt *>(&Scope));
  if (Finder.found.isInvalid())
    return "";
  llvm::StringRef Macro = clang::Lexer::getImmediateMacroName(Begin, SM, Ctx.getLangOpts());
  clang::PresumedLoc Other = SM.getPresumedLoc(SM.getExpansionLoc(Finder.found));
  return "the edit is in an argument of macro '" + Macro.str() +
         "' that the macro also uses elsewhere" +
         (Other.isValid() ? " (expanded again at line " + std::to_string(Other.getLine()) + ")"
                          : std::string()) +
         ", so editing it would change that use too";
}

std::string sourceText(const clang::ASTContext &Ctx, clang::CharSourceRange Range) {
  return clang::Lexer::getSourceText(Range, Ctx.getSourceManager(), Ctx.getLangOpts()).str();
}

clang::tooling::Replacement replaceRange(const clang::ASTContext &Ctx, clang::CharSourceRange Range,
                                         const std::string &Text) {
  return clang::tooling::Replacement(Ctx.getSourceManager(), Range, Text, Ctx.getLangOpts());
}

} // namespace ave::rw
