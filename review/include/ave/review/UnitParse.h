// Running Clang over one translation unit of one version: its compile
// command (from -p's compile_commands.json, or the HIP device defaults,
// rewritten by the front end's one policy in HipArgs.h), a file system that
// serves the version (RevisionFileSystem.h), and an optional precompiled
// prefix (PrefixPch.h). The caller supplies the AST consumer: the obligation
// pass and the lint pass each bring their own.
#pragma once

#include "ave/frontend/CompileCommands.h"
#include "ave/frontend/HipFrontend.h"

#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace clang {
class ASTConsumer;
class CompilerInstance;
class DiagnosticConsumer;
namespace tooling {
class CompilationDatabase;
}
} // namespace clang

namespace ave::review {

struct UnitCommand {
  std::vector<std::string> commandLine; // compiler first, the file last
  std::string directory;                // where the command runs
  frontend::UserFlags flags;            // the file's flags, for the compile checks
};

// The compile commands of every command (frontend/CompileCommands.h: -p, or
// the nearest database above the file; unlisted files borrow a neighbour's),
// rendered by the front end's one policy (HipArgs.h) for the parse.
class CompileCommands {
public:
  explicit CompileCommands(const frontend::FrontendOptions &Options);
  ~CompileCommands();
  bool ok() const { return Error.empty(); }
  const std::string &error() const { return Error; }
  UnitCommand forFile(const std::string &AbsolutePath, const std::string &DefaultDirectory);

private:
  frontend::FrontendOptions Options;
  frontend::CompileCommands Commands;
  std::string Error;
};

// The include directories a command names (-I, -isystem, -iquote,
// -idirafter), absolute: the parse must be allowed to read them.
std::vector<std::string> commandIncludeDirs(const UnitCommand &Command);

using ConsumerMaker = std::function<std::unique_ptr<clang::ASTConsumer>(clang::CompilerInstance &)>;

struct ParseInputs {
  std::string file; // absolute
  UnitCommand command;
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fs;
  std::string pch;       // a precompiled prefix to load first; empty: none
  std::string pchOutput; // set: emit a PCH of `file` there instead of analysing
  clang::DiagnosticConsumer *diagnostics = nullptr; // null: collected as text
  // Set: the compiler instance is kept here after the parse (its AST is
  // gone, its source and file managers stay) instead of being destroyed.
  std::unique_ptr<clang::CompilerInstance> *retain = nullptr;
};

struct ParseOutcome {
  bool ok = false;       // parsed without errors (and the consumer ran)
  std::string errorText; // Clang's errors, when diagnostics was null
};

ParseOutcome parseUnit(const ParseInputs &In, const ConsumerMaker &Make);

} // namespace ave::review
