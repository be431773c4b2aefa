// Where a clang-tidy diagnostic is, as people read it: clang-tidy exports a
// file path and a byte offset; reports want a 1-based line and column, and a
// level's name. `lint` reads files from disk and `review` from a revision's
// virtual file system; both go through this one table, so the two cannot
// place a finding differently.
#pragma once

#include "clang/Tooling/Core/Diagnostic.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace ave::lint {

// Byte offset -> 1-based line and column, per file, each file read once
// through FS.
class LineTable {
public:
  LineTable(); // the real file system
  explicit LineTable(llvm::vfs::FileSystem &FS) : FS(&FS) {}
  std::pair<unsigned, unsigned> position(const std::string &Path, unsigned Offset);

private:
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Owned;
  llvm::vfs::FileSystem *FS;
  std::map<std::string, std::vector<unsigned>> Starts;
};

// "error", "warning" or "remark".
const char *levelName(clang::tooling::Diagnostic::Level L);

} // namespace ave::lint
