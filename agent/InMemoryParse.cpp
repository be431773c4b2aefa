#include "ave/agent/InMemoryParse.h"

#include "ave/annotations/PragmaLog.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/FileManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"

namespace ave::agent {

namespace {

class Consumer : public clang::ASTConsumer {
public:
  Consumer(clang::CompilerInstance &CI, std::string File, std::shared_ptr<ann::PragmaLog> Pragmas,
           const frontend::UnitCallback &OnUnit, bool &Ran)
      : CI(CI), File(std::move(File)), Pragmas(std::move(Pragmas)), OnUnit(OnUnit), Ran(Ran) {}

  void HandleTranslationUnit(clang::ASTContext &Context) override {
    if (CI.getDiagnostics().hasErrorOccurred())
      return;
    frontend::ParsedUnit Unit{File, Context, CI, *Pragmas};
    OnUnit(Unit);
    Ran = true;
  }

private:
  clang::CompilerInstance &CI;
  std::string File;
  std::shared_ptr<ann::PragmaLog> Pragmas;
  const frontend::UnitCallback &OnUnit;
  bool &Ran;
};

class Action : public clang::ASTFrontendAction {
public:
  Action(std::string File, const frontend::UnitCallback &OnUnit, bool &Ran)
      : File(std::move(File)), OnUnit(OnUnit), Ran(Ran) {}

  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &CI,
                                                        llvm::StringRef) override {
    return std::make_unique<Consumer>(CI, File, ann::installPragmaRecorder(CI.getPreprocessor()),
                                      OnUnit, Ran);
  }

private:
  std::string File;
  const frontend::UnitCallback &OnUnit;
  bool &Ran;
};

} // namespace

InMemoryParseResult parseHipSource(const std::string &Path, const std::string &Code,
                                   const frontend::HipArgsOptions &Args,
                                   const frontend::UnitCallback &OnUnit) {
  llvm::SmallString<256> Absolute(Path);
  llvm::sys::fs::make_absolute(Absolute);
  llvm::sys::path::remove_dots(Absolute, true);

  auto Overlay =
      llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(llvm::vfs::getRealFileSystem());
  auto Memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  Overlay->pushOverlay(Memory);
  Memory->addFile(Absolute, 0, llvm::MemoryBuffer::getMemBufferCopy(Code, Absolute));
  auto Files = llvm::makeIntrusiveRefCnt<clang::FileManager>(clang::FileSystemOptions(), Overlay);

  std::vector<std::string> CommandLine = frontend::defaultHipArgs(Args);
  CommandLine.push_back(std::string(Absolute));

  InMemoryParseResult Result;
  std::string DiagText;
  llvm::raw_string_ostream DiagStream(DiagText);
  auto DiagOpts = llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
  clang::TextDiagnosticPrinter Printer(DiagStream, DiagOpts.get());
  bool Ran = false;
  clang::tooling::ToolInvocation Invocation(
      CommandLine, std::make_unique<Action>(std::string(Absolute), OnUnit, Ran), Files.get());
  Invocation.setDiagnosticConsumer(&Printer);
  Invocation.setDiagnosticOptions(DiagOpts.get());
  bool Ok = Invocation.run();
  DiagStream.flush();
  Result.parsed = Ok && Ran;
  Result.diagnostics = DiagText;
  return Result;
}

} // namespace ave::agent
