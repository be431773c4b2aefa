// Every use of a static `__shared__` array inside one kernel, sorted into
// element accesses (the array subscripted in every dimension, the element's
// address never leaving the expression: AddressFlow.h) and escapes (a
// pointer, a reference, a cast, sizeof, a call, inline asm) that a layout
// rewrite cannot follow, each with its location.
#pragma once

#include "clang/Basic/SourceLocation.h"

#include <cstdint>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class ArraySubscriptExpr;
class Expr;
class FunctionDecl;
class VarDecl;
} // namespace clang

namespace ave::ann {
struct PragmaLog;
}

namespace ave::rw {

struct ArrayAccess {
  const clang::ArraySubscriptExpr *expr = nullptr; // the outermost subscript
  std::vector<const clang::Expr *> indices;        // outermost dimension first
  std::vector<bool> reversed;                      // per dimension: spelled `i[a]`
  bool isWrite = false;                            // assigned, compound-assigned, ++/--
};

// An element of the array named inside a `#pragma ave assert/assume`
// (`tag(As[ty][k])`): a layout rewrite must move it with the code.
struct AnnotationAccess {
  std::vector<std::string> indices;           // as written, outermost first
  std::vector<clang::CharSourceRange> ranges; // file range of each index
  clang::SourceLocation location;
  std::string refusal; // not empty: the text cannot be edited (e.g. inside a macro)
};

struct UnfollowedUse {
  clang::SourceLocation location;
  std::string why;
  unsigned vectorBytes = 0; // a vector access through a cast (AddressFlow.h)
};

struct SharedArrayUses {
  const clang::VarDecl *array = nullptr;
  std::vector<uint64_t> extents;                    // outermost first; empty: not a static array
  const clang::Expr *innermostExtent = nullptr;     // as written in the declaration
  std::vector<ArrayAccess> accesses;                // in source order
  std::vector<AnnotationAccess> annotationAccesses; // in pragmas, in source order
  std::vector<UnfollowedUse> unfollowed;
  // Where the kernel body's text names the array outside the parse: in a
  // preprocessor branch not taken for the target parsed (`#if
  // defined(__HIP_PLATFORM_NVIDIA__)` on gfx942). Directive lines and
  // comments do not count. A rewrite that changes how the array is indexed
  // cannot reach these uses.
  std::vector<clang::SourceLocation> unseen;
};

// `__shared__` variables declared in the kernel body, in source order.
std::vector<const clang::VarDecl *> sharedArraysOf(const clang::FunctionDecl &Kernel);

// `Pragmas` (may be null) lets the annotations' accesses be found too.
SharedArrayUses collectSharedArrayUses(clang::ASTContext &Ctx, const clang::FunctionDecl &Kernel,
                                       const clang::VarDecl &Array, const ann::PragmaLog *Pragmas);

} // namespace ave::rw
