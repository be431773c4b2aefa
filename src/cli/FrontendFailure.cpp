#include "Commands.h"

#include "llvm/Support/raw_ostream.h"

namespace ave::cli {

int reportFrontendFailure(const frontend::FrontendResult &R) {
  if (!R.setupError.empty()) {
    llvm::errs() << "ave-rewrite: error: " << R.setupError << "\n";
    return 2;
  }
  for (const std::string &File : R.failedFiles)
    llvm::errs() << "ave-rewrite: error: could not parse '" << File << "' as HIP device code\n";
  return R.failedFiles.empty() ? 0 : 2;
}

} // namespace ave::cli
