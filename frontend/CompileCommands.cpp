#include "ave/frontend/CompileCommands.h"

#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"

namespace ave::frontend {

namespace tooling = clang::tooling;

std::string absolutePath(const std::string &Path) {
  llvm::SmallString<256> Out(Path);
  llvm::sys::fs::make_absolute(Out);
  llvm::sys::path::remove_dots(Out, /*remove_dot_dot=*/true);
  return std::string(Out);
}

namespace {

// What clangd does with a loaded database: response files expanded, files
// it does not list given their nearest neighbour's command.
std::unique_ptr<tooling::CompilationDatabase>
withInference(std::unique_ptr<tooling::CompilationDatabase> DB) {
  return tooling::inferMissingCompileCommands(
      tooling::expandResponseFiles(std::move(DB), llvm::vfs::getRealFileSystem()));
}

// clang's own adjusters first, then --extra-arg (before any `--`).
std::vector<std::string> adjusted(const tooling::CompileCommand &C,
                                  const std::vector<std::string> &ExtraArgs) {
  tooling::ArgumentsAdjuster Adjust = tooling::combineAdjusters(
      tooling::combineAdjusters(tooling::getClangStripOutputAdjuster(),
                                tooling::getClangStripDependencyFileAdjuster()),
      tooling::combineAdjusters(
          tooling::getStripPluginsAdjuster(),
          tooling::getInsertArgumentAdjuster(ExtraArgs, tooling::ArgumentInsertPosition::END)));
  return Adjust(C.CommandLine, C.Filename);
}

FileFlags defaults(const std::string &File, const std::vector<std::string> &ExtraArgs) {
  FileFlags F;
  F.file = File;
  std::vector<std::string> CommandLine{"clang++"};
  CommandLine.insert(CommandLine.end(), ExtraArgs.begin(), ExtraArgs.end());
  F.user = readUserFlags(CommandLine, "");
  return F;
}

} // namespace

CompileCommands::CompileCommands(std::string BuildDirArg,
                                 std::optional<std::vector<std::string>> FixedArgsArg)
    : BuildDir(std::move(BuildDirArg)), FixedArgs(std::move(FixedArgsArg)) {
  if (FixedArgs || BuildDir.empty())
    return;
  std::string Error;
  std::unique_ptr<tooling::CompilationDatabase> DB =
      tooling::CompilationDatabase::loadFromDirectory(BuildDir, Error);
  if (!DB) {
    ExplicitError = "cannot load compile_commands.json from '" + BuildDir + "': " + Error;
    return;
  }
  Explicit = withInference(std::move(DB));
}

CompileCommands::~CompileCommands() = default;

tooling::CompilationDatabase *CompileCommands::databaseAbove(const std::string &Dir,
                                                             std::string &Found) {
  std::vector<std::string> Visited;
  Loaded Result;
  for (llvm::StringRef Cur = Dir; !Cur.empty(); Cur = llvm::sys::path::parent_path(Cur)) {
    auto It = ByDirectory.find(Cur.str());
    if (It != ByDirectory.end()) {
      Result = It->second;
      break;
    }
    Visited.push_back(Cur.str());
    std::string Ignored;
    if (std::unique_ptr<tooling::CompilationDatabase> DB =
            tooling::CompilationDatabase::loadFromDirectory(Cur, Ignored)) {
      Result = {Cur.str(), withInference(std::move(DB))};
      break;
    }
  }
  for (const std::string &V : Visited)
    ByDirectory[V] = Result;
  Found = Result.folder;
  return Result.database.get();
}

std::optional<FileFlags> CompileCommands::flagsFor(const std::string &FileArg,
                                                   const std::vector<std::string> &ExtraArgs,
                                                   std::string &Error) {
  const std::string File = absolutePath(FileArg);
  if (FixedArgs) {
    std::vector<std::string> All = *FixedArgs;
    All.insert(All.end(), ExtraArgs.begin(), ExtraArgs.end());
    FileFlags F = defaults(File, All);
    F.origin = FlagsOrigin::Fixed;
    return F;
  }
  if (!ExplicitError.empty()) {
    Error = ExplicitError;
    return std::nullopt;
  }
  std::string Folder = BuildDir;
  tooling::CompilationDatabase *DB =
      Explicit ? Explicit.get()
               : databaseAbove(std::string(llvm::sys::path::parent_path(File)), Folder);
  if (!DB)
    return defaults(File, ExtraArgs);
  std::vector<tooling::CompileCommand> Commands = DB->getCompileCommands(File);
  if (Commands.empty()) {
    FileFlags F = defaults(File, ExtraArgs);
    F.database = Folder;
    F.origin = FlagsOrigin::Unlisted;
    F.note = "not in the compilation database in '" + Folder +
             "' and no entry to borrow flags from; parsed with the default flags";
    return F;
  }
  const tooling::CompileCommand &C = Commands.front();
  FileFlags F;
  F.file = File;
  F.database = Folder;
  F.user = readUserFlags(adjusted(C, ExtraArgs), C.Directory);
  F.note = C.Heuristic;
  F.origin = C.Heuristic.empty() ? FlagsOrigin::Database : FlagsOrigin::Borrowed;
  return F;
}

} // namespace ave::frontend
