#include "ave/lint/LintPreamble.h"

#include "ave/frontend/CompileCommands.h"
#include "clang-tidy/ClangTidyOptions.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"

namespace ave::lint {

namespace {

// Whether a check glob list (clang-tidy's syntax: comma- or newline-
// separated, `-` for a negative glob, the last match wins) enables nothing
// but ave-* checks: every positive glob after the last `-*` names ave-*
// checks only. A later negative glob that happens to cancel a positive one
// is not credited, which only leaves the PCH out.
bool onlyAveChecks(llvm::StringRef Checks) {
  llvm::SmallVector<llvm::StringRef, 8> Globs;
  Checks.split(Globs, ',');
  bool Other = false;
  for (llvm::StringRef Line : Globs)
    for (llvm::StringRef Glob : llvm::split(Line, '\n')) {
      Glob = Glob.trim();
      if (Glob.empty())
        continue;
      if (Glob == "-*")
        Other = false;
      else if (!Glob.starts_with("-") && !Glob.starts_with("ave-"))
        Other = true;
    }
  return !Other;
}

} // namespace

bool lintMayUsePreamble(const LintPreambleOptions &Opts, const std::string &File) {
  if (Opts.compilerArgsChanged || Opts.systemHeaders || Opts.configGiven)
    return false;
  clang::tidy::ClangTidyOptions Override;
  if (!Opts.checks.empty())
    Override.Checks = Opts.checks;
  // clang-tidy's own defaults (ClangTidyMain.cpp), then the .clang-tidy
  // files, then the command line.
  clang::tidy::ClangTidyOptions Defaults = clang::tidy::ClangTidyOptions::getDefaults();
  Defaults.Checks = "clang-diagnostic-*,clang-analyzer-*";
  clang::tidy::FileOptionsProvider Provider(clang::tidy::ClangTidyGlobalOptions(), Defaults,
                                            Override);
  clang::tidy::ClangTidyOptions Options = Provider.getOptions(frontend::absolutePath(File));
  auto Set = [](const std::optional<std::vector<std::string>> &Args) {
    return Args && !Args->empty();
  };
  return !Set(Options.ExtraArgs) && !Set(Options.ExtraArgsBefore) &&
         !Options.SystemHeaders.value_or(false) && onlyAveChecks(Options.Checks.value_or(""));
}

} // namespace ave::lint
