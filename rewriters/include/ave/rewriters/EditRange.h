// Where an edit may go. Like Clang Transformer's getFileRangeForEdit, an edit
// must cover whole macro expansions (or none): replacing part of one would
// change every other use of the macro, so such sites are refused with a
// reason naming the macro.
#pragma once

#include "clang/Basic/SourceLocation.h"
#include "clang/Tooling/Core/Replacement.h"

#include <string>

namespace clang {
class ASTContext;
}

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

clang::tooling::Replacement replaceRange(const clang::ASTContext &Ctx, clang::CharSourceRange Range,
                                         const std::string &Text);

} // namespace ave::rw
