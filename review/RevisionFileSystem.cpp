// See RevisionFileSystem.h. Files served from a SourceTree get one stable
// UniqueID per path (Clang's FileManager identifies files by it) and a fixed
// modification time; their text is read once and kept.

#include "ave/review/RevisionFileSystem.h"

#include "ave/frontend/HipArgs.h"
#include "ave/review/PathSafety.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Chrono.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <map>

namespace ave::review {

namespace {

class TreeFile : public llvm::vfs::File {
public:
  TreeFile(llvm::vfs::Status S, std::shared_ptr<const std::string> Text)
      : S(std::move(S)), Text(std::move(Text)) {}
  llvm::ErrorOr<llvm::vfs::Status> status() override { return S; }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> getBuffer(const llvm::Twine &Name, int64_t,
                                                               bool, bool) override {
    return llvm::MemoryBuffer::getMemBufferCopy(*Text, Name.str());
  }
  std::error_code close() override { return {}; }

private:
  llvm::vfs::Status S;
  std::shared_ptr<const std::string> Text;
};

class RevisionFileSystem : public llvm::vfs::FileSystem {
public:
  RevisionFileSystem(std::string Root, SourceTree &Tree, std::vector<std::string> Allowed,
                     std::shared_ptr<RefusedPaths> Refused, std::shared_ptr<OutsideReads> Reads)
      : Root(std::move(Root)), Tree(Tree), Allowed(std::move(Allowed)), Refused(std::move(Refused)),
        Reads(std::move(Reads)), Real(llvm::vfs::getRealFileSystem()), Cwd(this->Root) {}

  llvm::ErrorOr<llvm::vfs::Status> status(const llvm::Twine &Path) override {
    std::string Raw = absolute(Path), P;
    switch (classify(Raw, P)) {
    case Place::Tree:
      return treeStatus(P);
    case Place::Outside:
      return Real->status(Raw);
    case Place::Refused:
      return std::make_error_code(std::errc::no_such_file_or_directory);
    }
    return std::make_error_code(std::errc::no_such_file_or_directory);
  }

  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>>
  openFileForRead(const llvm::Twine &Path) override {
    std::string Raw = absolute(Path), P;
    Place Where = classify(Raw, P);
    if (Where == Place::Refused)
      return std::make_error_code(std::errc::no_such_file_or_directory);
    if (Where == Place::Outside) {
      if (Reads) {
        llvm::SmallString<256> RealPath;
        if (!llvm::sys::fs::real_path(Raw, RealPath))
          Reads->paths.insert(std::string(RealPath));
      }
      return Real->openFileForRead(Raw);
    }
    {
      llvm::ErrorOr<llvm::vfs::Status> S = treeStatus(P);
      if (!S)
        return S.getError();
      if (!S->isRegularFile())
        return std::make_error_code(std::errc::is_a_directory);
      std::shared_ptr<const std::string> Text = text(P);
      if (!Text)
        return std::make_error_code(std::errc::no_such_file_or_directory);
      return std::make_unique<TreeFile>(*S, Text);
    }
  }

  llvm::vfs::directory_iterator dir_begin(const llvm::Twine &Dir, std::error_code &EC) override {
    std::string Raw = absolute(Dir), P;
    if (classify(Raw, P) == Place::Outside)
      return Real->dir_begin(Raw, EC);
    // Parsing never needs to list a directory of the tree; an empty listing
    // keeps the working tree out of it.
    EC = {};
    return llvm::vfs::directory_iterator();
  }

  std::error_code setCurrentWorkingDirectory(const llvm::Twine &Path) override {
    Cwd = absolute(Path);
    return {};
  }
  llvm::ErrorOr<std::string> getCurrentWorkingDirectory() const override { return Cwd; }

  std::error_code getRealPath(const llvm::Twine &Path, llvm::SmallVectorImpl<char> &Out) override {
    std::string Raw = absolute(Path), P;
    if (classify(Raw, P) == Place::Outside)
      return Real->getRealPath(Raw, Out);
    Out.assign(P.begin(), P.end());
    return {};
  }

private:
  enum class Place { Tree, Outside, Refused };

  // Where a path is read from. Inside the root, `..` is resolved by name
  // (the tree has no links of its own on disk); outside, by the kernel
  // (`/lib/gcc/x/12/../../../../include` is /usr/include when /lib is a
  // link to /usr/lib), and the real path decides. TreePath gets the
  // normalised path for Place::Tree.
  Place classify(const std::string &Raw, std::string &TreePath) {
    llvm::SmallString<256> Lexical(Raw);
    llvm::sys::path::remove_dots(Lexical, /*remove_dot_dot=*/true);
    if (isWithin(Root, Lexical.str())) {
      TreePath = std::string(Lexical);
      return Place::Tree;
    }
    if (ancestorOfAllowed(std::string(Lexical)))
      return Place::Outside; // "/", "/usr": directories Clang looks at
    llvm::SmallString<256> RealPath;
    if (llvm::sys::fs::real_path(Raw, RealPath))
      return Place::Refused; // does not exist: nothing to read either way
    if (isWithin(Root, RealPath.str())) {
      TreePath = std::string(RealPath);
      return Place::Tree;
    }
    if (allowedOutside(std::string(RealPath)))
      return Place::Outside;
    refuse(std::string(RealPath));
    return Place::Refused;
  }

  std::string absolute(const llvm::Twine &Path) const {
    llvm::SmallString<256> P;
    Path.toVector(P);
    if (!llvm::sys::path::is_absolute(P)) {
      llvm::SmallString<256> Abs(Cwd);
      llvm::sys::path::append(Abs, P);
      P = Abs;
    }
    llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/false);
    return std::string(P);
  }

  std::string relative(const std::string &P) const {
    return P.size() == Root.size() ? "" : P.substr(Root.size() + 1);
  }

  llvm::ErrorOr<llvm::vfs::Status> treeStatus(const std::string &P) {
    std::string Rel = relative(P);
    EntryKind K = Rel.empty() ? EntryKind::Directory : Tree.entry(Rel);
    if (K == EntryKind::Missing)
      return std::make_error_code(std::errc::no_such_file_or_directory);
    uint64_t Size = 0;
    if (K == EntryKind::File) {
      std::shared_ptr<const std::string> Text = text(P);
      if (!Text)
        return std::make_error_code(std::errc::no_such_file_or_directory);
      Size = Text->size();
    }
    auto [It, New] = Ids.try_emplace(P, llvm::sys::fs::UniqueID());
    if (New)
      It->second = llvm::vfs::getNextVirtualUniqueID();
    return llvm::vfs::Status(P, It->second, llvm::sys::toTimePoint(0), 0, 0, Size,
                             K == EntryKind::File ? llvm::sys::fs::file_type::regular_file
                                                  : llvm::sys::fs::file_type::directory_file,
                             llvm::sys::fs::all_read);
  }

  std::shared_ptr<const std::string> text(const std::string &P) {
    auto It = Texts.find(P);
    if (It != Texts.end())
      return It->second;
    std::string Error;
    std::optional<std::string> T = Tree.read(relative(P), Error);
    std::shared_ptr<const std::string> Shared =
        T ? std::make_shared<const std::string>(std::move(*T)) : nullptr;
    Texts[P] = Shared;
    return Shared;
  }

  bool allowedOutside(const std::string &P) const {
    for (const std::string &A : Allowed)
      if (isWithin(A, P))
        return true;
    return false;
  }

  // "/", "/usr", ... : Clang looks at the directories above what it reads.
  bool ancestorOfAllowed(const std::string &P) const {
    if (isWithin(P, Root))
      return true;
    for (const std::string &A : Allowed)
      if (isWithin(P, A))
        return true;
    return false;
  }

  void refuse(const std::string &P) {
    if (Refused)
      Refused->paths.insert(P);
  }

  std::string Root;
  SourceTree &Tree;
  std::vector<std::string> Allowed;
  std::shared_ptr<RefusedPaths> Refused;
  std::shared_ptr<OutsideReads> Reads;
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Real;
  std::string Cwd;
  std::map<std::string, llvm::sys::fs::UniqueID> Ids;
  std::map<std::string, std::shared_ptr<const std::string>> Texts;
};

} // namespace

llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
makeRevisionFileSystem(std::string Root, SourceTree &Tree, std::vector<std::string> AllowedOutside,
                       std::shared_ptr<RefusedPaths> Refused, std::shared_ptr<OutsideReads> Reads) {
  return llvm::makeIntrusiveRefCnt<RevisionFileSystem>(
      std::move(Root), Tree, std::move(AllowedOutside), std::move(Refused), std::move(Reads));
}

std::vector<std::string> defaultAllowedOutside() {
  // The driver also reads the distribution's release files to pick defaults.
  return {"/usr",
          "/opt",
          "/lib",
          "/lib64",
          "/etc/os-release",
          "/etc/lsb-release",
          "/etc/debian_version",
          "/etc/redhat-release",
          "/etc/SuSE-release",
          "/etc/gentoo-release",
          frontend::defaultResourceDir(),
          frontend::annotationsIncludeDir()};
}

} // namespace ave::review
