// The safe in-place update (support/FileUpdate.h): what a user's file and
// its backups look like after every way an update can go wrong.

#include "ave/support/FileUpdate.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <csignal>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

using namespace ave::support;

class FileUpdateTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> Dir;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("ave-file-update-test", Dir));
    Root = std::string(Dir);
    File = Root + "/k.hip";
    write(File, "old\n");
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Root); }

  static void write(const std::string &Path, const std::string &Text) {
    std::error_code EC;
    llvm::raw_fd_ostream(Path, EC) << Text;
  }
  static std::string read(const std::string &Path) {
    auto B = llvm::MemoryBuffer::getFile(Path);
    return B ? (*B)->getBuffer().str() : "<missing>";
  }
  static unsigned mode(const std::string &Path) {
    struct stat St;
    return lstat(Path.c_str(), &St) == 0 ? St.st_mode & 07777 : 0;
  }
  // The names in Root, sorted: nothing but what a test expects is left.
  std::vector<std::string> entries() const {
    std::vector<std::string> Names;
    std::error_code EC;
    for (llvm::sys::fs::directory_iterator It(Root, EC), End; It != End && !EC; It.increment(EC))
      Names.push_back(It->path().substr(Root.size() + 1));
    std::sort(Names.begin(), Names.end());
    return Names;
  }
  std::optional<FileUpdate> open(const UpdateOptions &Opts = {}) {
    std::string Error;
    std::optional<FileUpdate> U = FileUpdate::open(File, Opts, Error);
    LastError = Error;
    return U;
  }

  std::string Root, File, LastError;
};

using Names = std::vector<std::string>;

TEST_F(FileUpdateTest, ReplacesTheFileAndKeepsTheOriginal) {
  std::optional<FileUpdate> U = open();
  ASSERT_TRUE(U) << LastError;
  EXPECT_EQ(U->text(), "old\n");
  EXPECT_EQ(U->commit("new\n"), "");
  EXPECT_EQ(read(File), "new\n");
  EXPECT_EQ(U->backupPath(), File + ".orig");
  EXPECT_EQ(read(File + ".orig"), "old\n");
  EXPECT_EQ(entries(), (Names{"k.hip", "k.hip.orig"}));
}

TEST_F(FileUpdateTest, NeverOverwritesABackup) {
  write(File + ".orig", "first original\n");
  write(File + ".orig.1", "second original\n");
  std::optional<FileUpdate> U = open();
  ASSERT_TRUE(U);
  EXPECT_EQ(U->commit("new\n"), "");
  EXPECT_EQ(U->backupPath(), File + ".orig.2");
  EXPECT_EQ(read(File + ".orig"), "first original\n");
  EXPECT_EQ(read(File + ".orig.1"), "second original\n");
  EXPECT_EQ(read(File + ".orig.2"), "old\n");
}

TEST_F(FileUpdateTest, NoBackupWhenNotAsked) {
  std::optional<FileUpdate> U = open({/*backup=*/false});
  ASSERT_TRUE(U);
  EXPECT_EQ(U->commit("new\n"), "");
  EXPECT_EQ(entries(), Names{"k.hip"});
}

TEST_F(FileUpdateTest, AnEditAfterReadingIsNeverOverwritten) {
  std::optional<FileUpdate> U = open();
  ASSERT_TRUE(U);
  // Same size, so only the time stamp and the content tell.
  write(File, "odd\n");
  std::string Error = U->commit("new\n");
  EXPECT_NE(Error.find("changed since it was read"), std::string::npos) << Error;
  EXPECT_EQ(read(File), "odd\n");
  EXPECT_EQ(entries(), Names{"k.hip"}); // no backup, no temporary file
}

TEST_F(FileUpdateTest, AReplacedFileIsNeverOverwritten) {
  std::optional<FileUpdate> U = open();
  ASSERT_TRUE(U);
  write(Root + "/other", "old\n");
  ASSERT_EQ(rename((Root + "/other").c_str(), File.c_str()), 0); // an editor's save
  EXPECT_NE(U->commit("new\n"), "");
  EXPECT_EQ(read(File), "old\n");
}

TEST_F(FileUpdateTest, ASecondUpdateOfTheSameFileIsRefused) {
  std::optional<FileUpdate> First = open();
  ASSERT_TRUE(First);
  std::optional<FileUpdate> Second = open();
  EXPECT_FALSE(Second);
  EXPECT_NE(LastError.find("locked"), std::string::npos) << LastError;
  EXPECT_EQ(First->commit("new\n"), "");
  First.reset(); // the lock goes with it
  EXPECT_TRUE(open());
}

TEST_F(FileUpdateTest, KeepsTheModeOfFileAndBackup) {
  for (unsigned Mode : {0600u, 0755u}) {
    ASSERT_EQ(chmod(File.c_str(), Mode), 0);
    std::optional<FileUpdate> U = open();
    ASSERT_TRUE(U);
    ASSERT_EQ(U->commit("new\n"), "");
    EXPECT_EQ(mode(File), Mode);
    EXPECT_EQ(mode(U->backupPath()), Mode);
  }
}

TEST_F(FileUpdateTest, ReadOnlyOnlyWithForce) {
  ASSERT_EQ(chmod(File.c_str(), 0444), 0);
  EXPECT_FALSE(open());
  EXPECT_NE(LastError.find("is read-only (mode 444)"), std::string::npos) << LastError;
  std::optional<FileUpdate> U = open({/*backup=*/true, /*force=*/true});
  ASSERT_TRUE(U);
  ASSERT_EQ(U->commit("new\n"), "");
  EXPECT_EQ(read(File), "new\n");
  EXPECT_EQ(mode(File), 0444u);
}

TEST_F(FileUpdateTest, ASymlinkStaysALinkAndItsTargetIsPatched) {
  std::string Link = Root + "/link.hip";
  ASSERT_EQ(symlink("k.hip", Link.c_str()), 0);
  std::string Error;
  std::optional<FileUpdate> U = FileUpdate::open(Link, {}, Error);
  ASSERT_TRUE(U) << Error;
  EXPECT_EQ(U->target(), File);
  ASSERT_EQ(U->commit("new\n"), "");
  struct stat St;
  ASSERT_EQ(lstat(Link.c_str(), &St), 0);
  EXPECT_TRUE(S_ISLNK(St.st_mode));
  EXPECT_EQ(read(File), "new\n");
  EXPECT_EQ(read(Link + ".orig"), "old\n");
}

TEST_F(FileUpdateTest, AFullDiskLeavesNoEmptyBackupAndTheFileIntact) {
  write(File, std::string(8192, 'x'));
  std::optional<FileUpdate> U = open();
  ASSERT_TRUE(U);
  // Writes past 4 KiB fail (EFBIG), as on a full disk.
  struct rlimit Old, Small;
  ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &Old), 0);
  Small = Old;
  Small.rlim_cur = 4096;
  auto OldHandler = signal(SIGXFSZ, SIG_IGN);
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &Small), 0);
  // The new text does not fit; then it does, but the backup does not.
  std::string TooBig = U->commit(std::string(8192, 'y'));
  std::string NoBackup = U->commit("small\n");
  setrlimit(RLIMIT_FSIZE, &Old);
  signal(SIGXFSZ, OldHandler);
  EXPECT_NE(TooBig, "");
  EXPECT_NE(NoBackup.find("backup"), std::string::npos) << NoBackup;
  EXPECT_EQ(read(File), std::string(8192, 'x'));
  EXPECT_EQ(entries(), Names{"k.hip"});
}

TEST(WriteFileSafely, NewAndReplacedFilesKeepModeAndLinks) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("ave-write-test", Dir));
  std::string Out = std::string(Dir) + "/out.hip", Link = std::string(Dir) + "/link.hip";
  EXPECT_EQ(writeFileSafely(Out, "a\n"), "");
  ASSERT_EQ(chmod(Out.c_str(), 0640), 0);
  ASSERT_EQ(symlink("out.hip", Link.c_str()), 0);
  EXPECT_EQ(writeFileSafely(Link, "b\n"), "");
  struct stat St;
  ASSERT_EQ(lstat(Link.c_str(), &St), 0);
  EXPECT_TRUE(S_ISLNK(St.st_mode));
  ASSERT_EQ(stat(Out.c_str(), &St), 0);
  EXPECT_EQ(St.st_mode & 07777, 0640u);
  EXPECT_NE(writeFileSafely(std::string(Dir) + "/missing/dir/k.hip", "x"), "");
  EXPECT_NE(writeFileSafely("/dev/null", "x"), ""); // not a regular file
  llvm::sys::fs::remove_directories(Dir);
}

} // namespace
