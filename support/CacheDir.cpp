#include "ave/support/CacheDir.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"

#include <cstdlib>

namespace ave::support {

std::string userCacheDir() {
  if (const char *Dir = std::getenv("AVE_REWRITE_CACHE_DIR"); Dir && *Dir)
    return Dir;
  if (const char *Dir = std::getenv("XDG_CACHE_HOME"); Dir && *Dir)
    return std::string(Dir) + "/ave-rewrite";
  if (const char *Home = std::getenv("HOME"); Home && *Home)
    return std::string(Home) + "/.cache/ave-rewrite";
  llvm::SmallString<128> Temp;
  llvm::sys::path::system_temp_directory(true, Temp);
  return std::string(Temp) + "/ave-rewrite-cache";
}

} // namespace ave::support
