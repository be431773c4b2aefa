// Loading a change (see ChangeInput.h). For git input the diff comes from
// `git diff -U0 -M` between resolved commit ids and is parsed by the same
// parser as a --patch file; for patch input every path in the patch is
// checked first, then the patched files are read from the root and the
// patch is applied in memory (the root is never written).

#include "ave/review/ChangeInput.h"

#include "ave/review/PathSafety.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

namespace ave::review {

namespace {

std::string absoluteFrom(const std::string &Cwd, const std::string &Path) {
  llvm::SmallString<256> P(Path);
  if (!llvm::sys::path::is_absolute(P)) {
    P = Cwd;
    llvm::sys::path::append(P, Path);
  }
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return std::string(P);
}

// Command-line PATHS as repository-relative prefixes.
bool relativePaths(const ChangeRequest &R, const std::string &Root, std::vector<std::string> &Out,
                   std::string &Error) {
  for (const std::string &P : R.paths) {
    std::string Abs = absoluteFrom(R.currentDirectory, P);
    // The root may be reached through a symlinked directory.
    std::string Canonical = Abs;
    if (std::optional<std::string> C = canonicalRoot(Abs, Error))
      Canonical = *C;
    Error.clear();
    std::string Rel;
    if (isWithin(Root, Canonical))
      Rel = Canonical.size() == Root.size() ? "" : Canonical.substr(Root.size() + 1);
    else if (isWithin(Root, Abs))
      Rel = Abs.size() == Root.size() ? "" : Abs.substr(Root.size() + 1);
    else {
      Error = "'" + P + "' is outside the repository root '" + Root + "'";
      return false;
    }
    Out.push_back(Rel);
  }
  return true;
}

bool selected(const std::vector<std::string> &Prefixes, const FilePatch &F) {
  if (Prefixes.empty())
    return true;
  for (const std::string &P : Prefixes)
    for (const std::string &Path : {F.oldPath, F.newPath})
      if (!Path.empty() && (P.empty() || Path == P || llvm::StringRef(Path).starts_with(P + "/")))
        return true;
  return false;
}

std::optional<ChangeSet> loadGit(const ChangeRequest &R, std::string &Error) {
  std::optional<GitRepository> Repo = GitRepository::discover(R.currentDirectory, Error);
  if (!Repo)
    return std::nullopt;
  ChangeSet C;
  std::optional<std::string> Root = canonicalRoot(Repo->root(), Error);
  if (!Root)
    return std::nullopt;
  C.root = *Root;
  std::optional<std::string> Base = Repo->resolveCommit(R.base, Error);
  if (!Base)
    return std::nullopt;
  std::string Head;
  if (R.cached) {
    Head = GitRepository::IndexRevision;
  } else if (!R.head.empty()) {
    std::optional<std::string> H = Repo->resolveCommit(R.head, Error);
    if (!H)
      return std::nullopt;
    Head = *H;
  }
  std::vector<std::string> Paths;
  if (!relativePaths(R, C.root, Paths, Error))
    return std::nullopt;
  std::optional<std::string> Diff = Repo->diff(*Base, Head, Paths, Error);
  if (!Diff)
    return std::nullopt;
  ParsedPatch P = parseUnifiedPatch(*Diff);
  if (!P.ok()) {
    Error = "cannot read git's diff (line " + std::to_string(P.errorLine) + "): " + P.error;
    return std::nullopt;
  }
  for (const FilePatch &F : P.files)
    for (const std::string &Path : {F.oldPath, F.newPath})
      if (!Path.empty())
        if (auto Problem = relativePathProblem(Path)) {
          Error = "refusing path '" + Path + "' from git: " + *Problem;
          return std::nullopt;
        }
  C.files = std::move(P.files);
  C.repo = std::make_shared<GitRepository>(std::move(*Repo));
  C.baseLabel = R.base + " (" + Base->substr(0, 12) + ")";
  C.base = makeGitTree(*C.repo, *Base, C.baseLabel, Error);
  if (!C.base)
    return std::nullopt;
  if (R.cached) {
    C.headLabel = "the index";
    C.head = makeGitTree(*C.repo, GitRepository::IndexRevision, C.headLabel, Error);
  } else if (!R.head.empty()) {
    C.headLabel = R.head + " (" + Head.substr(0, 12) + ")";
    C.head = makeGitTree(*C.repo, Head, C.headLabel, Error);
  } else {
    C.headLabel = "the work tree";
    C.head = makeDiskTree(C.root, C.repo.get(), C.headLabel);
  }
  if (!C.head)
    return std::nullopt;
  // A changed path that a symlink of either version leads out of the root
  // is refused before anything of the change is read.
  for (const FilePatch &F : C.files)
    for (auto [Path, Tree] : {std::pair{&F.oldPath, C.base.get()}, {&F.newPath, C.head.get()}})
      if (!Path->empty())
        if (std::optional<std::string> Problem = Tree->pathProblem(*Path)) {
          Error = "refusing path '" + *Path + "' (in " + Tree->label() + "): " + *Problem;
          // Nothing is read from it: the check itself only read link targets.
          return std::nullopt;
        }
  return C;
}

std::optional<std::string> readPatchText(const std::string &File, std::string &Error) {
  auto Buffer = File == "-" ? llvm::MemoryBuffer::getSTDIN() : llvm::MemoryBuffer::getFile(File);
  if (!Buffer) {
    Error = "cannot read the patch '" + File + "': " + Buffer.getError().message();
    return std::nullopt;
  }
  return (*Buffer)->getBuffer().str();
}

// Every path, every symlink on the way to it: refused before anything is read.
bool checkPatchPaths(const std::string &Root, const std::vector<FilePatch> &Files,
                     std::string &Error) {
  for (const FilePatch &F : Files)
    for (const std::string &Path : {F.oldPath, F.newPath}) {
      if (Path.empty())
        continue;
      ResolvedPath R = resolveUnderRoot(Root, Path);
      if (!R.ok()) {
        Error = "refusing path '" + Path + "' (patch line " + std::to_string(F.patchLine) +
                "): " + R.error;
        return false;
      }
    }
  return true;
}

std::optional<ChangeSet> loadPatch(const ChangeRequest &R, std::string &Error) {
  std::optional<std::string> Text = readPatchText(R.patchFile, Error);
  if (!Text)
    return std::nullopt;
  PatchParseOptions Options;
  Options.strip = R.strip;
  ParsedPatch P = parseUnifiedPatch(*Text, Options);
  if (!P.ok()) {
    Error = R.patchFile + ":" + std::to_string(P.errorLine) + ": " + P.error;
    return std::nullopt;
  }
  if (P.files.empty()) {
    Error = "'" + R.patchFile + "' holds no file changes";
    return std::nullopt;
  }
  ChangeSet C;
  std::optional<std::string> Root =
      canonicalRoot(R.patchRoot.empty() ? R.currentDirectory : R.patchRoot, Error);
  if (!Root)
    return std::nullopt;
  C.root = *Root;
  if (!checkPatchPaths(C.root, P.files, Error))
    return std::nullopt;
  for (FilePatch &F : P.files) {
    if (!F.oldPath.empty())
      F.oldPath = normalizeRelativePath(F.oldPath);
    if (!F.newPath.empty())
      F.newPath = normalizeRelativePath(F.newPath);
  }
  std::vector<std::string> Prefixes;
  if (!relativePaths(R, C.root, Prefixes, Error))
    return std::nullopt;
  C.baseLabel = "the files in " + C.root;
  C.base = makeDiskTree(C.root, nullptr, C.baseLabel);
  std::map<std::string, std::optional<std::string>> Overrides;
  for (FilePatch &F : P.files) {
    if (!selected(Prefixes, F))
      continue;
    if (F.binary) {
      Error = "binary changes cannot be applied in memory ('" +
              (F.newPath.empty() ? F.oldPath : F.newPath) + "')";
      return std::nullopt;
    }
    std::string Old;
    if (!F.oldPath.empty()) {
      std::string ReadError;
      std::optional<std::string> T = C.base->read(F.oldPath, ReadError);
      if (!T) {
        Error = "cannot apply the patch: " + ReadError;
        return std::nullopt;
      }
      Old = *T;
    }
    AppliedPatch A = applyFilePatch(Old, F);
    if (!A.ok()) {
      Error = "cannot apply the patch to '" + (F.oldPath.empty() ? F.newPath : F.oldPath) +
              "': " + A.error;
      return std::nullopt;
    }
    if (F.kind == FileChangeKind::Renamed)
      Overrides[F.oldPath] = std::nullopt;
    if (!F.newPath.empty())
      Overrides[F.newPath] = A.text;
    else
      Overrides[F.oldPath] = std::nullopt;
    C.files.push_back(std::move(F));
  }
  C.headLabel = "the patched files";
  C.head = makePatchedTree(*C.base, std::move(Overrides), C.headLabel);
  return C;
}

} // namespace

std::optional<ChangeSet> loadChange(const ChangeRequest &Request, std::string &Error) {
  if (!Request.patchFile.empty())
    return loadPatch(Request, Error);
  return loadGit(Request, Error);
}

} // namespace ave::review
