// Pairing base and head results through the line mapping.

#include "ave/review/ResultMatching.h"

#include <gtest/gtest.h>

namespace ave::review {
namespace {

ChangeMap mapOf(const char *Text) {
  ParsedPatch P = parseUnifiedPatch(Text);
  EXPECT_TRUE(P.ok()) << P.error;
  return ChangeMap(P.files);
}

// Four lines inserted at the top; line 10 rewritten.
const char *Patch = "--- a/k.hip\n+++ b/k.hip\n@@ -0,0 +1,4 @@\n+a\n+b\n+c\n+d\n"
                    "@@ -10 +14 @@\n-old\n+new\n";

TEST(ResultMatching, MovedLinesKeepIdentity) {
  ChangeMap M = mapOf(Patch);
  std::vector<MatchItem> Base{{"g", {"k.hip", 5, 3}, "x"}, {"g", {"k.hip", 7, 1}, "y"}};
  std::vector<MatchItem> Head{{"g", {"k.hip", 11, 1}, "y"}, {"g", {"k.hip", 9, 3}, "x"}};
  auto Pairs = matchItems(Base, Head, M, /*UseColumn=*/true);
  ASSERT_EQ(Pairs.size(), 2u);
  EXPECT_EQ(Pairs[0], std::make_pair(0, 1));
  EXPECT_EQ(Pairs[1], std::make_pair(1, 0));
}

TEST(ResultMatching, SameLineDifferentTextStillPairsByPlace) {
  ChangeMap M = mapOf(Patch);
  // Same kind at the same place, text changed (a term printed differently).
  std::vector<MatchItem> Base{{"g", {"k.hip", 5, 3}, "k0 + k"}};
  std::vector<MatchItem> Head{{"g", {"k.hip", 9, 3}, "k + k0"}};
  auto Pairs = matchItems(Base, Head, M, true);
  ASSERT_EQ(Pairs.size(), 1u);
  EXPECT_EQ(Pairs[0], std::make_pair(0, 0));
}

TEST(ResultMatching, RewrittenLinePairsInsideItsChange) {
  ChangeMap M = mapOf(Patch);
  std::vector<MatchItem> Base{{"g", {"k.hip", 10, 2}, "a"}, {"h", {"k.hip", 10, 2}, "b"}};
  std::vector<MatchItem> Head{{"h", {"k.hip", 14, 7}, "b2"}, {"g", {"k.hip", 14, 5}, "a"}};
  auto Pairs = matchItems(Base, Head, M, true);
  EXPECT_EQ(Pairs[0], std::make_pair(0, 1));
  EXPECT_EQ(Pairs[1], std::make_pair(1, 0));
}

TEST(ResultMatching, GroupsNeverMixAndLeftoversAreReported) {
  ChangeMap M = mapOf(Patch);
  std::vector<MatchItem> Base{{"g", {"k.hip", 5, 3}, "x"}};
  std::vector<MatchItem> Head{{"other", {"k.hip", 9, 3}, "x"}, {"g", {"k.hip", 30, 1}, "z"}};
  auto Pairs = matchItems(Base, Head, M, true);
  ASSERT_EQ(Pairs.size(), 3u);
  EXPECT_EQ(Pairs[0], std::make_pair(0, -1));
  EXPECT_EQ(Pairs[1], std::make_pair(-1, 0));
  EXPECT_EQ(Pairs[2], std::make_pair(-1, 1));
}

TEST(ResultMatching, MovedCodePairsByText) {
  ChangeMap M = mapOf(Patch);
  std::vector<MatchItem> Base{{"g", {"k.hip", 10, 1}, "same"}};
  std::vector<MatchItem> Head{{"g", {"k.hip", 2, 1}, "same"}};
  auto Pairs = matchItems(Base, Head, M, true);
  ASSERT_EQ(Pairs.size(), 1u);
  EXPECT_EQ(Pairs[0], std::make_pair(0, 0));
}

TEST(ResultMatching, Normalisation) {
  EXPECT_EQ(normalizeSummary("k0'1 + k'12 == tx'3"), "k0 + k == tx");
  EXPECT_EQ(normalizeSummary("A'(x)"), "A'(x)");
  EXPECT_EQ(normalizeMessage("threadIdx=(1,0,0) reads As[0][15]"),
            "threadIdx=(#,#,#) reads As[#][#]");
}

} // namespace
} // namespace ave::review
