#include "ave/support/AtomicWrite.h"

#include "ave/support/InterruptCleanup.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace ave::support {

std::error_code writeFileAtomically(const std::string &Path, std::string_view Text) {
  llvm::SmallString<256> Temp;
  llvm::SmallString<256> Model(Path);
  Model += ".tmp-%%%%%%";
  int FD = -1;
  if (std::error_code EC = llvm::sys::fs::createUniqueFile(Model, FD, Temp))
    return EC;
  // Removed on failure, and when the tool is interrupted before the rename.
  TempPath Guard{std::string(Temp)};
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Text;
    OS.close();
    if (std::error_code EC = OS.error()) {
      OS.clear_error();
      return EC;
    }
  }
  if (std::error_code EC = llvm::sys::fs::rename(Temp, Path))
    return EC;
  Guard.release();
  return {};
}

std::string writeFileInFolder(const std::string &Path, std::string_view Text, bool Executable) {
  llvm::StringRef Folder = llvm::sys::path::parent_path(Path);
  if (!Folder.empty())
    if (std::error_code EC = llvm::sys::fs::create_directories(Folder))
      return "cannot create " + Folder.str() + ": " + EC.message();
  if (std::error_code EC = writeFileAtomically(Path, Text))
    return "cannot write " + Path + ": " + EC.message();
  if (Executable)
    llvm::sys::fs::setPermissions(Path, llvm::sys::fs::all_read | llvm::sys::fs::all_exe |
                                            llvm::sys::fs::owner_write);
  return "";
}

} // namespace ave::support
