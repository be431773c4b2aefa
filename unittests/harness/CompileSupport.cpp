#include "CompileSupport.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <cstdlib>

namespace ave::harness::testing {

int runIn(const std::string &dir, llvm::StringRef program, std::vector<llvm::StringRef> args,
          std::string &log) {
  llvm::SmallString<256> logPath(dir);
  llvm::sys::path::append(logPath, "compile.log");
  std::string logFile(logPath);
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(logFile),
                                                llvm::StringRef(logFile)};
  llvm::SmallString<256> cwd;
  llvm::sys::fs::current_path(cwd);
  llvm::sys::fs::set_current_path(dir);
  std::string error;
  args.insert(args.begin(), program);
  int rc = llvm::sys::ExecuteAndWait(program, args, std::nullopt, redirects, 0, 0, &error);
  llvm::sys::fs::set_current_path(cwd);
  auto text = llvm::MemoryBuffer::getFile(logFile);
  log = error + (text ? (*text)->getBuffer().str() : "");
  return rc;
}

std::optional<std::string> findNvcc() {
  if (const char *env = std::getenv("NVCC"); env && llvm::sys::fs::can_execute(env))
    return std::string(env);
  if (llvm::sys::fs::can_execute("/usr/local/cuda/bin/nvcc"))
    return std::string("/usr/local/cuda/bin/nvcc");
  if (auto found = llvm::sys::findProgramByName("nvcc"))
    return *found;
  return std::nullopt;
}

} // namespace ave::harness::testing
