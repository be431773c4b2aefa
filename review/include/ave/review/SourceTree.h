// One version of the repository's files, whatever holds it: a commit or the
// index (read with git, nothing checked out), the files on disk (the work
// tree, or the --root of a patch: symlinks leading outside are refused), or
// another tree with a patch applied in memory. Paths are repository-relative.
#pragma once

#include "ave/review/GitCli.h"

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ave::review {

enum class EntryKind { Missing, File, Directory };

class SourceTree {
public:
  virtual ~SourceTree();
  virtual std::string label() const = 0; // "abc1234", "work tree", "index"
  virtual EntryKind entry(const std::string &Path) = 0;
  // The file's text; nullopt with Error set when it is missing or unsafe.
  virtual std::optional<std::string> read(const std::string &Path, std::string &Error) = 0;
  // Why Path must not be read in this tree (a symlink on the way leads out
  // of the root), or nullopt. A missing file is not a problem.
  virtual std::optional<std::string> pathProblem(const std::string &Path) = 0;
  // Files whose text contains Needle and whose names end in one of Suffixes.
  virtual std::vector<std::string> filesMentioning(const std::string &Needle,
                                                   const std::vector<std::string> &Suffixes) = 0;
};

// A commit, or the index (Commit == GitRepository::IndexRevision).
std::unique_ptr<SourceTree> makeGitTree(const GitRepository &Repo, std::string Commit,
                                        std::string Label, std::string &Error);

// Files on disk under Root (canonical), read only after resolveUnderRoot.
// Git is used to list candidate files for filesMentioning when Repo is set.
std::unique_ptr<SourceTree> makeDiskTree(std::string Root, const GitRepository *Repo,
                                         std::string Label);

// Base with some files replaced (a value) or deleted (nullopt).
std::unique_ptr<SourceTree>
makePatchedTree(SourceTree &Base, std::map<std::string, std::optional<std::string>> Overrides,
                std::string Label);

} // namespace ave::review
