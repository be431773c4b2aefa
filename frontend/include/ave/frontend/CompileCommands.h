// Where a file's compile flags come from, for every command (kernels,
// annotations, check, lint, rewrite, harness): one clang
// tooling::CompilationDatabase path.
//  - `-p DIR`: DIR's compile_commands.json (or compile_flags.txt);
//  - otherwise the nearest one in the file's folder or above it, as
//    clang-tidy and clangd find it;
//  - `--` flags (lint): those, and no database.
// Response files are expanded, a file the database does not list borrows the
// command of its nearest neighbour (clang's interpolation, as clangd and
// clang-tidy do), and the command goes through clang's own argument
// adjusters (outputs, dependency files, plugins) before HipArgs reads it.
#pragma once

#include "ave/frontend/HipArgs.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clang::tooling {
class CompilationDatabase;
}

namespace ave::frontend {

enum class FlagsOrigin {
  NoDatabase, // no database found: --extra-arg only
  Fixed,      // the `--` flags
  Database,   // the file's own entry
  Borrowed,   // not listed: the nearest neighbour's entry
  Unlisted,   // not listed and nothing to borrow from: --extra-arg only
};

struct FileFlags {
  std::string file; // absolute, no . or ..
  UserFlags user;   // the file's flags plus --extra-arg
  FlagsOrigin origin = FlagsOrigin::NoDatabase;
  std::string database; // the folder of the database consulted
  // Borrowed: the entry the flags came from ("inferred from src/k.hip");
  // Unlisted: a sentence for the user.
  std::string note;
};

class CompileCommands {
public:
  // BuildDir: `-p`; empty: look above each file. FixedArgs: `--` flags,
  // which replace any database.
  CompileCommands(std::string BuildDir, std::optional<std::vector<std::string>> FixedArgs = {});
  ~CompileCommands();

  // The flags for File, with ExtraArgs (--extra-arg) after its own. Fails
  // (Error set) when -p names a folder without a readable database.
  std::optional<FileFlags> flagsFor(const std::string &File,
                                    const std::vector<std::string> &ExtraArgs, std::string &Error);

private:
  // The database that governs Dir (searched upwards), loaded once.
  clang::tooling::CompilationDatabase *databaseAbove(const std::string &Dir, std::string &Found);

  std::string BuildDir;
  std::optional<std::vector<std::string>> FixedArgs;
  std::unique_ptr<clang::tooling::CompilationDatabase> Explicit;
  std::string ExplicitError;
  struct Loaded {
    std::string folder;
    std::shared_ptr<clang::tooling::CompilationDatabase> database;
  };
  std::map<std::string, Loaded> ByDirectory;
};

// The absolute, dot-free spelling of Path.
std::string absolutePath(const std::string &Path);

} // namespace ave::frontend
