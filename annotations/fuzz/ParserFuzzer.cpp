// Fuzzes the pure annotation parser. Each input is fed to the expression,
// tag-spec and pragma parsers; the properties checked are:
//  - no crash, no sanitizer report, no hang (recursion and length limits);
//  - errors carry a message and offsets inside the input (note included);
//  - whatever parses prints to text that parses again to the same tree, and
//    printing is idempotent (print(parse(print(x))) == print(x)).
// A violated property traps, so libFuzzer records the input.
#include "ave/annotations/Expr.h"
#include "ave/annotations/Pragma.h"
#include "ave/annotations/TagSpec.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

using namespace ave::ann;

namespace {

void require(bool condition, const char *what) {
  if (!condition) {
    std::fprintf(stderr, "property violated: %s\n", what);
    __builtin_trap();
  }
}

void checkError(const ParseError &error, std::string_view text) {
  require(!error.message.empty(), "error has a message");
  require(error.begin <= error.end && error.end <= text.size(), "error range inside input");
  if (error.note)
    require(error.note->begin <= error.note->end && error.note->end <= text.size(),
            "note range inside input");
}

void checkExprOffsets(const Expr &expr, std::string_view text) {
  forEachNode(expr, [&](const Expr &node) {
    require(node.begin <= node.end && node.end <= text.size(), "node range inside input");
  });
}

void fuzzExpression(std::string_view text) {
  Result<Expr> parsed = parseExpression(text);
  if (!parsed) {
    checkError(parsed.error(), text);
    return;
  }
  checkExprOffsets(*parsed, text);
  std::string printed = printExpr(*parsed);
  Result<Expr> again = parseExpression(printed);
  require(again.ok(), "printed expression parses");
  require(sameShape(*parsed, *again), "printed expression has the same tree");
  require(printExpr(*again) == printed, "expression printing is idempotent");
}

bool sameSpec(const TagSpec &a, const TagSpec &b) {
  if (a.tensor != b.tensor || a.coordinates.size() != b.coordinates.size() ||
      a.layout.has_value() != b.layout.has_value())
    return false;
  for (size_t i = 0; i < a.coordinates.size(); ++i)
    if (a.coordinates[i].name != b.coordinates[i].name ||
        !sameShape(a.coordinates[i].bound, b.coordinates[i].bound))
      return false;
  return !a.layout || sameShape(*a.layout, *b.layout);
}

void fuzzTagSpec(std::string_view text) {
  Result<TagSpec> parsed = parseTagSpec(text);
  if (!parsed) {
    checkError(parsed.error(), text);
    return;
  }
  require(!parsed->coordinates.empty(), "a spec has coordinates");
  require(parsed->end <= text.size(), "spec end inside input");
  std::string printed = printTagSpec(*parsed);
  Result<TagSpec> again = parseTagSpec(printed);
  require(again.ok(), "printed spec parses");
  require(sameSpec(*parsed, *again), "printed spec has the same structure");
  require(printTagSpec(*again) == printed, "spec printing is idempotent");
  // The row-major layout is an ordinary expression over the spec's names. It
  // adds a parenthesis level and a few tokens per coordinate, so near the
  // parser's documented limits it may exceed them; that alone is no bug.
  std::string layout = printExpr(parsed->effectiveLayout());
  Result<Expr> layoutAgain = parseExpression(layout);
  if (!layoutAgain) {
    const std::string &message = layoutAgain.error().message;
    require(message == "expression nested too deeply" ||
                message.rfind("annotation is too long", 0) == 0,
            "printed layout parses");
    return;
  }
  require(sameShape(parsed->effectiveLayout(), *layoutAgain), "layout has the same tree");
}

void fuzzPragma(std::string_view text) {
  Result<Pragma> parsed = parsePragma(text);
  if (!parsed) {
    checkError(parsed.error(), text);
    return;
  }
  std::string printed = printPragma(*parsed);
  Result<Pragma> again = parsePragma(printed);
  require(again.ok(), "printed pragma parses");
  require(again->kind == parsed->kind, "pragma kind survives printing");
  require(sameShape(again->predicate, parsed->predicate), "predicate survives printing");
  require(again->launch.block.size() == parsed->launch.block.size() &&
              again->launch.grid.size() == parsed->launch.grid.size() &&
              again->launch.sharedBytes.has_value() == parsed->launch.sharedBytes.has_value(),
          "launch dimensions survive printing");
  require(printPragma(*again) == printed, "pragma printing is idempotent");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char *>(data), size);
  fuzzExpression(text);
  fuzzTagSpec(text);
  fuzzPragma(text);
  return 0;
}
