// Recording `#pragma ave ...` while Clang preprocesses.
//
// Pragmas never reach the AST, so a PragmaHandler writes each one down with
// its text and the source location of every token in it; the binding later
// attaches them to statements. The text is rebuilt from the tokens (one
// blank where the source had white space), and locationOf() maps any byte
// of that text back to the exact column in the file.
#ifndef AVE_ANNOTATIONS_PRAGMALOG_H
#define AVE_ANNOTATIONS_PRAGMALOG_H

#include "clang/Basic/SourceLocation.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class Preprocessor;
} // namespace clang

namespace ave::ann {

struct RecordedPragma {
  // Where `#pragma` or `_Pragma` is (inside a macro expansion for AVE_ASSERT).
  clang::SourceLocation introducer;
  // Text after `ave`, e.g. "assert tag(x) == A(i, j)".
  std::string text;

  struct Piece {
    unsigned offset = 0; // where the token starts in `text`
    unsigned length = 0;
    clang::SourceLocation location;
  };
  std::vector<Piece> pieces; // one per token, in order

  // Location of byte `offset` of `text`; blanks between tokens map to the
  // end of the token before them, offsets past the end to the last token's end.
  clang::SourceLocation locationOf(unsigned Offset) const;
  // [begin, end) of `text` as a token-granular SourceRange suitable for
  // diagnostics (a character range of the exact bytes).
  clang::CharSourceRange rangeOf(unsigned Begin, unsigned End) const;
};

struct PragmaLog {
  std::vector<RecordedPragma> pragmas; // in source order
  // Object-like macros whose whole body is one integer literal (`#define
  // TILE 16`), by name; #undef removes them. Lets specs and pragmas name them.
  std::map<std::string, std::int64_t> integerMacros;

  std::optional<std::int64_t> integerMacro(const std::string &Name) const;
};

// Installs the `#pragma ave` handler and the integer-macro recorder on `PP`.
// Call before parsing (e.g. in FrontendAction::BeginSourceFileAction). The
// returned log fills up as the file is parsed and outlives the Preprocessor.
std::shared_ptr<PragmaLog> installPragmaRecorder(clang::Preprocessor &PP);

} // namespace ave::ann

#endif // AVE_ANNOTATIONS_PRAGMALOG_H
