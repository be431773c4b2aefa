// Review reads files named by a change it does not trust: a patch may name
// `../../etc/passwd`, an absolute path, or a file that is a symlink to one
// outside the repository. Every path goes through these checks before
// anything is read, and a refused path is an input error (exit 2) that names
// the path and the reason.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace ave::review {

// Why a repository-relative path (from a patch, git or the command line) is
// unsafe: empty, absolute, with a `..` component, a NUL byte or a backslash.
// nullopt when it is fine. `.` components and doubled slashes are tolerated
// (normalizeRelativePath removes them).
std::optional<std::string> relativePathProblem(std::string_view Path);

// `a//b/./c` -> `a/b/c`. Precondition: no relativePathProblem.
std::string normalizeRelativePath(std::string_view Path);

// Resolves Relative under Root one component at a time, following symlinks
// the way the kernel would, and refuses when a link leads outside Root (or
// loops). Missing components are fine (an added file): the result is then
// the path the file would have. Root must be an absolute, symlink-free path
// (canonicalRoot()).
struct ResolvedPath {
  std::string path;  // absolute, inside Root; empty when refused
  std::string error; // why it was refused
  bool exists = false;
  bool ok() const { return error.empty(); }
};
ResolvedPath resolveUnderRoot(const std::string &Root, std::string_view Relative);

// The real path of Dir, or an error message.
std::optional<std::string> canonicalRoot(const std::string &Dir, std::string &Error);

// True when Path is Root itself or below it (both absolute, normalized).
bool isWithin(std::string_view Root, std::string_view Path);

// How reports name a file: relative to Root when inside it (dots removed),
// else the absolute path.
std::string repositoryPath(const std::string &Root, std::string_view AbsolutePath);

} // namespace ave::review
