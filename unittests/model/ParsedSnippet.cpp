#include "ParsedSnippet.h"

#include "clang/Tooling/Tooling.h"

#include <gtest/gtest.h>

namespace ave::model::test {

std::unique_ptr<clang::ASTUnit> parseHip(const std::string &Code) { return parseHip(Code, {}, {}); }

std::unique_ptr<clang::ASTUnit> parseHip(const std::string &Code,
                                         const std::map<std::string, std::string> &Files,
                                         const std::vector<std::string> &ExtraArgs) {
  std::vector<std::string> Args = {
      "-x",        "hip",           "--offload-arch=gfx942", "--cuda-device-only",
      "-nogpulib", "-resource-dir", AVE_RESOURCE_DIR};
  Args.insert(Args.end(), ExtraArgs.begin(), ExtraArgs.end());
  clang::tooling::FileContentMappings Mapped(Files.begin(), Files.end());
  std::unique_ptr<clang::ASTUnit> Unit = clang::tooling::buildASTFromCodeWithArgs(
      Code, Args, "k.hip", "model-tests", std::make_shared<clang::PCHContainerOperations>(),
      clang::tooling::getClangStripDependencyFileAdjuster(), Mapped);
  if (!Unit) {
    ADD_FAILURE() << "the snippet did not parse";
    return nullptr;
  }
  if (Unit->getDiagnostics().hasErrorOccurred()) {
    ADD_FAILURE() << "the snippet has compile errors";
    return nullptr;
  }
  return Unit;
}

} // namespace ave::model::test
