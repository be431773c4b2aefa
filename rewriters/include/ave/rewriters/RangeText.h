// The text of one file range with edits applied: the pipeline rewriter
// copies the staged loads several times (prologue, prefetch, store), each
// copy with its own small edits, and needs the edited text rather than
// Replacements on the file; so does unroll, for each copy of a loop body.
#pragma once

#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace clang {
class ASTContext;
class SourceManager;
} // namespace clang

namespace ave::rw {

class RangeText {
public:
  // Whole: a file character range (from fileRangeForEdit).
  RangeText(const clang::ASTContext &Ctx, clang::CharSourceRange Whole);

  // Replaces the tokens Tokens (inside Whole) by Text; false if they are in
  // a macro, outside Whole or overlap an earlier edit.
  bool replace(clang::SourceRange Tokens, std::string Text);
  // Replaces the file characters Chars (from fileRangeForEdit) by Text.
  bool replace(clang::CharSourceRange Chars, std::string Text);
  // Inserts Text right after the token that starts at Token.
  bool insertAfterToken(clang::SourceLocation Token, std::string Text);
  // Inserts Text right before Loc.
  bool insertBefore(clang::SourceLocation Loc, std::string Text);

  std::string text() const;

private:
  struct Edit {
    unsigned begin = 0, end = 0; // offsets into the original text
    std::string text;
  };
  bool add(unsigned Begin, unsigned End, std::string Text);
  bool offsetOf(clang::SourceLocation Loc, unsigned &Offset) const;

  const clang::ASTContext &Ctx;
  unsigned Start = 0;
  std::string Original;
  std::vector<Edit> Edits;
};

// The blanks before the column of L (its line's indentation when L starts
// the line's text).
std::string indentOf(const clang::ASTContext &Ctx, clang::SourceLocation L);

// The text of the file location L's line before L, and after L up to the
// line's end (without the newline): whether an edit's text stands alone on
// its line.
llvm::StringRef lineTextBefore(const clang::SourceManager &SM, clang::SourceLocation L);
llvm::StringRef lineTextAfter(const clang::SourceManager &SM, clang::SourceLocation L);

} // namespace ave::rw
