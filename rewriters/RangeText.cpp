#include "ave/rewriters/RangeText.h"

#include "ave/rewriters/EditRange.h"

#include "clang/AST/ASTContext.h"
#include "clang/Lex/Lexer.h"

#include <algorithm>

namespace ave::rw {

RangeText::RangeText(const clang::ASTContext &Ctx, clang::CharSourceRange Whole) : Ctx(Ctx) {
  const clang::SourceManager &SM = Ctx.getSourceManager();
  Start = SM.getFileOffset(Whole.getBegin());
  Original = sourceText(Ctx, Whole);
}

bool RangeText::offsetOf(clang::SourceLocation Loc, unsigned &Offset) const {
  const clang::SourceManager &SM = Ctx.getSourceManager();
  if (Loc.isInvalid() || Loc.isMacroID() || !SM.isWrittenInMainFile(Loc))
    return false;
  unsigned File = SM.getFileOffset(Loc);
  if (File < Start || File > Start + Original.size())
    return false;
  Offset = File - Start;
  return true;
}

bool RangeText::add(unsigned Begin, unsigned End, std::string Text) {
  for (const Edit &E : Edits)
    if (Begin < E.end && E.begin < End)
      return false;
  Edits.push_back({Begin, End, std::move(Text)});
  return true;
}

bool RangeText::replace(clang::SourceRange Tokens, std::string Text) {
  EditRange R = fileRangeForEdit(Ctx, Tokens);
  unsigned Begin = 0, End = 0;
  if (!R.ok() || !offsetOf(R.range.getBegin(), Begin) || !offsetOf(R.range.getEnd(), End))
    return false;
  return add(Begin, End, std::move(Text));
}

bool RangeText::replace(clang::CharSourceRange Chars, std::string Text) {
  unsigned Begin = 0, End = 0;
  if (!offsetOf(Chars.getBegin(), Begin) || !offsetOf(Chars.getEnd(), End))
    return false;
  return add(Begin, End, std::move(Text));
}

bool RangeText::insertAfterToken(clang::SourceLocation Token, std::string Text) {
  clang::SourceLocation After =
      clang::Lexer::getLocForEndOfToken(Token, 0, Ctx.getSourceManager(), Ctx.getLangOpts());
  unsigned At = 0;
  return offsetOf(After, At) && add(At, At, std::move(Text));
}

bool RangeText::insertBefore(clang::SourceLocation Loc, std::string Text) {
  unsigned At = 0;
  return offsetOf(Loc, At) && add(At, At, std::move(Text));
}

std::string RangeText::text() const {
  std::vector<Edit> Sorted = Edits;
  std::sort(Sorted.begin(), Sorted.end(), [](const Edit &A, const Edit &B) {
    return A.begin < B.begin || (A.begin == B.begin && A.end < B.end);
  });
  std::string Out;
  unsigned At = 0;
  for (const Edit &E : Sorted) {
    Out += Original.substr(At, E.begin - At);
    Out += E.text;
    At = E.end;
  }
  Out += Original.substr(At);
  return Out;
}

std::string indentOf(const clang::ASTContext &Ctx, clang::SourceLocation L) {
  unsigned Column = Ctx.getSourceManager().getExpansionColumnNumber(L);
  return std::string(Column > 0 ? Column - 1 : 0, ' ');
}

llvm::StringRef lineTextBefore(const clang::SourceManager &SM, clang::SourceLocation L) {
  auto [File, Offset] = SM.getDecomposedLoc(L);
  llvm::StringRef Before = SM.getBufferData(File).take_front(Offset);
  size_t Newline = Before.rfind('\n');
  return Newline == llvm::StringRef::npos ? Before : Before.drop_front(Newline + 1);
}

llvm::StringRef lineTextAfter(const clang::SourceManager &SM, clang::SourceLocation L) {
  auto [File, Offset] = SM.getDecomposedLoc(L);
  llvm::StringRef After = SM.getBufferData(File).drop_front(Offset);
  return After.take_until([](char C) { return C == '\n'; });
}

} // namespace ave::rw
