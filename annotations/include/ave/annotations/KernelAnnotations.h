// Binding annotations to a kernel's AST.
//
// collectKernelAnnotations() parses every tag attribute and every recorded
// `#pragma ave` inside one `__global__` kernel, attaches each pragma to the
// statement it precedes, and resolves every name in them (coordinate, tag,
// parameter, local in scope, shared/global array, builtin, constant). The
// analysis reads the result; nothing in it is re-parsed later. Problems are
// AnnotationErrors with exact source ranges, never silently dropped.
#ifndef AVE_ANNOTATIONS_KERNELANNOTATIONS_H
#define AVE_ANNOTATIONS_KERNELANNOTATIONS_H

#include "ave/annotations/Pragma.h"
#include "ave/annotations/PragmaLog.h"
#include "ave/annotations/TagSpec.h"

#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/ArrayRef.h"

#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class CompoundStmt;
class FunctionDecl;
class StringLiteral;
class Stmt;
class ValueDecl;
} // namespace clang

namespace ave::ann {

struct AnnotationNote {
  clang::SourceRange range;
  std::string message;
};

// `range` is a token range whose end is the location of the last byte of the
// offending text (begin == end for a single position), so it can be streamed
// into a clang diagnostic as is.
struct AnnotationError {
  clang::SourceRange range;
  std::string message;
  std::optional<AnnotationNote> note;
};

enum class TaggedDeclKind { PointerParameter, SharedArray, GlobalArray };

const char *taggedDeclKindName(TaggedDeclKind Kind);

struct BoundTag {
  const clang::ValueDecl *decl = nullptr; // ParmVarDecl or VarDecl
  TaggedDeclKind declKind = TaggedDeclKind::PointerParameter;
  TagSpec spec; // names resolved
  const clang::StringLiteral *specLiteral = nullptr;
  clang::SourceRange specRange; // the string literal
};

struct BoundPragma {
  Pragma pragma; // names resolved; tag literals' arguments in declaration order
  std::string text;
  clang::SourceLocation location; // `#pragma` / the AVE_* macro use
  size_t logIndex = 0;            // into PragmaLog::pragmas
  // The program point: before `statement` in `block`; statement == nullptr
  // means the end of `block`.
  const clang::Stmt *statement = nullptr;
  const clang::CompoundStmt *block = nullptr;
  // `launch`, and `assume` before the first statement of the kernel body:
  // facts about the whole kernel rather than about one program point.
  bool kernelLevel = false;
};

struct KernelAnnotations {
  const clang::FunctionDecl *kernel = nullptr;
  std::vector<BoundTag> tags;       // parameters in order, then arrays
  std::vector<BoundPragma> pragmas; // in source order
  std::vector<AnnotationError> errors;

  // The first declaration of tensor `name` (it fixes the coordinate order).
  const BoundTag *findTag(std::string_view Tensor) const;
  // The tag on `decl`, if any.
  const BoundTag *tagOn(const clang::ValueDecl *Decl) const;
  const BoundPragma *launch() const;
};

KernelAnnotations collectKernelAnnotations(clang::ASTContext &Context,
                                           const clang::FunctionDecl &Kernel, const PragmaLog &Log);

// `__global__` functions with a body in the main file and the headers it
// includes, in source order (template patterns included).
std::vector<const clang::FunctionDecl *> findKernels(clang::ASTContext &Context);

// The instantiations with a body of a template kernel pattern (explicit or
// implicit), in the order Clang made them; empty for a plain kernel.
std::vector<const clang::FunctionDecl *> kernelInstantiations(const clang::FunctionDecl &Kernel);

// A `#pragma ave` that is not inside the body of one of `kernels`.
std::vector<AnnotationError> findStrayPragmas(clang::ASTContext &Context, const PragmaLog &Log,
                                              llvm::ArrayRef<const clang::FunctionDecl *> Kernels);

} // namespace ave::ann

#endif // AVE_ANNOTATIONS_KERNELANNOTATIONS_H
