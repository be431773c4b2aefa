// preamblePchForCommand (PreambleCache.h): the invocation a tool built on
// clang's tooling will run, made the same way (the driver through
// ToolInvocation), so that the PCH's key and contents are those of the
// parse that loads it.

#include "ave/frontend/PreambleCache.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/FileManager.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Serialization/PCHContainerOperations.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/VirtualFileSystem.h"

namespace ave::frontend {

namespace {

class PreambleOfInvocation : public clang::tooling::ToolAction {
public:
  PreambleOfInvocation(std::string File, bool AnalyzerMacro)
      : File(std::move(File)), AnalyzerMacro(AnalyzerMacro) {}

  bool runInvocation(std::shared_ptr<clang::CompilerInvocation> Invocation,
                     clang::FileManager *Files,
                     std::shared_ptr<clang::PCHContainerOperations> Containers,
                     clang::DiagnosticConsumer *) override {
    Invocation->getPreprocessorOpts().SetUpStaticAnalyzer = AnalyzerMacro;
    auto Text = Files->getVirtualFileSystem().getBufferForFile(File);
    if (Text)
      pch = preamblePch(*Invocation, (*Text)->getBuffer(), std::move(Containers));
    return true;
  }

  std::string pch;

private:
  std::string File;
  bool AnalyzerMacro;
};

} // namespace

std::string preamblePchForCommand(const std::vector<std::string> &CommandLine,
                                  const std::string &Directory, const std::string &File,
                                  bool AnalyzerMacro) {
  if (preambleCacheDir().empty() || CommandLine.empty())
    return "";
  auto FS = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(
      llvm::vfs::createPhysicalFileSystem());
  FS->setCurrentWorkingDirectory(Directory);
  auto Files = llvm::makeIntrusiveRefCnt<clang::FileManager>(clang::FileSystemOptions(), FS);
  PreambleOfInvocation Action(File, AnalyzerMacro);
  clang::tooling::ToolInvocation Invocation(CommandLine, &Action, Files.get(),
                                            std::make_shared<clang::PCHContainerOperations>());
  clang::IgnoringDiagConsumer Quiet;
  Invocation.setDiagnosticConsumer(&Quiet);
  if (!Invocation.run())
    return "";
  return Action.pch;
}

} // namespace ave::frontend
