// The git command line, run without a shell: revisions are resolved to
// commit ids once (`rev-parse --verify --end-of-options`, so a revision can
// never be read as an option), and every later command names ids. Git runs
// with GIT_OPTIONAL_LOCKS=0 and never writes: review works on a read-only
// checkout, and nothing is checked out.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ave::review {

struct GitOutput {
  int exitCode = -1;
  std::string out, err;
  std::string failure; // could not run git at all
  bool ok() const { return exitCode == 0; }
};

// What a tree entry is: a regular file, an executable, a symlink (its blob
// is the link target) or a submodule.
struct TreeEntry {
  std::string mode; // "100644", "100755", "120000", "160000"
  std::string id;   // blob id
  bool isSymlink() const { return mode == "120000"; }
  bool isFile() const { return mode == "100644" || mode == "100755"; }
};

class GitRepository {
public:
  // The work tree that contains Dir (`git rev-parse --show-toplevel`).
  static std::optional<GitRepository> discover(const std::string &Dir, std::string &Error);

  const std::string &root() const { return Root; }

  GitOutput run(const std::vector<std::string> &Args) const;

  // The commit id of Rev, or nullopt with Error set.
  std::optional<std::string> resolveCommit(const std::string &Rev, std::string &Error) const;

  // `git diff` between Base (a commit id) and Head: another commit id, the
  // index (Head = ":index") or the work tree (Head empty), as a unified diff
  // without context lines, renames detected, limited to Paths (relative to
  // the root; empty for all).
  std::optional<std::string> diff(const std::string &Base, const std::string &Head,
                                  const std::vector<std::string> &Paths, std::string &Error) const;

  // Every blob of a commit's tree (Commit) or of the index (":index"), by
  // repository-relative path.
  std::optional<std::map<std::string, TreeEntry>> listTree(const std::string &Commit,
                                                           std::string &Error) const;

  std::optional<std::string> readBlob(const std::string &Id, std::string &Error) const;

  // Files of Commit (or ":index", or the work tree when empty) whose text
  // contains Needle, among Paths globs.
  std::optional<std::vector<std::string>> grepFiles(const std::string &Commit,
                                                    const std::string &Needle,
                                                    const std::vector<std::string> &Globs,
                                                    std::string &Error) const;

  static constexpr const char *IndexRevision = ":index";

private:
  explicit GitRepository(std::string Root) : Root(std::move(Root)) {}
  std::string Root;
};

// Runs git with Args in Dir (no shell); used before a repository is known.
GitOutput runGit(const std::string &Dir, const std::vector<std::string> &Args);

} // namespace ave::review
