// A flattened 2-D index `r * W + c` (or `W * r + c`, `c + r * W`, `r * W`)
// into a 1-D shared array, with W an integer constant: the form lds-pad and
// lds-swizzle can re-lay out consistently.
#pragma once

#include <cstdint>
#include <string>

namespace clang {
class ASTContext;
class Expr;
} // namespace clang

namespace ave::rw {

struct FlatIndex {
  const clang::Expr *product = nullptr; // r * W
  const clang::Expr *row = nullptr;
  const clang::Expr *width = nullptr; // as written
  int64_t widthValue = 0;
  const clang::Expr *column = nullptr; // null for `r * W` alone
  std::string failure;                 // why the index has another form
  bool ok() const { return failure.empty(); }
};

FlatIndex decomposeFlatIndex(const clang::ASTContext &Ctx, const clang::Expr *Index);

// True for `X + <integer literal>` (ignoring parentheses): an extent or a
// width that a padding rewrite already produced.
bool looksPadded(const clang::Expr *E);

} // namespace ave::rw
