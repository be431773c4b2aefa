#include "ave/frontend/HipFrontend.h"

#include "ave/annotations/PragmaLog.h"
#include "ave/frontend/PlatformView.h"
#include "ave/frontend/PreambleCache.h"
#include "ave/support/LargeStack.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/FileManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Serialization/PCHContainerOperations.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>

namespace ave::frontend {

namespace {

class UnitConsumer : public clang::ASTConsumer {
public:
  UnitConsumer(clang::CompilerInstance &CI, std::string File,
               std::shared_ptr<ann::PragmaLog> Pragmas, const UnitCallback &OnUnit, bool &Ran)
      : CI(CI), File(std::move(File)), Pragmas(std::move(Pragmas)), OnUnit(OnUnit), Ran(Ran) {}

  void HandleTranslationUnit(clang::ASTContext &Context) override {
    // A unit with errors has a partial AST: analysing it would report
    // nonsense, and Clang has already said what is wrong.
    if (CI.getDiagnostics().hasErrorOccurred())
      return;
    // With the precompiled prefix, a traversal of the whole unit would load
    // every declaration of clang's headers; kernels, launches and
    // annotations are all in what was parsed here (PreambleCache.h).
    if (!CI.getPreprocessorOpts().ImplicitPCHInclude.empty())
      limitTraversalToParsedDecls(Context);
    ParsedUnit Unit{File, Context, CI, *Pragmas};
    OnUnit(Unit);
    Ran = true;
  }

private:
  clang::CompilerInstance &CI;
  std::string File;
  std::shared_ptr<ann::PragmaLog> Pragmas;
  const UnitCallback &OnUnit;
  bool &Ran;
};

// The pragma recorder is installed before parsing: `#pragma` never reaches
// the AST.
class UnitAction : public clang::ASTFrontendAction {
public:
  UnitAction(std::string File, const UnitCallback &OnUnit, bool &Ran)
      : File(std::move(File)), OnUnit(OnUnit), Ran(Ran) {}

  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &CI,
                                                        llvm::StringRef) override {
    auto Pragmas = ann::installPragmaRecorder(CI.getPreprocessor());
    return std::make_unique<UnitConsumer>(CI, File, std::move(Pragmas), OnUnit, Ran);
  }

private:
  std::string File;
  const UnitCallback &OnUnit;
  bool &Ran;
};

// Runs UnitAction on the driver's invocation, with the precompiled preamble
// when there is one (what FrontendActionFactory::runInvocation does, plus
// the PCH).
class UnitToolAction : public clang::tooling::ToolAction {
public:
  UnitToolAction(std::string File, const UnitCallback &OnUnit, bool &Ran)
      : File(std::move(File)), OnUnit(OnUnit), Ran(Ran) {}

  bool runInvocation(std::shared_ptr<clang::CompilerInvocation> Invocation,
                     clang::FileManager *Files,
                     std::shared_ptr<clang::PCHContainerOperations> Containers,
                     clang::DiagnosticConsumer *Diagnostics) override {
    if (auto Text = Files->getVirtualFileSystem().getBufferForFile(File))
      if (std::string Pch = preamblePch(*Invocation, (*Text)->getBuffer(), Containers);
          !Pch.empty())
        Invocation->getPreprocessorOpts().ImplicitPCHInclude = Pch;
    clang::CompilerInstance Compiler(std::move(Containers));
    Compiler.setInvocation(std::move(Invocation));
    Compiler.setFileManager(Files);
    Compiler.createDiagnostics(Diagnostics, /*ShouldOwnClient=*/false);
    if (!Compiler.hasDiagnostics())
      return false;
    Compiler.createSourceManager(*Files);
    UnitAction Action(File, OnUnit, Ran);
    bool Ok = Compiler.ExecuteAction(Action);
    Files->clearStatCache();
    return Ok;
  }

private:
  std::string File;
  const UnitCallback &OnUnit;
  bool &Ran;
};

// Clang names the amdgcn parse ("when compiling for gfx942") even where the
// text was the file's NVIDIA branches: which text it was, when that differs.
std::string parsedBranches(const std::string &File, Target T) {
  if (T != Target::Sm90)
    return "";
  auto Own = llvm::MemoryBuffer::getFile(File, /*IsText=*/true);
  if (Own && platformView((*Own)->getBuffer(), T) != (*Own)->getBuffer())
    return "its NVIDIA branches, as --target sm_90 selects them";
  return "";
}

} // namespace

std::string unreadableSourceReason(const std::string &File) {
  llvm::sys::fs::file_status Status;
  if (llvm::sys::fs::status(File, Status))
    return "no such file";
  if (llvm::sys::fs::is_directory(Status))
    return "is a directory, not a source file";
  if (!llvm::sys::fs::is_regular_file(Status))
    return "is not a regular file";
  return "";
}

bool parseHipFile(const FileFlags &Flags, const HipArgsOptions &Opts, const UnitCallback &OnUnit,
                  const SingleParse &How) {
  // The command's own working directory, without changing the process's.
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Physical = llvm::vfs::createPhysicalFileSystem();
  auto Overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(Physical);
  // The text parsed: the given contents or the file's, as the target's
  // preprocessor selects it (PlatformView.h).
  std::optional<std::string> Parsed;
  if (How.contents)
    Parsed = *How.contents;
  if (Opts.target == Target::Sm90) {
    if (!Parsed)
      if (auto Own = llvm::MemoryBuffer::getFile(Flags.file, /*IsText=*/true))
        Parsed = (*Own)->getBuffer().str();
    if (Parsed)
      Parsed = platformView(*Parsed, Opts.target);
  }
  if (Parsed) {
    auto Memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
    Memory->addFile(Flags.file, 0, llvm::MemoryBuffer::getMemBufferCopy(*Parsed, Flags.file));
    Overlay->pushOverlay(Memory);
  }
  Overlay->setCurrentWorkingDirectory(Flags.user.directory);
  auto Files = llvm::makeIntrusiveRefCnt<clang::FileManager>(clang::FileSystemOptions(), Overlay);

  bool Ran = false;
  UnitToolAction Action(Flags.file, OnUnit, Ran);
  clang::tooling::ToolInvocation Invocation(parseCommandLine(Flags.user, Opts, Flags.file), &Action,
                                            Files.get(),
                                            std::make_shared<clang::PCHContainerOperations>());
  auto DiagOpts = llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
  std::unique_ptr<clang::TextDiagnosticPrinter> Printer;
  if (How.diagnostics) {
    Printer = std::make_unique<clang::TextDiagnosticPrinter>(*How.diagnostics, DiagOpts.get());
    Invocation.setDiagnosticConsumer(Printer.get());
    Invocation.setDiagnosticOptions(DiagOpts.get());
  }
  support::noteCurrentInput(Flags.file);
  bool Ok = Invocation.run();
  support::noteCurrentInput("");
  if (How.diagnostics)
    How.diagnostics->flush();
  return Ok && Ran;
}

FrontendResult parseHipFiles(const std::vector<std::string> &Files, const FrontendOptions &Opts,
                             const UnitCallback &OnUnit) {
  FrontendResult Result;
  CompileCommands Commands(Opts.buildDir);
  for (const std::string &File : Files) {
    if (std::string Why = unreadableSourceReason(File); !Why.empty()) {
      llvm::errs() << File << ": error: " << Why << "\n";
      Result.failures.push_back({File, Why, false, ""});
      continue;
    }
    std::optional<FileFlags> Flags =
        Commands.flagsFor(File, Opts.args.extraArgs, Result.setupError);
    if (!Flags)
      return Result;
    if (Flags->origin == FlagsOrigin::Unlisted)
      llvm::errs() << File << ": note: " << Flags->note << "\n";
    if (!parseHipFile(*Flags, Opts.args, OnUnit))
      Result.failures.push_back({File, "could not parse as HIP device code", true,
                                 parsedBranches(File, Opts.args.target)});
  }
  return Result;
}

} // namespace ave::frontend
