// One compile-database path for every command: -p, the nearest database
// above the file, `--` flags, and files the database does not list.

#include "ave/frontend/CompileCommands.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <gtest/gtest.h>

namespace {

using namespace ave::frontend;

class Project : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> Dir;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("ave-ccdb-test", Dir));
    Root = std::string(Dir);
    llvm::sys::fs::create_directories(Root + "/src/deeper");
    write("src/k.hip", "");
    write("src/unlisted.hip", "");
    write("src/deeper/far.hip", "");
    write("compile_commands.json",
          R"([{"directory": ")" + Root +
              R"(", "arguments": ["hipcc", "-x", "hip", "--offload-arch=gfx90a", "-I", "include",
                 "-D", "TILE=16", "-c", "src/k.hip", "-o", "k.o"], "file": "src/k.hip"}])");
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Root); }
  void write(const std::string &Rel, const std::string &Text) {
    std::error_code EC;
    llvm::raw_fd_ostream(Root + "/" + Rel, EC) << Text;
  }
  static bool has(const std::vector<std::string> &Args, const std::string &A) {
    return std::find(Args.begin(), Args.end(), A) != Args.end();
  }
  std::string Root;
};

TEST_F(Project, ListedFileWithDashP) {
  CompileCommands C(Root);
  std::string Error;
  std::optional<FileFlags> F = C.flagsFor(Root + "/src/k.hip", {"-DEXTRA=1"}, Error);
  ASSERT_TRUE(F) << Error;
  EXPECT_EQ(F->origin, FlagsOrigin::Database);
  EXPECT_EQ(F->user.directory, Root);
  EXPECT_TRUE(has(F->user.args, "-I" + Root + "/include"));
  EXPECT_TRUE(has(F->user.args, "-DTILE=16"));
  EXPECT_TRUE(has(F->user.args, "-DEXTRA=1"));
  EXPECT_FALSE(has(F->user.args, "k.o"));
}

TEST_F(Project, UnlistedFileBorrowsItsNeighboursFlags) {
  CompileCommands C(Root);
  std::string Error;
  std::optional<FileFlags> F = C.flagsFor(Root + "/src/unlisted.hip", {"-DEXTRA=1"}, Error);
  ASSERT_TRUE(F) << Error;
  EXPECT_EQ(F->origin, FlagsOrigin::Borrowed);
  EXPECT_NE(F->note.find("src/k.hip"), std::string::npos) << F->note;
  EXPECT_TRUE(has(F->user.args, "-DTILE=16"));
  // --extra-arg lands before the `--` of the borrowed command, not after it.
  EXPECT_TRUE(has(F->user.args, "-DEXTRA=1"));
  for (const std::string &A : F->user.args)
    EXPECT_NE(A, "--");
}

TEST_F(Project, FoundAboveTheFileWithoutDashP) {
  CompileCommands C("");
  std::string Error;
  std::optional<FileFlags> F = C.flagsFor(Root + "/src/deeper/far.hip", {}, Error);
  ASSERT_TRUE(F) << Error;
  EXPECT_EQ(F->database, Root);
  EXPECT_TRUE(has(F->user.args, "-DTILE=16"));
}

TEST_F(Project, EmptyDatabaseGivesDefaultsAndANote) {
  llvm::sys::fs::create_directories(Root + "/empty");
  write("empty/compile_commands.json", "[]");
  CompileCommands C(Root + "/empty");
  std::string Error;
  std::optional<FileFlags> F = C.flagsFor(Root + "/src/k.hip", {"-DX"}, Error);
  ASSERT_TRUE(F) << Error;
  EXPECT_EQ(F->origin, FlagsOrigin::Unlisted);
  EXPECT_FALSE(F->note.empty());
  EXPECT_EQ(F->user.args, std::vector<std::string>{"-DX"});
}

TEST_F(Project, DoubleDashFlagsReplaceTheDatabase) {
  CompileCommands C(Root, std::vector<std::string>{"-D", "ONLY=1"});
  std::string Error;
  std::optional<FileFlags> F = C.flagsFor(Root + "/src/k.hip", {}, Error);
  ASSERT_TRUE(F) << Error;
  EXPECT_EQ(F->origin, FlagsOrigin::Fixed);
  EXPECT_EQ(F->user.args, std::vector<std::string>{"-DONLY=1"});
}

TEST_F(Project, MissingDatabaseIsAnError) {
  CompileCommands C(Root + "/src");
  std::string Error;
  EXPECT_FALSE(C.flagsFor(Root + "/src/k.hip", {}, Error));
  EXPECT_NE(Error.find("cannot load compile_commands.json"), std::string::npos) << Error;
}

} // namespace
