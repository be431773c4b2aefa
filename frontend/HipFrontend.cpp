#include "ave/frontend/HipFrontend.h"

#include "ave/annotations/PragmaLog.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>

namespace ave::frontend {

namespace {

class UnitConsumer : public clang::ASTConsumer {
public:
  UnitConsumer(clang::CompilerInstance &CI, std::string File,
               std::shared_ptr<ann::PragmaLog> Pragmas, const UnitCallback &OnUnit)
      : CI(CI), File(std::move(File)), Pragmas(std::move(Pragmas)), OnUnit(OnUnit) {}

  void HandleTranslationUnit(clang::ASTContext &Context) override {
    // A unit with errors has a partial AST: analysing it would report
    // nonsense, and Clang has already said what is wrong.
    if (CI.getDiagnostics().hasErrorOccurred())
      return;
    ParsedUnit Unit{File, Context, CI, *Pragmas};
    OnUnit(Unit);
  }

private:
  clang::CompilerInstance &CI;
  std::string File;
  std::shared_ptr<ann::PragmaLog> Pragmas;
  const UnitCallback &OnUnit;
};

class UnitAction : public clang::ASTFrontendAction {
public:
  explicit UnitAction(const UnitCallback &OnUnit) : OnUnit(OnUnit) {}

  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &CI,
                                                        llvm::StringRef InFile) override {
    auto Pragmas = ann::installPragmaRecorder(CI.getPreprocessor());
    return std::make_unique<UnitConsumer>(CI, InFile.str(), std::move(Pragmas), OnUnit);
  }

private:
  const UnitCallback &OnUnit;
};

class UnitActionFactory : public clang::tooling::FrontendActionFactory {
public:
  explicit UnitActionFactory(const UnitCallback &OnUnit) : OnUnit(OnUnit) {}
  std::unique_ptr<clang::FrontendAction> create() override {
    return std::make_unique<UnitAction>(OnUnit);
  }

private:
  const UnitCallback &OnUnit;
};

std::unique_ptr<clang::tooling::CompilationDatabase> loadDatabase(const FrontendOptions &Opts,
                                                                  std::string &Error) {
  if (Opts.buildDir.empty())
    return std::make_unique<clang::tooling::FixedCompilationDatabase>(".",
                                                                      std::vector<std::string>{});
  std::string LoadError;
  auto DB = clang::tooling::CompilationDatabase::loadFromDirectory(Opts.buildDir, LoadError);
  if (!DB) {
    Error = "cannot load compile_commands.json from '" + Opts.buildDir + "': " + LoadError;
    return nullptr;
  }
  // Files missing from the database borrow the flags of their nearest
  // neighbour, as clangd and clang-tidy do.
  return clang::tooling::inferMissingCompileCommands(std::move(DB));
}

} // namespace

FrontendResult parseHipFiles(const std::vector<std::string> &Files, const FrontendOptions &Opts,
                             const UnitCallback &OnUnit) {
  FrontendResult Result;
  auto DB = loadDatabase(Opts, Result.setupError);
  if (!DB)
    return Result;

  HipArgsOptions ArgOpts = Opts.args;
  UnitActionFactory Factory(OnUnit);
  for (const std::string &File : Files) {
    if (!llvm::sys::fs::is_regular_file(File)) {
      llvm::errs() << File << ": error: no such file\n";
      Result.failedFiles.push_back(File);
      continue;
    }
    clang::tooling::ClangTool Tool(*DB, {File});
    Tool.setPrintErrorMessage(false);
    Tool.clearArgumentsAdjusters();
    Tool.appendArgumentsAdjuster(
        [ArgOpts](const clang::tooling::CommandLineArguments &Args, llvm::StringRef) {
          return adjustCompileCommand(Args, ArgOpts);
        });
    if (Tool.run(&Factory) != 0)
      Result.failedFiles.push_back(File);
  }
  return Result;
}

} // namespace ave::frontend
