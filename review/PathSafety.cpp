// Path checks for untrusted changes (see PathSafety.h). Symlinks are
// resolved by hand, component by component, with lstat/readlink: the real
// path of a missing file is not defined, and a dangling link that points
// outside the root must be refused as firmly as a live one.

#include "ave/review/PathSafety.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <sys/stat.h>
#include <unistd.h>

namespace ave::review {

std::optional<std::string> relativePathProblem(std::string_view Path) {
  llvm::StringRef P(Path.data(), Path.size());
  if (P.empty())
    return std::string("the path is empty");
  if (P.contains('\0'))
    return std::string("the path contains a NUL byte");
  if (P.starts_with("/"))
    return std::string("absolute paths are refused");
  if (P.contains('\\'))
    return std::string("backslashes are refused in paths");
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  P.split(Parts, '/');
  for (llvm::StringRef Part : Parts)
    if (Part == "..")
      return std::string("'..' leaves the repository root");
  if (normalizeRelativePath(Path).empty())
    return std::string("the path names the root itself");
  return std::nullopt;
}

std::string normalizeRelativePath(std::string_view Path) {
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  llvm::StringRef(Path.data(), Path.size()).split(Parts, '/');
  std::string Out;
  for (llvm::StringRef Part : Parts) {
    if (Part.empty() || Part == ".")
      continue;
    if (!Out.empty())
      Out += '/';
    Out += Part.str();
  }
  return Out;
}

bool isWithin(std::string_view Root, std::string_view Path) {
  llvm::StringRef R(Root.data(), Root.size()), P(Path.data(), Path.size());
  R = R.rtrim('/');
  if (!P.starts_with(R))
    return false;
  return P.size() == R.size() || P[R.size()] == '/';
}

std::string repositoryPath(const std::string &Root, std::string_view AbsolutePath) {
  llvm::SmallString<256> P(llvm::StringRef(AbsolutePath.data(), AbsolutePath.size()));
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  if (isWithin(Root, P.str()) && P.size() > Root.size())
    return P.substr(Root.size() + 1).str();
  return std::string(P);
}

std::optional<std::string> canonicalRoot(const std::string &Dir, std::string &Error) {
  llvm::SmallString<256> Real;
  if (std::error_code EC = llvm::sys::fs::real_path(Dir, Real, /*expand_tilde=*/false)) {
    Error = "cannot resolve '" + Dir + "': " + EC.message();
    return std::nullopt;
  }
  if (!llvm::sys::fs::is_directory(Real)) {
    Error = "'" + Dir + "' is not a directory";
    return std::nullopt;
  }
  return std::string(Real);
}

namespace {

// Components still to walk, front first.
void pushComponents(llvm::StringRef Path, llvm::SmallVectorImpl<std::string> &Stack) {
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  Path.split(Parts, '/');
  for (auto It = Parts.rbegin(); It != Parts.rend(); ++It)
    if (!It->empty() && *It != ".")
      Stack.push_back(It->str());
}

} // namespace

ResolvedPath resolveUnderRoot(const std::string &Root, std::string_view Relative) {
  ResolvedPath Out;
  if (auto Problem = relativePathProblem(Relative)) {
    Out.error = *Problem;
    return Out;
  }
  llvm::SmallVector<std::string, 16> Stack;
  pushComponents(llvm::StringRef(Relative.data(), Relative.size()), Stack);
  std::string Current = Root;
  unsigned Links = 0;
  bool Missing = false;
  while (!Stack.empty()) {
    std::string Part = Stack.pop_back_val();
    if (Part == "..") { // only from a link's target
      Current = llvm::sys::path::parent_path(Current).str();
      if (!isWithin(Root, Current)) {
        Out.error = "a symbolic link leads outside the repository root";
        return Out;
      }
      continue;
    }
    std::string Next = Current + "/" + Part;
    struct stat St;
    if (Missing || lstat(Next.c_str(), &St) != 0) {
      Missing = true; // everything below a missing component is missing too
      Current = Next;
      continue;
    }
    if (!S_ISLNK(St.st_mode)) {
      Current = Next;
      continue;
    }
    if (++Links > 40) {
      Out.error = "too many levels of symbolic links";
      return Out;
    }
    char Target[4096];
    ssize_t N = readlink(Next.c_str(), Target, sizeof Target - 1);
    if (N < 0) {
      Out.error = "cannot read the symbolic link '" + Next + "'";
      return Out;
    }
    llvm::StringRef T(Target, size_t(N));
    if (T.starts_with("/")) {
      // An absolute target: fine only when it stays inside the root.
      if (!isWithin(Root, T)) {
        Out.error = "a symbolic link points outside the repository root (to '" + T.str() + "')";
        return Out;
      }
      Current = Root;
      pushComponents(T.drop_front(Root.size()), Stack);
    } else {
      pushComponents(T, Stack);
    }
  }
  Out.path = Current;
  Out.exists = !Missing;
  return Out;
}

} // namespace ave::review
