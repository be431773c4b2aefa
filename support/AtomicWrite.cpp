#include "ave/support/AtomicWrite.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

namespace ave::support {

std::error_code writeFileAtomically(const std::string &Path, std::string_view Text) {
  llvm::SmallString<256> Temp;
  llvm::SmallString<256> Model(Path);
  Model += ".tmp-%%%%%%";
  int FD = -1;
  if (std::error_code EC = llvm::sys::fs::createUniqueFile(Model, FD, Temp))
    return EC;
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Text;
    OS.close();
    if (std::error_code EC = OS.error()) {
      OS.clear_error();
      llvm::sys::fs::remove(Temp);
      return EC;
    }
  }
  if (std::error_code EC = llvm::sys::fs::rename(Temp, Path)) {
    llvm::sys::fs::remove(Temp);
    return EC;
  }
  return {};
}

} // namespace ave::support
