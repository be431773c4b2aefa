// Resolving the names used in tag specs and pragmas against a kernel.
// Internal to the annotations library.
#ifndef AVE_ANNOTATIONS_NAMERESOLVER_H
#define AVE_ANNOTATIONS_NAMERESOLVER_H

#include "ave/annotations/KernelAnnotations.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <string>
#include <vector>

namespace clang {
class VarDecl;
} // namespace clang

namespace ave::ann {

// Receives [begin, end) offsets into the annotation text and a message.
using ErrorReporter = llvm::function_ref<void(unsigned, unsigned, std::string)>;

struct NameScope {
  clang::ASTContext &context;
  const clang::FunctionDecl &kernel;
  const PragmaLog &log;
  const std::vector<BoundTag> &tags; // tag literals refer to these
  // Set while resolving a tag spec: its coordinates are names.
  const TagSpec *spec = nullptr;
  // Locals visible at the annotation, in declaration order (later shadows earlier).
  std::vector<const clang::VarDecl *> locals;
  // "'#pragma ave assert'" or "tag spec", for messages.
  std::string where;
  // tag(e) and tag literals are allowed (assert/assume only).
  bool allowTags = false;
};

// Resolves every name in `expr` in place; returns false after reporting the
// first problem.
bool resolveNames(Expr &Expr, const NameScope &Scope, ErrorReporter Report);

// Resolves bounds and layout of a spec (its coordinates are in scope in the
// layout only).
bool resolveSpecNames(TagSpec &Spec, const NameScope &Scope, ErrorReporter Report);

} // namespace ave::ann

#endif // AVE_ANNOTATIONS_NAMERESOLVER_H
