#include "ave/support/SourcePosition.h"

#include "clang/Basic/SourceManager.h"

namespace ave {

SourcePosition positionOf(const clang::SourceManager &SM, clang::SourceLocation Loc) {
  SourcePosition P;
  if (Loc.isInvalid())
    return P;
  clang::SourceLocation FileLoc = Loc;
  if (Loc.isMacroID()) {
    clang::SourceLocation Spelling = SM.getSpellingLoc(Loc);
    bool InFile = !SM.isWrittenInScratchSpace(Spelling) &&
                  SM.getFileEntryRefForID(SM.getFileID(Spelling)).has_value();
    FileLoc = SM.isMacroArgExpansion(Loc) && InFile ? Spelling : SM.getExpansionLoc(Loc);
  }
  clang::PresumedLoc Presumed = SM.getPresumedLoc(FileLoc);
  if (Presumed.isInvalid())
    return P;
  P.file = Presumed.getFilename();
  P.line = Presumed.getLine();
  P.column = Presumed.getColumn();
  return P;
}

} // namespace ave
