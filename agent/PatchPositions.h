// Where a position of the original text is in the patched text. The
// invariants stage matches each obligation of the original with the
// patched kernel's obligation of the same kind at the same place; a rewrite
// moves text (a pad edits the declaration line, a swizzle grows a
// subscript), so "the same place" is the original position carried through
// every rewrite step's edits.
#pragma once

#include "ave/support/SourcePosition.h"

#include "clang/Tooling/Core/Replacement.h"

#include <string>
#include <vector>

namespace ave::agent {

class PatchPositions {
public:
  // Offsets of the patched text where the original's `P` can be: a single
  // offset, or every offset of the text that replaced it (an edit that
  // covers `P`, an insertion just at `P`). Empty when `P` is not in the
  // original text (another file, no position).
  struct Span {
    bool known = false;
    unsigned first = 0, last = 0;
  };

  PatchPositions() = default; // no edits: positions stay
  // `File`: the rewritten file as positions name it; a position in another
  // file (an included helper) stays where it is.
  PatchPositions(std::string File, std::string Original, std::string Patched,
                 std::vector<clang::tooling::Replacements> Steps);

  Span map(const SourcePosition &P) const;
  // `P` of the patched text as an offset (known = false when outside it).
  Span offsetInPatched(const SourcePosition &P) const;
  // Whether `P` is in the rewritten file (and so moves with the edits).
  bool inFile(const SourcePosition &P) const;

private:
  bool HasTexts = false;
  std::string File, Original, Patched;
  std::vector<clang::tooling::Replacements> Steps;
};

} // namespace ave::agent
