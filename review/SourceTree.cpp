// The three kinds of SourceTree (see SourceTree.h). Reads are cached: one
// translation unit and its neighbours read the same headers again.

#include "ave/review/SourceTree.h"

#include "ave/review/PathSafety.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

namespace ave::review {

SourceTree::~SourceTree() = default;

namespace {

bool hasSuffix(llvm::StringRef Path, const std::vector<std::string> &Suffixes) {
  for (const std::string &S : Suffixes)
    if (Path.ends_with(S))
      return true;
  return false;
}

std::vector<std::string> globsFor(const std::vector<std::string> &Suffixes) {
  std::vector<std::string> Globs;
  for (const std::string &S : Suffixes)
    Globs.push_back("*" + S);
  return Globs;
}

class GitTree : public SourceTree {
public:
  GitTree(const GitRepository &Repo, std::string Commit, std::string Label,
          std::map<std::string, TreeEntry> Entries)
      : Repo(Repo), Commit(std::move(Commit)), Label(std::move(Label)),
        Entries(std::move(Entries)) {
    for (const auto &[Path, E] : this->Entries)
      for (llvm::StringRef P = llvm::sys::path::parent_path(Path, llvm::sys::path::Style::posix);
           !P.empty(); P = llvm::sys::path::parent_path(P, llvm::sys::path::Style::posix))
        Directories.insert(P.str());
  }

  std::string label() const override { return Label; }

  EntryKind entry(const std::string &Path) override {
    std::string Error;
    std::optional<std::string> Resolved = resolve(Path, Error);
    if (!Resolved)
      return EntryKind::Missing;
    if (Directories.count(*Resolved))
      return EntryKind::Directory;
    auto It = Entries.find(*Resolved);
    return It != Entries.end() && It->second.isFile() ? EntryKind::File : EntryKind::Missing;
  }

  std::optional<std::string> read(const std::string &Path, std::string &Error) override {
    std::optional<std::string> Resolved = resolve(Path, Error);
    if (!Resolved)
      return std::nullopt;
    auto It = Entries.find(*Resolved);
    if (It == Entries.end() || !It->second.isFile()) {
      Error = "'" + Path + "' is not a file in " + Label;
      return std::nullopt;
    }
    auto Cached = Blobs.find(It->second.id);
    if (Cached != Blobs.end())
      return Cached->second;
    std::optional<std::string> Text = Repo.readBlob(It->second.id, Error);
    if (Text)
      Blobs[It->second.id] = *Text;
    return Text;
  }

  std::optional<std::string> pathProblem(const std::string &Path) override {
    std::string Error;
    if (resolve(Path, Error))
      return std::nullopt;
    llvm::StringRef Reason(Error);
    Reason.consume_front("'" + Path + "': ");
    return Reason.str();
  }

  std::vector<std::string> filesMentioning(const std::string &Needle,
                                           const std::vector<std::string> &Suffixes) override {
    std::string Error;
    auto Files = Repo.grepFiles(Commit, Needle, globsFor(Suffixes), Error);
    return Files ? *Files : std::vector<std::string>{};
  }

private:
  // Follows symlinks stored in the tree (their blob is the target) as long
  // as they stay inside it; a link out of the tree is never followed.
  std::optional<std::string> resolve(const std::string &Path, std::string &Error) {
    if (auto Problem = relativePathProblem(Path)) {
      Error = "'" + Path + "': " + *Problem;
      return std::nullopt;
    }
    std::string Current = normalizeRelativePath(Path);
    for (unsigned Hops = 0; Hops < 40; ++Hops) {
      std::optional<std::string> Link = firstLink(Current);
      if (!Link)
        return Current;
      auto It = Entries.find(*Link);
      std::string Target;
      if (!readLinkTarget(It->second, Target, Error))
        return std::nullopt;
      std::string Rest = llvm::StringRef(Current).drop_front(Link->size()).str();
      std::string Dir = llvm::sys::path::parent_path(*Link, llvm::sys::path::Style::posix).str();
      std::optional<std::string> Joined = joinInside(Dir, Target + Rest);
      if (!Joined) {
        Error = "'" + Path + "': a symbolic link leads outside the repository root";
        return std::nullopt;
      }
      Current = *Joined;
    }
    Error = "'" + Path + "': too many levels of symbolic links";
    return std::nullopt;
  }

  // The shortest prefix of Path (whole components) that is a symlink entry.
  std::optional<std::string> firstLink(const std::string &Path) const {
    for (size_t Pos = 0; Pos != std::string::npos;) {
      size_t Slash = Path.find('/', Pos);
      std::string Prefix = Path.substr(0, Slash);
      auto It = Entries.find(Prefix);
      if (It != Entries.end() && It->second.isSymlink())
        return Prefix;
      Pos = Slash == std::string::npos ? Slash : Slash + 1;
    }
    return std::nullopt;
  }

  bool readLinkTarget(const TreeEntry &E, std::string &Target, std::string &Error) {
    std::optional<std::string> Text = Repo.readBlob(E.id, Error);
    if (!Text)
      return false;
    Target = *Text;
    return true;
  }

  // Dir/Rel normalized, nullopt when `..` climbs above the root or Rel is
  // absolute.
  static std::optional<std::string> joinInside(const std::string &Dir, const std::string &Rel) {
    if (llvm::StringRef(Rel).starts_with("/"))
      return std::nullopt;
    llvm::SmallVector<llvm::StringRef, 16> Parts, Out;
    std::string Whole = Dir.empty() ? Rel : Dir + "/" + Rel;
    llvm::StringRef(Whole).split(Parts, '/');
    for (llvm::StringRef P : Parts) {
      if (P.empty() || P == ".")
        continue;
      if (P == "..") {
        if (Out.empty())
          return std::nullopt;
        Out.pop_back();
        continue;
      }
      Out.push_back(P);
    }
    std::string Joined;
    for (llvm::StringRef P : Out)
      Joined += (Joined.empty() ? "" : "/") + P.str();
    return Joined;
  }

  const GitRepository &Repo;
  std::string Commit, Label;
  std::map<std::string, TreeEntry> Entries;
  std::set<std::string> Directories;
  std::map<std::string, std::string> Blobs;
};

class DiskTree : public SourceTree {
public:
  DiskTree(std::string Root, const GitRepository *Repo, std::string Label)
      : Root(std::move(Root)), Repo(Repo), Label(std::move(Label)) {}

  std::string label() const override { return Label; }

  EntryKind entry(const std::string &Path) override {
    ResolvedPath R = resolveUnderRoot(Root, Path);
    if (!R.ok() || !R.exists)
      return EntryKind::Missing;
    if (llvm::sys::fs::is_directory(R.path))
      return EntryKind::Directory;
    return llvm::sys::fs::is_regular_file(R.path) ? EntryKind::File : EntryKind::Missing;
  }

  std::optional<std::string> read(const std::string &Path, std::string &Error) override {
    auto Cached = Texts.find(Path);
    if (Cached != Texts.end())
      return Cached->second;
    ResolvedPath R = resolveUnderRoot(Root, Path);
    if (!R.ok()) {
      Error = "'" + Path + "': " + R.error;
      return std::nullopt;
    }
    // Only regular files: a FIFO or device would block or never end.
    if (!R.exists || !llvm::sys::fs::is_regular_file(R.path)) {
      Error = "'" + Path + "' is not a regular file in " + Label;
      return std::nullopt;
    }
    auto Buffer = llvm::MemoryBuffer::getFile(R.path, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
    if (!Buffer) {
      Error = "cannot read '" + Path + "': " + Buffer.getError().message();
      return std::nullopt;
    }
    return Texts[Path] = (*Buffer)->getBuffer().str();
  }

  std::optional<std::string> pathProblem(const std::string &Path) override {
    ResolvedPath R = resolveUnderRoot(Root, Path);
    if (!R.ok())
      return R.error;
    return std::nullopt;
  }

  std::vector<std::string> filesMentioning(const std::string &Needle,
                                           const std::vector<std::string> &Suffixes) override {
    std::vector<std::string> Found;
    if (Repo) {
      std::string Error;
      if (auto Files = Repo->grepFiles("", Needle, globsFor(Suffixes), Error))
        return *Files;
    }
    std::error_code EC;
    for (llvm::sys::fs::recursive_directory_iterator It(Root, EC, /*follow_symlinks=*/false), End;
         It != End && !EC; It.increment(EC)) {
      llvm::StringRef Name = llvm::sys::path::filename(It->path());
      if (Name == ".git" || (Name.starts_with(".") && Name.size() > 1)) {
        It.no_push();
        continue;
      }
      if (It->type() != llvm::sys::fs::file_type::regular_file || !hasSuffix(It->path(), Suffixes))
        continue;
      std::string Rel = llvm::StringRef(It->path()).drop_front(Root.size() + 1).str();
      std::string Error;
      std::optional<std::string> Text = read(Rel, Error);
      if (Text && Text->find(Needle) != std::string::npos)
        Found.push_back(Rel);
    }
    return Found;
  }

private:
  std::string Root;
  const GitRepository *Repo;
  std::string Label;
  std::map<std::string, std::string> Texts;
};

class PatchedTree : public SourceTree {
public:
  PatchedTree(SourceTree &Base, std::map<std::string, std::optional<std::string>> Overrides,
              std::string Label)
      : Base(Base), Overrides(std::move(Overrides)), Label(std::move(Label)) {
    for (const auto &[Path, Text] : this->Overrides)
      if (Text)
        for (llvm::StringRef P = llvm::sys::path::parent_path(Path, llvm::sys::path::Style::posix);
             !P.empty(); P = llvm::sys::path::parent_path(P, llvm::sys::path::Style::posix))
          AddedDirectories.insert(P.str());
  }

  std::string label() const override { return Label; }

  EntryKind entry(const std::string &Path) override {
    std::string Key = normalizeRelativePath(Path);
    auto It = Overrides.find(Key);
    if (It != Overrides.end())
      return It->second ? EntryKind::File : EntryKind::Missing;
    if (AddedDirectories.count(Key))
      return EntryKind::Directory;
    return Base.entry(Path);
  }

  std::optional<std::string> read(const std::string &Path, std::string &Error) override {
    auto It = Overrides.find(normalizeRelativePath(Path));
    if (It == Overrides.end())
      return Base.read(Path, Error);
    if (!It->second)
      Error = "'" + Path + "' is deleted by the patch";
    return It->second;
  }

  std::optional<std::string> pathProblem(const std::string &Path) override {
    if (Overrides.count(normalizeRelativePath(Path)))
      return std::nullopt;
    return Base.pathProblem(Path);
  }

  std::vector<std::string> filesMentioning(const std::string &Needle,
                                           const std::vector<std::string> &Suffixes) override {
    std::vector<std::string> Found;
    for (const std::string &F : Base.filesMentioning(Needle, Suffixes))
      if (!Overrides.count(F))
        Found.push_back(F);
    for (const auto &[Path, Text] : Overrides)
      if (Text && hasSuffix(Path, Suffixes) && Text->find(Needle) != std::string::npos)
        Found.push_back(Path);
    return Found;
  }

private:
  SourceTree &Base;
  std::map<std::string, std::optional<std::string>> Overrides;
  std::set<std::string> AddedDirectories;
  std::string Label;
};

} // namespace

std::unique_ptr<SourceTree> makeGitTree(const GitRepository &Repo, std::string Commit,
                                        std::string Label, std::string &Error) {
  auto Entries = Repo.listTree(Commit, Error);
  if (!Entries)
    return nullptr;
  return std::make_unique<GitTree>(Repo, std::move(Commit), std::move(Label), std::move(*Entries));
}

std::unique_ptr<SourceTree> makeDiskTree(std::string Root, const GitRepository *Repo,
                                         std::string Label) {
  return std::make_unique<DiskTree>(std::move(Root), Repo, std::move(Label));
}

std::unique_ptr<SourceTree>
makePatchedTree(SourceTree &Base, std::map<std::string, std::optional<std::string>> Overrides,
                std::string Label) {
  return std::make_unique<PatchedTree>(Base, std::move(Overrides), std::move(Label));
}

} // namespace ave::review
