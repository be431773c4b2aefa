// `#pragma ave ...`: the text after the `ave` namespace word.
//
//   assert P
//   assume P
//   launch block(x[, y[, z]]) [grid(x[, y[, z]])] [shared(BYTES)]
//   reset ArrayName
//
// P is a predicate: `&&`/`||`/`!` of comparisons between `tag(e)`,
// `tag(e).k`, tag literals `A(x, y)` / `A(c = b, r = a)` and integer C
// expressions.
#ifndef AVE_ANNOTATIONS_PRAGMA_H
#define AVE_ANNOTATIONS_PRAGMA_H

#include "ave/annotations/Expr.h"
#include "ave/annotations/Result.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ave::ann {

enum class PragmaKind { Assert, Assume, Launch, Reset };

const char *pragmaKindName(PragmaKind Kind);

struct LaunchShape {
  std::vector<Expr> block; // 1..3 dimensions (x, y, z)
  std::vector<Expr> grid;  // empty when no grid(...) was given
  // Bytes of dynamic LDS (`extern __shared__`) the launch passes; unset when
  // no shared(...) was given.
  std::optional<Expr> sharedBytes;
};

struct Pragma {
  PragmaKind kind = PragmaKind::Assert;
  unsigned kindBegin = 0, kindEnd = 0;
  Expr predicate;     // Assert, Assume
  LaunchShape launch; // Launch
  Expr array;         // Reset: an Identifier
};

// `text` is what follows `#pragma ave` (leading blanks allowed).
Result<Pragma> parsePragma(std::string_view Text);

// Canonical text without the `#pragma ave` prefix, e.g. "assert tag(x) == A(i, j)".
std::string printPragma(const Pragma &Pragma);

} // namespace ave::ann

#endif // AVE_ANNOTATIONS_PRAGMA_H
