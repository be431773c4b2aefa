// The unified-diff parser and in-memory apply: git's format (renames,
// modes, quoted paths, binary markers), plain `diff -u`, and malformed input.

#include "ave/review/UnifiedPatch.h"

#include <gtest/gtest.h>

namespace ave::review {
namespace {

TEST(UnifiedPatch, GitDiffWithRenameAndHunks) {
  const char *Text = "commit message line\n"
                     "diff --git a/src/old.hip b/src/new.hip\n"
                     "similarity index 90%\n"
                     "rename from src/old.hip\n"
                     "rename to src/new.hip\n"
                     "index 1111111..2222222 100644\n"
                     "--- a/src/old.hip\n"
                     "+++ b/src/new.hip\n"
                     "@@ -3,2 +3,3 @@ void f()\n"
                     " a\n"
                     "-b\n"
                     "+c\n"
                     "+d\n";
  ParsedPatch P = parseUnifiedPatch(Text);
  ASSERT_TRUE(P.ok()) << P.error;
  ASSERT_EQ(P.files.size(), 1u);
  const FilePatch &F = P.files[0];
  EXPECT_EQ(F.kind, FileChangeKind::Renamed);
  EXPECT_EQ(F.oldPath, "src/old.hip");
  EXPECT_EQ(F.newPath, "src/new.hip");
  ASSERT_EQ(F.hunks.size(), 1u);
  EXPECT_EQ(F.hunks[0].oldStart, 3u);
  EXPECT_EQ(F.hunks[0].newCount, 3u);
  EXPECT_EQ(F.hunks[0].lines.size(), 4u);
}

TEST(UnifiedPatch, AddedDeletedAndPureRename) {
  const char *Text = "diff --git a/n.hip b/n.hip\n"
                     "new file mode 100644\n"
                     "--- /dev/null\n"
                     "+++ b/n.hip\n"
                     "@@ -0,0 +1 @@\n"
                     "+x\n"
                     "diff --git a/d.h b/d.h\n"
                     "deleted file mode 100644\n"
                     "--- a/d.h\n"
                     "+++ /dev/null\n"
                     "@@ -1 +0,0 @@\n"
                     "-y\n"
                     "diff --git a/r 1.hip b/r 2.hip\n"
                     "similarity index 100%\n"
                     "rename from r 1.hip\n"
                     "rename to r 2.hip\n";
  ParsedPatch P = parseUnifiedPatch(Text);
  ASSERT_TRUE(P.ok()) << P.error;
  ASSERT_EQ(P.files.size(), 3u);
  EXPECT_EQ(P.files[0].kind, FileChangeKind::Added);
  EXPECT_EQ(P.files[0].oldPath, "");
  EXPECT_EQ(P.files[0].newPath, "n.hip");
  EXPECT_EQ(P.files[1].kind, FileChangeKind::Deleted);
  EXPECT_EQ(P.files[1].oldPath, "d.h");
  EXPECT_EQ(P.files[1].newPath, "");
  EXPECT_EQ(P.files[2].kind, FileChangeKind::Renamed);
  EXPECT_EQ(P.files[2].oldPath, "r 1.hip");
  EXPECT_EQ(P.files[2].newPath, "r 2.hip");
  EXPECT_TRUE(P.files[2].hunks.empty());
}

TEST(UnifiedPatch, QuotedPathsAreUnquoted) {
  const char *Text = "diff --git \"a/t\\303\\251st.hip\" \"b/t\\303\\251st.hip\"\n"
                     "--- \"a/t\\303\\251st.hip\"\n"
                     "+++ \"b/t\\303\\251st.hip\"\n"
                     "@@ -1 +1 @@\n"
                     "-a\n"
                     "+b\n";
  ParsedPatch P = parseUnifiedPatch(Text);
  ASSERT_TRUE(P.ok()) << P.error;
  ASSERT_EQ(P.files.size(), 1u);
  EXPECT_EQ(P.files[0].newPath, "t\xc3\xa9st.hip");
}

TEST(UnifiedPatch, PlainDiffKeepsPathsAndDropsTimestamps) {
  const char *Text = "--- k.hip\t2024-01-01 10:00:00\n"
                     "+++ k.hip\t2024-01-02 10:00:00\n"
                     "@@ -1,2 +1,2 @@\n"
                     " a\n"
                     "-b\n"
                     "+c\n";
  ParsedPatch P = parseUnifiedPatch(Text);
  ASSERT_TRUE(P.ok()) << P.error;
  ASSERT_EQ(P.files.size(), 1u);
  EXPECT_EQ(P.files[0].oldPath, "k.hip");
  EXPECT_EQ(P.files[0].newPath, "k.hip");
}

TEST(UnifiedPatch, StripOverridesDetection) {
  const char *Text = "--- x/src/k.hip\n+++ y/src/k.hip\n@@ -1 +1 @@\n-a\n+b\n";
  PatchParseOptions O;
  O.strip = 1;
  ParsedPatch P = parseUnifiedPatch(Text, O);
  ASSERT_TRUE(P.ok()) << P.error;
  EXPECT_EQ(P.files[0].newPath, "src/k.hip");
  O.strip = 5;
  EXPECT_FALSE(parseUnifiedPatch(Text, O).ok());
}

TEST(UnifiedPatch, TruncatedHunkIsAnError) {
  const char *Text = "--- a/k.hip\n+++ b/k.hip\n@@ -1,3 +1,3 @@\n a\n-b\n";
  ParsedPatch P = parseUnifiedPatch(Text);
  EXPECT_FALSE(P.ok());
  EXPECT_NE(P.error.find("ends early"), std::string::npos);
}

TEST(UnifiedPatch, HunkBeforeHeaderIsAnError) {
  EXPECT_FALSE(parseUnifiedPatch("@@ -1 +1 @@\n-a\n+b\n").ok());
}

TEST(UnifiedPatch, ApplyFindsMovedHunkAndUpdatesPositions) {
  std::string Old = "0\n1\n2\na\nb\nc\n";
  const char *Text = "--- a/k\n+++ b/k\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n";
  ParsedPatch P = parseUnifiedPatch(Text);
  ASSERT_TRUE(P.ok());
  AppliedPatch A = applyFilePatch(Old, P.files[0]);
  ASSERT_TRUE(A.ok()) << A.error;
  EXPECT_EQ(A.text, "0\n1\n2\na\nB\nc\n");
  EXPECT_EQ(P.files[0].hunks[0].oldStart, 4u);
  EXPECT_EQ(P.files[0].hunks[0].newStart, 4u);
}

TEST(UnifiedPatch, ApplyRefusesWhatIsNotThere) {
  const char *Text = "--- a/k\n+++ b/k\n@@ -1,2 +1,2 @@\n a\n-zzz\n+b\n";
  ParsedPatch P = parseUnifiedPatch(Text);
  ASSERT_TRUE(P.ok());
  EXPECT_FALSE(applyFilePatch("a\nb\n", P.files[0]).ok());
}

TEST(UnifiedPatch, ApplyHonoursMissingNewlineMarkers) {
  const char *Text = "--- a/k\n+++ b/k\n@@ -1 +1 @@\n-a\n+b\n\\ No newline at end of file\n";
  ParsedPatch P = parseUnifiedPatch(Text);
  ASSERT_TRUE(P.ok()) << P.error;
  AppliedPatch A = applyFilePatch("a\n", P.files[0]);
  ASSERT_TRUE(A.ok()) << A.error;
  EXPECT_EQ(A.text, "b");
}

TEST(UnifiedPatch, ApplyPureInsertionWithoutContext) {
  const char *Text = "--- a/k\n+++ b/k\n@@ -2,0 +3,2 @@\n+x\n+y\n";
  ParsedPatch P = parseUnifiedPatch(Text);
  ASSERT_TRUE(P.ok()) << P.error;
  AppliedPatch A = applyFilePatch("1\n2\n3\n", P.files[0]);
  ASSERT_TRUE(A.ok()) << A.error;
  EXPECT_EQ(A.text, "1\n2\nx\ny\n3\n");
}

} // namespace
} // namespace ave::review
