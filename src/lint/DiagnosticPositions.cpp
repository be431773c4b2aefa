#include "ave/lint/DiagnosticPositions.h"

#include <algorithm>

namespace ave::lint {

LineTable::LineTable() : Owned(llvm::vfs::getRealFileSystem()), FS(Owned.get()) {}

std::pair<unsigned, unsigned> LineTable::position(const std::string &Path, unsigned Offset) {
  auto It = Starts.find(Path);
  if (It == Starts.end()) {
    std::vector<unsigned> Lines{0};
    if (auto Buffer = FS->getBufferForFile(Path)) {
      llvm::StringRef Text = (*Buffer)->getBuffer();
      for (unsigned I = 0; I < Text.size(); ++I)
        if (Text[I] == '\n')
          Lines.push_back(I + 1);
    }
    It = Starts.emplace(Path, std::move(Lines)).first;
  }
  const std::vector<unsigned> &L = It->second;
  auto Line = std::upper_bound(L.begin(), L.end(), Offset) - 1;
  return {unsigned(Line - L.begin()) + 1, Offset - *Line + 1};
}

const char *levelName(clang::tooling::Diagnostic::Level L) {
  switch (L) {
  case clang::tooling::Diagnostic::Error:
    return "error";
  case clang::tooling::Diagnostic::Remark:
    return "remark";
  default:
    return "warning";
  }
}

} // namespace ave::lint
