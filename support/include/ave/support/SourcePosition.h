// One way to say where something is in the user's source, for every layer:
// the kernel model, diagnostics, annotations, rewriters and lint all resolve
// a clang::SourceLocation through positionOf() and keep the plain data, so
// findings outlive the AST and two layers never disagree about which column
// a macro argument is at (they did, when each had its own copy).
#pragma once

#include <compare>
#include <string>

namespace clang {
class SourceLocation;
class SourceManager;
} // namespace clang

namespace ave {

struct SourcePosition {
  std::string file;
  unsigned line = 0;   // 1-based; 0: no position
  unsigned column = 0; // 1-based byte column
  bool valid() const { return line != 0; }
  auto operator<=>(const SourcePosition &) const = default;
};

// Where the user wrote it: text that came from a macro argument is shown at
// its spelling in the file, text of a macro body (or a _Pragma string) at
// the expansion site.
SourcePosition positionOf(const clang::SourceManager &SM, clang::SourceLocation Loc);

} // namespace ave
