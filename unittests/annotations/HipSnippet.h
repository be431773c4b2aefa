// Parsing a HIP snippet in memory with the `#pragma ave` recorder installed,
// for tests of the Clang binding. The AST lives only during the callback, so
// tests make their assertions inside it.
#ifndef AVE_UNITTESTS_ANNOTATIONS_HIPSNIPPET_H
#define AVE_UNITTESTS_ANNOTATIONS_HIPSNIPPET_H

#include "ave/annotations/KernelAnnotations.h"
#include "ave/annotations/PragmaLog.h"

#include "clang/AST/ASTContext.h"

#include <functional>
#include <string>
#include <vector>

namespace ave::ann::test {

// Declares __global__ / __shared__ / __device__ without the HIP headers, and
// includes ave/annotations.h.
extern const char *const MinimalPrelude;

struct Snippet {
  clang::ASTContext &context;
  const PragmaLog &log;
  std::vector<const clang::FunctionDecl *> kernels;

  const clang::FunctionDecl *kernel(const std::string &name) const;
  // Collects the annotations of the only (or the named) kernel.
  KernelAnnotations annotate(const std::string &name = "") const;
  // 1-based line and column of `location` (file location: inside a macro
  // argument where the text was written, else the macro use).
  std::pair<unsigned, unsigned> lineColumn(clang::SourceLocation location) const;
};

// Parses `code` as HIP device code (gfx942); returns false when Clang
// reported errors. `onParsed` runs while the AST is alive.
bool parseHip(const std::string &code, const std::function<void(const Snippet &)> &onParsed);

} // namespace ave::ann::test

#endif // AVE_UNITTESTS_ANNOTATIONS_HIPSNIPPET_H
