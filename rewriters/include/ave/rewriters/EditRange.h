// Where an edit may go. Like Clang Transformer's getFileRangeForEdit, an edit
// must cover whole macro expansions (or none): replacing part of one would
// change every other use of the macro, so such sites are refused with a
// reason naming the macro. An edit inside a macro argument changes every
// place the macro expands that argument, so it is allowed only where the
// argument is used once (macroArgumentRefusal).
#pragma once

#include "clang/Basic/SourceLocation.h"
#include "clang/Tooling/Core/Replacement.h"

#include <string>

namespace clang {
class ASTContext;
class Expr;
class Stmt;
} // namespace clang

namespace ave::rw {

struct EditRange {
  clang::CharSourceRange range; // file characters; valid only when refusal is empty
  std::string refusal;
  bool ok() const { return refusal.empty(); }
};

// The file range of the token range `Tokens`, in the main file, or why not.
EditRange fileRangeForEdit(const clang::ASTContext &Ctx, clang::SourceRange Tokens);

// The source text of a file range from fileRangeForEdit.
std::string sourceText(const clang::ASTContext &Ctx, clang::CharSourceRange Range);

// Not empty when `Target` is spelled in a macro argument that the macro
// expands somewhere else in `Scope` too (`#define AT(r, c) t[r][c] + g[c]`):
// editing the argument's text would edit every expansion.
std::string macroArgumentRefusal(const clang::ASTContext &Ctx, const clang::Stmt &Scope,
                                 const clang::Expr &Target);

clang::tooling::Replacement replaceRange(const clang::ASTContext &Ctx, clang::CharSourceRange Range,
                                         const std::string &Text);

} // namespace ave::rw
