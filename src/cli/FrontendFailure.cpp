#include "Commands.h"

#include "llvm/Support/raw_ostream.h"

namespace ave::cli {

int reportFrontendFailure(const frontend::FrontendResult &R) {
  if (!R.setupError.empty()) {
    llvm::errs() << "ave-rewrite: error: " << R.setupError << "\n";
    return 2;
  }
  for (const frontend::FileFailure &F : R.failures)
    if (F.parseFailed) // an unreadable file was named when it was found
      llvm::errs() << "ave-rewrite: error: could not parse '" << F.file << "' as HIP device code"
                   << (F.parsed.empty() ? "" : " (" + F.parsed + ")") << "\n";
  return R.failures.empty() ? 0 : 2;
}

nlohmann::json frontendErrorsJson(const frontend::FrontendResult &R) {
  nlohmann::json Errors = nlohmann::json::array();
  if (!R.setupError.empty())
    Errors.push_back({{"file", nullptr}, {"message", R.setupError}});
  for (const frontend::FileFailure &F : R.failures)
    Errors.push_back({{"file", F.file}, {"message", F.reason}});
  return Errors;
}

} // namespace ave::cli
