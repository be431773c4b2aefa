// Runs Clang over kernel files as HIP device code and hands each parsed
// translation unit to a callback while its AST is alive. The pragma recorder
// is installed before parsing because `#pragma` never reaches the AST.
#pragma once

#include "ave/frontend/CompileCommands.h"
#include "ave/frontend/HipArgs.h"

#include <functional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class CompilerInstance;
} // namespace clang

namespace llvm {
class raw_ostream;
}

namespace ave::ann {
struct PragmaLog;
}

namespace ave::frontend {

struct FrontendOptions {
  HipArgsOptions args;
  // -p: directory with compile_commands.json; empty: the nearest one above
  // each file, if any (see CompileCommands.h).
  std::string buildDir;
};

struct ParsedUnit {
  std::string file;
  clang::ASTContext &context;
  clang::CompilerInstance &compiler;
  const ann::PragmaLog &pragmas;
};

using UnitCallback = std::function<void(ParsedUnit &)>;

// A file that could not be parsed, and why in a few words; the details
// (Clang's diagnostics) have been printed already.
struct FileFailure {
  std::string file;
  std::string reason;       // "no such file", "could not parse as HIP device code", ...
  bool parseFailed = false; // read, but Clang reported errors (the others are unreadable)
  std::string parsed;       // not empty: which text was parsed, when not the file as it is
};

struct FrontendResult {
  // Files that could not be parsed (missing, unreadable, compile errors).
  std::vector<FileFailure> failures;
  std::string setupError; // e.g. unreadable compile_commands.json
  bool ok() const { return failures.empty() && setupError.empty(); }
};

// Parses every file in turn (each is its own translation unit) and calls
// OnUnit for those that parsed without errors.
FrontendResult parseHipFiles(const std::vector<std::string> &Files, const FrontendOptions &Opts,
                             const UnitCallback &OnUnit);

// Why File cannot be read as a source file ("no such file", "is a
// directory"), or "" when it can.
std::string unreadableSourceReason(const std::string &File);

struct SingleParse {
  // When set, the text parsed instead of the file's own (a patched version
  // that is never written); it is mapped over the file's real path, so the
  // file's neighbouring headers still resolve.
  const std::string *contents = nullptr;
  // Clang's messages go here when set, else to stderr.
  llvm::raw_ostream *diagnostics = nullptr;
};

// Parses one file as HIP device code with its flags (see HipArgs.h). True
// when the unit parsed without errors and OnUnit ran.
bool parseHipFile(const FileFlags &Flags, const HipArgsOptions &Opts, const UnitCallback &OnUnit,
                  const SingleParse &How = {});

} // namespace ave::frontend
