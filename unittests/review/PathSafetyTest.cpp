// Path checks for untrusted changes: relative paths only, no `..`, and
// symlinks resolved by hand so that a link out of the root (live or
// dangling, to a file or a directory) is refused while one inside is followed.

#include "ave/review/PathSafety.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>
#include <unistd.h>

namespace ave::review {
namespace {

TEST(PathSafety, RelativePathProblems) {
  EXPECT_FALSE(relativePathProblem("kernels/gemm.hip"));
  EXPECT_FALSE(relativePathProblem("./kernels//gemm.hip"));
  EXPECT_TRUE(relativePathProblem(""));
  EXPECT_TRUE(relativePathProblem("/etc/passwd"));
  EXPECT_TRUE(relativePathProblem("../../etc/passwd"));
  EXPECT_TRUE(relativePathProblem("kernels/../../x"));
  EXPECT_TRUE(relativePathProblem("a\\..\\b"));
  EXPECT_TRUE(relativePathProblem(std::string_view("a\0b", 3)));
  EXPECT_TRUE(relativePathProblem("./"));
  // `..` inside a name is a name.
  EXPECT_FALSE(relativePathProblem("a..b/c.."));
  EXPECT_EQ(normalizeRelativePath("./a//b/./c"), "a/b/c");
}

TEST(PathSafety, IsWithinComparesWholeComponents) {
  EXPECT_TRUE(isWithin("/repo", "/repo"));
  EXPECT_TRUE(isWithin("/repo", "/repo/a"));
  EXPECT_FALSE(isWithin("/repo", "/repository/a"));
  EXPECT_FALSE(isWithin("/repo", "/"));
  EXPECT_EQ(repositoryPath("/repo", "/repo/a/../b.h"), "b.h");
  EXPECT_EQ(repositoryPath("/repo", "/usr/include/x.h"), "/usr/include/x.h");
}

class ResolveTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> Dir;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("ave-path-safety", Dir));
    std::string Error;
    Top = *canonicalRoot(std::string(Dir), Error);
    Root = Top + "/root";
    ASSERT_FALSE(llvm::sys::fs::create_directories(Root + "/sub"));
    ASSERT_FALSE(llvm::sys::fs::create_directories(Top + "/outside"));
    write(Root + "/sub/file.hip");
    write(Top + "/outside/secret");
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Top); }
  static void write(const std::string &Path) {
    FILE *F = fopen(Path.c_str(), "w");
    ASSERT_NE(F, nullptr);
    fputs("x\n", F);
    fclose(F);
  }
  static void link(const std::string &Target, const std::string &At) {
    ASSERT_EQ(symlink(Target.c_str(), At.c_str()), 0);
  }
  std::string Top, Root;
};

TEST_F(ResolveTest, PlainAndMissingFiles) {
  ResolvedPath R = resolveUnderRoot(Root, "sub/file.hip");
  ASSERT_TRUE(R.ok()) << R.error;
  EXPECT_TRUE(R.exists);
  EXPECT_EQ(R.path, Root + "/sub/file.hip");
  ResolvedPath New = resolveUnderRoot(Root, "new/dir/file.hip");
  ASSERT_TRUE(New.ok());
  EXPECT_FALSE(New.exists);
}

TEST_F(ResolveTest, LinksInsideAreFollowed) {
  link("sub/file.hip", Root + "/alias.hip");
  link(Root + "/sub", Root + "/abs-sub");
  link("../sub", Root + "/sub/up");
  ResolvedPath A = resolveUnderRoot(Root, "alias.hip");
  ASSERT_TRUE(A.ok()) << A.error;
  EXPECT_EQ(A.path, Root + "/sub/file.hip");
  ResolvedPath B = resolveUnderRoot(Root, "abs-sub/file.hip");
  ASSERT_TRUE(B.ok()) << B.error;
  EXPECT_EQ(B.path, Root + "/sub/file.hip");
  ResolvedPath C = resolveUnderRoot(Root, "sub/up/up/file.hip");
  ASSERT_TRUE(C.ok()) << C.error;
  EXPECT_EQ(C.path, Root + "/sub/file.hip");
}

TEST_F(ResolveTest, LinksOutsideAreRefused) {
  link(Top + "/outside/secret", Root + "/abs.hip");
  link("../outside/secret", Root + "/rel.hip");
  link("../outside", Root + "/dir");
  link(Top + "/outside/missing", Root + "/dangling.hip");
  link("loop", Root + "/loop");
  for (const char *P : {"abs.hip", "rel.hip", "dir/secret", "dir/anything", "dangling.hip"}) {
    ResolvedPath R = resolveUnderRoot(Root, P);
    EXPECT_FALSE(R.ok()) << P;
    EXPECT_TRUE(R.path.empty()) << P;
  }
  EXPECT_FALSE(resolveUnderRoot(Root, "loop").ok());
  EXPECT_FALSE(resolveUnderRoot(Root, "../outside/secret").ok());
}

} // namespace
} // namespace ave::review
