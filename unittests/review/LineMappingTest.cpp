// Line mappings and attribution: unchanged lines keep their identity
// however far unrelated hunks move them; results on changed lines belong to
// their change; others are attributed to the nearest change.

#include "ave/review/LineMapping.h"

#include "ave/review/ChangeMap.h"
#include "ave/review/UnifiedPatch.h"

#include <gtest/gtest.h>

namespace ave::review {
namespace {

FilePatch patchOf(const char *Text) {
  ParsedPatch P = parseUnifiedPatch(Text);
  EXPECT_TRUE(P.ok()) << P.error;
  return P.files.at(0);
}

// Old: 10 lines. Two lines inserted after line 2, line 6 rewritten as two,
// line 9 deleted (git -U0 style hunks).
const char *ZeroContext = "--- a/k.hip\n+++ b/k.hip\n"
                          "@@ -2,0 +3,2 @@\n+i1\n+i2\n"
                          "@@ -6 +8,2 @@\n-six\n+six a\n+six b\n"
                          "@@ -9 +11,0 @@\n-nine\n";

TEST(LineMapping, UnchangedLinesMove) {
  LineMapping M(patchOf(ZeroContext).hunks);
  EXPECT_EQ(M.toHead(1), 1u);
  EXPECT_EQ(M.toHead(2), 2u);
  EXPECT_EQ(M.toHead(3), 5u);
  EXPECT_EQ(M.toHead(5), 7u);
  EXPECT_FALSE(M.toHead(6));
  EXPECT_EQ(M.toHead(7), 10u);
  EXPECT_FALSE(M.toHead(9));
  EXPECT_EQ(M.toHead(8), 11u);
  EXPECT_EQ(M.toHead(10), 12u);
  EXPECT_EQ(M.toBase(12), 10u);
  EXPECT_FALSE(M.toBase(3));
  EXPECT_FALSE(M.toBase(9));
}

TEST(LineMapping, ContextHunksSplitIntoBlocks) {
  // One hunk with context and two separate changes inside it.
  LineMapping M(patchOf("--- a/k\n+++ b/k\n@@ -1,5 +1,5 @@\n a\n-b\n+B\n c\n-d\n+D\n e\n").hunks);
  ASSERT_EQ(M.blocks().size(), 2u);
  EXPECT_EQ(M.toHead(3), 3u);
  EXPECT_FALSE(M.toHead(2));
  EXPECT_FALSE(M.toHead(4));
}

TEST(LineMapping, NearestChange) {
  LineMapping M(patchOf(ZeroContext).hunks);
  EXPECT_NE(M.blockAtHead(3), nullptr);
  EXPECT_EQ(M.blockAtHead(5), nullptr);
  const ChangeBlock *Near = M.nearestBlock(7);
  ASSERT_NE(Near, nullptr);
  EXPECT_EQ(Near->newStart, 8u); // lines 8-9 are one away, 3-4 three away
  // A tie goes to the earlier change.
  EXPECT_EQ(M.nearestBlock(6)->newStart, 3u);
  // The deletion of old line 9 sits between head lines 11 and 12.
  const ChangeBlock *Deletion = M.nearestBlock(13);
  ASSERT_NE(Deletion, nullptr);
  EXPECT_EQ(Deletion->newCount, 0u);
  EXPECT_EQ(LineMapping::headAnchor(*Deletion), 12u);
}

TEST(ChangeMap, RenamesAndAttribution) {
  ParsedPatch P = parseUnifiedPatch("diff --git a/old.hip b/new.hip\nrename from old.hip\n"
                                    "rename to new.hip\n--- a/old.hip\n+++ b/new.hip\n"
                                    "@@ -3 +3 @@\n-x\n+y\n"
                                    "--- a/tile.h\n+++ b/tile.h\n@@ -2 +2 @@\n-a\n+b\n");
  ASSERT_TRUE(P.ok()) << P.error;
  ChangeMap M(P.files);
  EXPECT_EQ(M.headPathOf("old.hip"), std::optional<std::string>("new.hip"));
  EXPECT_EQ(M.basePathOf("new.hip"), std::optional<std::string>("old.hip"));
  std::optional<FilePosition> H = M.toHead({"old.hip", 7, 4});
  ASSERT_TRUE(H);
  EXPECT_EQ(H->path, "new.hip");
  EXPECT_EQ(H->line, 7u);
  EXPECT_FALSE(M.toHead({"old.hip", 3, 1}));

  Attribution On = M.attribute({"new.hip", 3, 1}, {});
  EXPECT_TRUE(On.onChangedLine);
  Attribution Near = M.attribute({"new.hip", 9, 1}, {});
  EXPECT_FALSE(Near.onChangedLine);
  EXPECT_EQ(Near.firstLine, 3u);
  EXPECT_NE(Near.note.find("nearest change is line 3"), std::string::npos);
  // An unchanged file is attributed to a changed header it includes.
  Attribution Header = M.attribute({"user.hip", 20, 1}, {"tile.h"});
  EXPECT_EQ(Header.path, "tile.h");
  EXPECT_NE(Header.note.find("includes the changed file tile.h"), std::string::npos);
  Attribution None = M.attribute({"user.hip", 20, 1}, {});
  EXPECT_TRUE(None.path.empty());
}

} // namespace
} // namespace ave::review
