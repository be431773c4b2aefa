#include "ave/rewriters/EditRange.h"

#include "clang/AST/ASTContext.h"
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

std::string sourceText(const clang::ASTContext &Ctx, clang::CharSourceRange Range) {
  return clang::Lexer::getSourceText(Range, Ctx.getSourceManager(), Ctx.getLangOpts()).str();
}

clang::tooling::Replacement replaceRange(const clang::ASTContext &Ctx, clang::CharSourceRange Range,
                                         const std::string &Text) {
  return clang::tooling::Replacement(Ctx.getSourceManager(), Range, Text, Ctx.getLangOpts());
}

} // namespace ave::rw
