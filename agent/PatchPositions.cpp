#include "PatchPositions.h"

#include "llvm/Support/FileSystem.h"

#include <optional>

namespace ave::agent {

namespace {

std::optional<unsigned> offsetOf(const std::string &Text, unsigned Line, unsigned Column) {
  if (Line == 0 || Column == 0)
    return std::nullopt;
  size_t Start = 0;
  for (unsigned L = 1; L < Line; ++L) {
    Start = Text.find('\n', Start);
    if (Start == std::string::npos)
      return std::nullopt;
    ++Start;
  }
  size_t End = Text.find('\n', Start);
  if (End == std::string::npos)
    End = Text.size();
  if (Start + Column - 1 > End)
    return std::nullopt;
  return unsigned(Start + Column - 1);
}

// [First, Last] of one step: an edit that covers `Offset` (or inserts just
// at it) spreads it over the edit's new text.
PatchPositions::Span shift(const clang::tooling::Replacements &Edits, PatchPositions::Span In) {
  auto One = [&](unsigned P, bool Low) {
    long Delta = 0;
    for (const clang::tooling::Replacement &R : Edits) {
      const unsigned Begin = R.getOffset(), End = Begin + R.getLength();
      const long Grown = long(R.getReplacementText().size()) - long(R.getLength());
      if (End < P || (End == P && R.getLength() > 0)) {
        Delta += Grown;
        continue;
      }
      if (Begin > P)
        break;
      // Inside a replaced range: anywhere in its new text; at an insertion:
      // the inserted text or the character after it.
      const long New = long(R.getReplacementText().size());
      const long Span = R.getLength() > 0 && New > 0 ? New - 1 : New;
      return unsigned(long(Begin) + Delta + (Low ? 0 : Span));
    }
    return unsigned(long(P) + Delta);
  };
  PatchPositions::Span Out;
  Out.known = true;
  Out.first = One(In.first, true);
  Out.last = One(In.last, false);
  return Out;
}

} // namespace

PatchPositions::PatchPositions(std::string FileName, std::string OriginalText,
                               std::string PatchedText,
                               std::vector<clang::tooling::Replacements> StepEdits)
    : HasTexts(true), File(std::move(FileName)), Original(std::move(OriginalText)),
      Patched(std::move(PatchedText)), Steps(std::move(StepEdits)) {}

bool PatchPositions::inFile(const SourcePosition &P) const {
  return HasTexts && P.valid() && (P.file == File || llvm::sys::fs::equivalent(P.file, File));
}

PatchPositions::Span PatchPositions::map(const SourcePosition &P) const {
  Span S;
  if (!inFile(P))
    return S;
  std::optional<unsigned> Offset = offsetOf(Original, P.line, P.column);
  if (!Offset)
    return S;
  S.known = true;
  S.first = S.last = *Offset;
  for (const clang::tooling::Replacements &Edits : Steps)
    S = shift(Edits, S);
  return S;
}

PatchPositions::Span PatchPositions::offsetInPatched(const SourcePosition &P) const {
  Span S;
  if (!inFile(P))
    return S;
  std::optional<unsigned> Offset = offsetOf(Patched, P.line, P.column);
  if (!Offset)
    return S;
  S.known = true;
  S.first = S.last = *Offset;
  return S;
}

} // namespace ave::agent
