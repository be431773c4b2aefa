#include "ParsedSnippet.h"

#include "../HipDeviceArgs.h"

#include "clang/Tooling/Tooling.h"

#include <gtest/gtest.h>
#include <list>

namespace ave::model::test {

std::unique_ptr<clang::ASTUnit> parseHip(const std::string &Code) { return parseHip(Code, {}, {}); }

std::unique_ptr<clang::ASTUnit> parseHip(const std::string &Code,
                                         const std::map<std::string, std::string> &Files,
                                         const std::vector<std::string> &ExtraArgs) {
  std::vector<std::string> Args = ave::test::hipDeviceParseArgs();
  Args.insert(Args.end(), ExtraArgs.begin(), ExtraArgs.end());
  // buildASTFromCodeWithArgs maps each file onto its content without copying
  // it (MemoryBuffer::getMemBuffer): the content must outlive the unit. A
  // local copy was freed on return, and a header's first bytes read back as
  // allocator bookkeeping when the unit looked at them again (under load:
  // KernelsFromUserHeadersButNotSystemHeaders saw its kernel on line 2). A
  // test process parses a few snippets; their files are kept until it ends.
  static std::list<clang::tooling::FileContentMappings> KeptFiles;
  const clang::tooling::FileContentMappings &Mapped =
      KeptFiles.emplace_back(Files.begin(), Files.end());
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
