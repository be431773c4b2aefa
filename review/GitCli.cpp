// Running git (see GitCli.h). Output goes through temporary files, which
// are removed before returning; options that user configuration could turn
// on (external diff drivers, textconv, colour, custom prefixes, relative
// paths) are turned off on every diff so the output is always the format
// UnifiedPatch reads.

#include "ave/review/GitCli.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"

#include <unistd.h>

extern char **environ;

namespace ave::review {

namespace {

std::string readAndRemove(const llvm::SmallString<128> &Path) {
  std::string Text;
  if (auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                                /*RequiresNullTerminator=*/false))
    Text = (*Buffer)->getBuffer().str();
  llvm::sys::fs::remove(Path);
  return Text;
}

std::vector<std::string> gitEnvironment() {
  std::vector<std::string> Env;
  for (char **E = environ; E && *E; ++E) {
    llvm::StringRef V(*E);
    // Our own settings below win; GIT_DIR & co would point git elsewhere.
    if (V.starts_with("GIT_OPTIONAL_LOCKS=") || V.starts_with("GIT_PAGER=") ||
        V.starts_with("GIT_EXTERNAL_DIFF=") || V.starts_with("LC_ALL="))
      continue;
    Env.push_back(V.str());
  }
  Env.push_back("GIT_OPTIONAL_LOCKS=0");
  Env.push_back("GIT_PAGER=cat");
  Env.push_back("LC_ALL=C");
  return Env;
}

} // namespace

GitOutput runGit(const std::string &Dir, const std::vector<std::string> &Args) {
  GitOutput Out;
  auto Git = llvm::sys::findProgramByName("git");
  if (!Git) {
    Out.failure = "git is not installed (not found on PATH)";
    return Out;
  }
  llvm::SmallString<128> OutFile, ErrFile;
  if (llvm::sys::fs::createTemporaryFile("ave-review-git", "out", OutFile) ||
      llvm::sys::fs::createTemporaryFile("ave-review-git", "err", ErrFile)) {
    Out.failure = "cannot create a temporary file";
    return Out;
  }
  std::vector<std::string> Argv{*Git, "-C", Dir, "--no-pager", "-c", "core.quotePath=true"};
  Argv.insert(Argv.end(), Args.begin(), Args.end());
  std::vector<llvm::StringRef> Refs(Argv.begin(), Argv.end());
  std::vector<std::string> Env = gitEnvironment();
  std::vector<llvm::StringRef> EnvRefs(Env.begin(), Env.end());
  std::optional<llvm::StringRef> Redirects[] = {llvm::StringRef(""), llvm::StringRef(OutFile),
                                                llvm::StringRef(ErrFile)};
  std::string Message;
  Out.exitCode = llvm::sys::ExecuteAndWait(*Git, Refs, EnvRefs, Redirects, 0, 0, &Message);
  Out.out = readAndRemove(OutFile);
  Out.err = readAndRemove(ErrFile);
  if (Out.exitCode < 0)
    Out.failure = Message.empty() ? "git could not be run" : Message;
  return Out;
}

static std::string describe(const GitOutput &O, const std::string &What) {
  if (!O.failure.empty())
    return What + ": " + O.failure;
  std::string Err = llvm::StringRef(O.err).trim().str();
  return What + " failed" + (Err.empty() ? "" : ": " + Err);
}

std::optional<GitRepository> GitRepository::discover(const std::string &Dir, std::string &Error) {
  GitOutput O = runGit(Dir, {"rev-parse", "--show-toplevel"});
  if (!O.ok()) {
    Error = describe(O, "'" + Dir + "' is not inside a git work tree (git rev-parse)");
    return std::nullopt;
  }
  return GitRepository(llvm::StringRef(O.out).trim().str());
}

GitOutput GitRepository::run(const std::vector<std::string> &Args) const {
  return runGit(Root, Args);
}

std::optional<std::string> GitRepository::resolveCommit(const std::string &Rev,
                                                        std::string &Error) const {
  GitOutput O = run({"rev-parse", "--verify", "--quiet", "--end-of-options", Rev + "^{commit}"});
  std::string Id = llvm::StringRef(O.out).trim().str();
  if (!O.ok() || Id.empty()) {
    Error = O.failure.empty() ? "'" + Rev + "' is not a commit of this repository"
                              : describe(O, "git rev-parse");
    return std::nullopt;
  }
  return Id;
}

std::optional<std::string> GitRepository::diff(const std::string &Base, const std::string &Head,
                                               const std::vector<std::string> &Paths,
                                               std::string &Error) const {
  // Plumbing, not `git diff`: porcelain diff refreshes the index (it takes
  // index.lock and rewrites .git/index), which a read-only checkout forbids.
  std::vector<std::string> Args;
  if (Head.empty())
    Args = {"diff-index", "-p", Base};
  else if (Head == IndexRevision)
    Args = {"diff-index", "-p", "--cached", Base};
  else
    Args = {"diff-tree", "-r", "-p", Base, Head};
  for (const char *Option :
       {"--no-ext-diff", "--no-textconv", "--no-color", "--no-relative", "--text",
        "--ignore-submodules", "--src-prefix=a/", "--dst-prefix=b/", "-U0", "-M"})
    Args.insert(Args.end() - (Head.empty() || Head == IndexRevision ? 1 : 2), Option);
  Args.push_back("--");
  Args.insert(Args.end(), Paths.begin(), Paths.end());
  GitOutput O = run(Args);
  if (!O.ok()) {
    Error = describe(O, Args.front());
    return std::nullopt;
  }
  return O.out;
}

std::optional<std::map<std::string, TreeEntry>> GitRepository::listTree(const std::string &Commit,
                                                                        std::string &Error) const {
  bool Index = Commit == IndexRevision;
  GitOutput O = Index ? run({"ls-files", "--stage", "-z"})
                      : run({"ls-tree", "-r", "-z", "--full-tree", Commit});
  if (!O.ok()) {
    Error = describe(O, Index ? "git ls-files" : "git ls-tree");
    return std::nullopt;
  }
  std::map<std::string, TreeEntry> Entries;
  llvm::StringRef Rest(O.out);
  while (!Rest.empty()) {
    auto [Record, Tail] = Rest.split('\0');
    Rest = Tail;
    // ls-tree: "<mode> <type> <id>\t<path>"; ls-files -s: "<mode> <id> <stage>\t<path>".
    auto [Meta, Path] = Record.split('\t');
    llvm::SmallVector<llvm::StringRef, 3> Fields;
    Meta.split(Fields, ' ');
    if (Fields.size() != 3 || Path.empty())
      continue;
    TreeEntry E;
    E.mode = Fields[0].str();
    E.id = (Index ? Fields[1] : Fields[2]).str();
    if (Index && Fields[2] != "0")
      continue; // an unmerged entry: no single version to read
    Entries[Path.str()] = E;
  }
  return Entries;
}

std::optional<std::string> GitRepository::readBlob(const std::string &Id,
                                                   std::string &Error) const {
  GitOutput O = run({"cat-file", "blob", Id});
  if (!O.ok()) {
    Error = describe(O, "git cat-file");
    return std::nullopt;
  }
  return O.out;
}

std::optional<std::vector<std::string>>
GitRepository::grepFiles(const std::string &Commit, const std::string &Needle,
                         const std::vector<std::string> &Globs, std::string &Error) const {
  std::vector<std::string> Args{"grep", "-z", "-l", "-F", "--no-color", "-e", Needle};
  if (Commit == IndexRevision)
    Args.push_back("--cached");
  else if (!Commit.empty())
    Args.push_back(Commit);
  Args.push_back("--");
  Args.insert(Args.end(), Globs.begin(), Globs.end());
  GitOutput O = run(Args);
  if (O.exitCode == 1 && O.failure.empty())
    return std::vector<std::string>{}; // no match
  if (!O.ok()) {
    Error = describe(O, "git grep");
    return std::nullopt;
  }
  std::vector<std::string> Files;
  llvm::StringRef Rest(O.out);
  while (!Rest.empty()) {
    auto [Name, Tail] = Rest.split('\0');
    Rest = Tail;
    // With a commit, git prints "<commit>:<path>".
    if (!Commit.empty() && Commit != IndexRevision)
      Name.consume_front(Commit + ":");
    if (!Name.empty())
      Files.push_back(Name.str());
  }
  return Files;
}

} // namespace ave::review
