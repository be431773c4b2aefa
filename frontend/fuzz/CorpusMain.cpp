// Runs the front end + check fuzz harness once over every file of the given
// folders or files, without libFuzzer: the corpus as a regression test (a
// crash found by the fuzzer, once fixed, keeps its input in corpus/).
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *Data, std::size_t Size);

namespace {

std::vector<std::string> inputsOf(const std::string &Path) {
  std::vector<std::string> Files;
  if (!llvm::sys::fs::is_directory(Path))
    return {Path};
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Path, EC), End; It != End && !EC; It.increment(EC))
    if (llvm::sys::fs::is_regular_file(It->path()))
      Files.push_back(It->path());
  std::sort(Files.begin(), Files.end());
  return Files;
}

} // namespace

int main(int Argc, char **Argv) {
  unsigned Ran = 0;
  for (int I = 1; I < Argc; ++I) {
    for (const std::string &File : inputsOf(Argv[I])) {
      auto Buffer = llvm::MemoryBuffer::getFile(File, /*IsText=*/false);
      if (!Buffer) {
        llvm::errs() << File << ": error: cannot read: " << Buffer.getError().message() << "\n";
        return 2;
      }
      llvm::StringRef Bytes = (*Buffer)->getBuffer();
      llvm::errs() << File << "\n";
      LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t *>(Bytes.data()), Bytes.size());
      ++Ran;
    }
  }
  llvm::errs() << Ran << " inputs, no crash\n";
  return Ran ? 0 : 2;
}
