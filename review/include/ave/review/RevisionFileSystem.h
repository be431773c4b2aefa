// The file system a version is parsed through. Paths under the repository
// root come from that version's SourceTree, never from the disk, so a header
// included by a changed file is the header of the same revision; paths
// outside the root are read from the disk only below the directories the
// toolchain needs (the compiler's resource and include directories, /usr,
// /opt) and the ones the caller allows. Anything else (`#include
// "/etc/passwd"`, `../../../proc/self/environ`) does not exist for the
// parser, and the refusal is recorded so the report can say so.
#pragma once

#include "ave/review/SourceTree.h"

#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <memory>
#include <set>
#include <string>
#include <vector>

namespace ave::review {

struct RefusedPaths {
  std::set<std::string> paths;
};

// The files outside the root that were opened (what a PCH depends on).
struct OutsideReads {
  std::set<std::string> paths;
};

// Root: canonical repository root. Tree must outlive the file system.
// Refused collects the absolute paths that were denied (may be null).
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
makeRevisionFileSystem(std::string Root, SourceTree &Tree, std::vector<std::string> AllowedOutside,
                       std::shared_ptr<RefusedPaths> Refused = nullptr,
                       std::shared_ptr<OutsideReads> Reads = nullptr);

// The directories outside the root that parsing needs by default.
std::vector<std::string> defaultAllowedOutside();

} // namespace ave::review
