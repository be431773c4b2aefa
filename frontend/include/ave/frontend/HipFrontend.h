// Runs Clang over kernel files as HIP device code and hands each parsed
// translation unit to a callback while its AST is alive. The pragma recorder
// is installed before parsing because `#pragma` never reaches the AST.
#pragma once

#include "ave/frontend/HipArgs.h"

#include <functional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class CompilerInstance;
} // namespace clang

namespace ave::ann {
struct PragmaLog;
}

namespace ave::frontend {

struct FrontendOptions {
  HipArgsOptions args;
  std::string buildDir; // -p: directory with compile_commands.json; empty: defaults
};

struct ParsedUnit {
  std::string file;
  clang::ASTContext &context;
  clang::CompilerInstance &compiler;
  const ann::PragmaLog &pragmas;
};

using UnitCallback = std::function<void(ParsedUnit &)>;

struct FrontendResult {
  // Files that could not be parsed (missing, unreadable, compile errors);
  // Clang has already printed why.
  std::vector<std::string> failedFiles;
  std::string setupError; // e.g. unreadable compile_commands.json
  bool ok() const { return failedFiles.empty() && setupError.empty(); }
};

// Parses every file in turn (each is its own translation unit) and calls
// OnUnit for those that parsed without errors.
FrontendResult parseHipFiles(const std::vector<std::string> &Files, const FrontendOptions &Opts,
                             const UnitCallback &OnUnit);

} // namespace ave::frontend
