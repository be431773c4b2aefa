#include "ave/review/UnitParse.h"

#include "ave/frontend/CompileCommands.h"
#include "ave/frontend/PreambleCache.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/FileManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace ave::review {

CompileCommands::CompileCommands(const frontend::FrontendOptions &Options)
    : Options(Options), Commands(Options.buildDir) {
  if (Options.buildDir.empty())
    return;
  // Fail early on a -p without a database, before any file is read.
  std::string LoadError;
  if (!clang::tooling::CompilationDatabase::loadFromDirectory(Options.buildDir, LoadError))
    Error = "cannot load compile_commands.json from '" + Options.buildDir + "': " + LoadError;
}

CompileCommands::~CompileCommands() = default;

UnitCommand CompileCommands::forFile(const std::string &AbsolutePath,
                                     const std::string &DefaultDirectory) {
  UnitCommand C;
  C.directory = DefaultDirectory;
  std::string FlagsError;
  std::optional<frontend::FileFlags> Flags =
      Commands.flagsFor(AbsolutePath, Options.args.extraArgs, FlagsError);
  C.flags = Flags ? Flags->user : frontend::defaultUserFlags(Options.args);
  if (Flags && !Flags->user.directory.empty())
    C.directory = Flags->user.directory;
  C.commandLine = frontend::parseCommandLine(C.flags, Options.args, AbsolutePath);
  return C;
}

std::vector<std::string> commandIncludeDirs(const UnitCommand &Command) {
  std::vector<std::string> Dirs;
  const std::vector<std::string> &Args = Command.commandLine;
  for (size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef A = Args[I];
    std::string Dir;
    for (llvm::StringRef Flag : {"-isystem", "-iquote", "-idirafter", "-I"}) {
      if (!A.starts_with(Flag))
        continue;
      if (A == Flag && I + 1 < Args.size())
        Dir = Args[++I];
      else
        Dir = A.drop_front(Flag.size()).str();
      break;
    }
    if (Dir.empty())
      continue;
    llvm::SmallString<256> Abs(Dir);
    if (!llvm::sys::path::is_absolute(Abs)) {
      Abs = Command.directory;
      llvm::sys::path::append(Abs, Dir);
    }
    llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
    Dirs.push_back(std::string(Abs));
  }
  return Dirs;
}

namespace {

// With a precompiled prefix, the declarations of the precompiled headers
// are loaded only when used; a visitor of the whole translation unit would
// load them all (as slow as parsing them). Nothing the passes look for is
// in them (kernels live in the file and the repository's headers), so the
// traversal is limited to the declarations parsed here.
class LocalScope : public clang::ASTConsumer {
public:
  void HandleTranslationUnit(clang::ASTContext &Ctx) override {
    frontend::limitTraversalToParsedDecls(Ctx);
  }
};

class MadeConsumerAction : public clang::ASTFrontendAction {
public:
  MadeConsumerAction(const ConsumerMaker &Make, bool Precompiled)
      : Make(Make), Precompiled(Precompiled) {}
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &CI,
                                                        llvm::StringRef) override {
    std::unique_ptr<clang::ASTConsumer> Made = Make(CI);
    if (!Precompiled || !Made)
      return Made;
    std::vector<std::unique_ptr<clang::ASTConsumer>> Both;
    Both.push_back(std::make_unique<LocalScope>());
    Both.push_back(std::move(Made));
    return std::make_unique<clang::MultiplexConsumer>(std::move(Both));
  }

private:
  const ConsumerMaker &Make;
  bool Precompiled;
};

// Adds the precompiled prefix (or the PCH output) to the invocation the
// driver built, then runs the action.
class Factory : public clang::tooling::FrontendActionFactory {
public:
  Factory(const ParseInputs &In, const ConsumerMaker &Make) : In(In), Make(Make) {}

  std::unique_ptr<clang::FrontendAction> create() override {
    if (!In.pchOutput.empty())
      return std::make_unique<clang::GeneratePCHAction>();
    return std::make_unique<MadeConsumerAction>(Make, !In.pch.empty());
  }

  bool runInvocation(std::shared_ptr<clang::CompilerInvocation> Invocation,
                     clang::FileManager *Files,
                     std::shared_ptr<clang::PCHContainerOperations> PCHContainerOps,
                     clang::DiagnosticConsumer *DiagConsumer) override {
    if (!In.pch.empty())
      Invocation->getPreprocessorOpts().ImplicitPCHInclude = In.pch;
    // No carets, and no "N errors generated" on stderr: the errors are
    // reported as findings.
    Invocation->getDiagnosticOpts().ShowCarets = false;
    if (!In.pchOutput.empty()) {
      Invocation->getFrontendOpts().OutputFile = In.pchOutput;
      Invocation->getFrontendOpts().ProgramAction = clang::frontend::GeneratePCH;
    }
    if (!In.retain)
      return FrontendActionFactory::runInvocation(std::move(Invocation), Files,
                                                  std::move(PCHContainerOps), DiagConsumer);
    // What FrontendActionFactory::runInvocation does, with the compiler
    // instance handed to the caller afterwards instead of destroyed.
    auto Compiler = std::make_unique<clang::CompilerInstance>(std::move(PCHContainerOps));
    Compiler->setInvocation(std::move(Invocation));
    Compiler->setFileManager(Files);
    std::unique_ptr<clang::FrontendAction> Action = create();
    Compiler->createDiagnostics(DiagConsumer, /*ShouldOwnClient=*/false);
    if (!Compiler->hasDiagnostics())
      return false;
    Compiler->createSourceManager(*Files);
    bool Ok = Compiler->ExecuteAction(*Action);
    Files->clearStatCache();
    *In.retain = std::move(Compiler);
    return Ok;
  }

private:
  const ParseInputs &In;
  const ConsumerMaker &Make;
};

} // namespace

ParseOutcome parseUnit(const ParseInputs &In, const ConsumerMaker &Make) {
  ParseOutcome Out;
  In.fs->setCurrentWorkingDirectory(In.command.directory);
  clang::FileSystemOptions FSOpts;
  FSOpts.WorkingDir = In.command.directory;
  auto Files = llvm::makeIntrusiveRefCnt<clang::FileManager>(FSOpts, In.fs);

  std::string DiagText;
  llvm::raw_string_ostream DiagStream(DiagText);
  auto DiagOpts = llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
  clang::TextDiagnosticPrinter Printer(DiagStream, DiagOpts.get());

  Factory F(In, Make);
  clang::tooling::ToolInvocation Invocation(In.command.commandLine, &F, Files.get(),
                                            std::make_shared<clang::PCHContainerOperations>());
  Invocation.setDiagnosticConsumer(In.diagnostics ? In.diagnostics : &Printer);
  if (!In.diagnostics)
    Invocation.setDiagnosticOptions(DiagOpts.get());
  Out.ok = Invocation.run();
  DiagStream.flush();
  Out.errorText = DiagText;
  return Out;
}

} // namespace ave::review
