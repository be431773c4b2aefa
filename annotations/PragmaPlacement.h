// Where a recorded pragma sits in a kernel body: the statement it precedes,
// the innermost enclosing block and the locals visible there. Internal.
#ifndef AVE_ANNOTATIONS_PRAGMAPLACEMENT_H
#define AVE_ANNOTATIONS_PRAGMAPLACEMENT_H

#include "clang/Basic/SourceLocation.h"

#include <optional>
#include <string>
#include <vector>

namespace clang {
class CompoundStmt;
class FunctionDecl;
class SourceManager;
class Stmt;
class VarDecl;
} // namespace clang

namespace ave::ann {

struct PragmaPlacement {
  const clang::CompoundStmt *block = nullptr;
  const clang::Stmt *statement = nullptr; // nullptr: end of block
  unsigned indexInBlock = 0;              // of `statement` among the block's children
  std::vector<const clang::VarDecl *> locals;
  // Set when the pragma is inside a statement but not in a block of its own
  // (e.g. between `for (...)` and an unbraced body).
  std::optional<std::string> error;
};

// `location` is the pragma's expansion location. True when it lies between
// the braces of the kernel's body.
bool isInsideBody(const clang::SourceManager &Sm, const clang::FunctionDecl &Kernel,
                  clang::SourceLocation Location);

// Precondition: isInsideBody(...).
PragmaPlacement placePragma(const clang::SourceManager &Sm, const clang::FunctionDecl &Kernel,
                            clang::SourceLocation Location);

} // namespace ave::ann

#endif // AVE_ANNOTATIONS_PRAGMAPLACEMENT_H
