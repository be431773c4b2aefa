// The file system a version is parsed through: repository paths come from
// the version (never the disk), paths outside the root only from allowed
// directories, with `..` resolved as the kernel would.

#include "ave/review/RevisionFileSystem.h"

#include "ave/review/PathSafety.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>
#include <unistd.h>

namespace ave::review {
namespace {

class FakeTree : public SourceTree {
public:
  std::map<std::string, std::string> files;
  std::string label() const override { return "fake"; }
  EntryKind entry(const std::string &Path) override {
    if (files.count(Path))
      return EntryKind::File;
    for (const auto &[P, T] : files)
      if (P.rfind(Path + "/", 0) == 0)
        return EntryKind::Directory;
    return EntryKind::Missing;
  }
  std::optional<std::string> read(const std::string &Path, std::string &Error) override {
    auto It = files.find(Path);
    if (It == files.end()) {
      Error = "missing";
      return std::nullopt;
    }
    return It->second;
  }
  std::optional<std::string> pathProblem(const std::string &) override { return std::nullopt; }
  std::vector<std::string> filesMentioning(const std::string &,
                                           const std::vector<std::string> &) override {
    return {};
  }
};

class RevisionFS : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> Dir;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("ave-revision-fs", Dir));
    std::string Error;
    Top = *canonicalRoot(std::string(Dir), Error);
    Root = Top + "/repo";
    for (const char *D : {"/repo/kernels", "/allowed/inc", "/denied"})
      ASSERT_FALSE(llvm::sys::fs::create_directories(Top + D));
    write(Top + "/repo/kernels/k.hip", "on disk");
    write(Top + "/allowed/inc/x.h", "allowed");
    write(Top + "/denied/secret", "secret");
    ASSERT_EQ(symlink((Top + "/allowed").c_str(), (Top + "/link").c_str()), 0);
    Tree.files["kernels/k.hip"] = "from the revision";
    Tree.files["kernels/tile.h"] = "header";
    Refused = std::make_shared<RefusedPaths>();
    FS = makeRevisionFileSystem(Root, Tree, {Top + "/allowed"}, Refused);
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Top); }
  static void write(const std::string &Path, const char *Text) {
    FILE *F = fopen(Path.c_str(), "w");
    ASSERT_NE(F, nullptr);
    fputs(Text, F);
    fclose(F);
  }
  std::string read(const std::string &Path) {
    auto B = FS->getBufferForFile(Path);
    return B ? (*B)->getBuffer().str() : "<" + B.getError().message() + ">";
  }
  std::string Top, Root;
  FakeTree Tree;
  std::shared_ptr<RefusedPaths> Refused;
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS;
};

TEST_F(RevisionFS, RepositoryPathsComeFromTheVersion) {
  EXPECT_EQ(read(Root + "/kernels/k.hip"), "from the revision");
  EXPECT_EQ(read(Root + "/kernels/../kernels/tile.h"), "header");
  ASSERT_FALSE(FS->setCurrentWorkingDirectory(Root + "/kernels"));
  EXPECT_EQ(read("tile.h"), "header");
  EXPECT_FALSE(FS->status(Root + "/kernels/missing.h"));
  auto Dir = FS->status(Root + "/kernels");
  ASSERT_TRUE(Dir);
  EXPECT_TRUE(Dir->isDirectory());
  // One identity per path.
  EXPECT_EQ(FS->status(Root + "/kernels/k.hip")->getUniqueID(),
            FS->status(Root + "/kernels/k.hip")->getUniqueID());
}

TEST_F(RevisionFS, OutsideOnlyAllowedDirectories) {
  EXPECT_EQ(read(Top + "/allowed/inc/x.h"), "allowed");
  // Through a link, `..` is the kernel's: link/inc/.. is allowed/.
  EXPECT_EQ(read(Top + "/link/inc/../inc/x.h"), "allowed");
  EXPECT_NE(read(Top + "/denied/secret"), "secret");
  EXPECT_NE(read(Root + "/../denied/secret"), "secret");
  EXPECT_EQ(Refused->paths.count(Top + "/denied/secret"), 1u);
  EXPECT_FALSE(FS->status(Top + "/denied/secret"));
}

} // namespace
} // namespace ave::review
