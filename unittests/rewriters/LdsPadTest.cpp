#include "RewriteSnippet.h"

#include <gtest/gtest.h>

namespace ave::rw::test {
namespace {

TEST(LdsPad, PadsTheInnermostExtentOfA2DArrayAndLeavesAccessesAlone) {
  SnippetRewrite R = rewriteSnippet(Transpose, "lds-pad", {{"pad", "1"}});
  ASSERT_TRUE(R.error.empty()) << R.error;
  ASSERT_EQ(R.candidates.size(), 1u);
  EXPECT_NE(R.patched.find("__shared__ float tile[32][32 + 1];"), std::string::npos) << R.patched;
  EXPECT_NE(R.patched.find("out[ty * 32 + tx] = tile[tx][ty];"), std::string::npos);
  EXPECT_EQ(R.candidates[0].parameters.at("pad"), "1");
  EXPECT_EQ(R.candidates[0].array, "tile");
  EXPECT_FALSE(R.candidates[0].obligations.empty());
}

TEST(LdsPad, ThreeDimensionalArraysPadTheLastExtent) {
  SnippetRewrite R = rewriteSnippet(R"(__global__ void k(float *out) {
  __shared__ float buf[2][16][16];
  buf[threadIdx.z][threadIdx.y][threadIdx.x] = 1.0f;
  out[0] = buf[1][threadIdx.x][threadIdx.y];
}
)",
                                    "lds-pad", {{"pad", "2"}});
  ASSERT_TRUE(R.error.empty()) << R.error;
  EXPECT_NE(R.patched.find("buf[2][16][16 + 2];"), std::string::npos) << R.patched;
}

TEST(LdsPad, RefusesToPadTwice) {
  SnippetRewrite Once = rewriteSnippet(Transpose, "lds-pad", {{"pad", "1"}});
  SnippetRewrite Twice = rewriteSnippet(Once.patched, "lds-pad", {{"pad", "1"}});
  EXPECT_TRUE(Twice.candidates.empty());
  EXPECT_TRUE(anyNoteContains(Twice, "not applicable: 'tile' is already padded (32 + 1)"))
      << (Twice.notes.empty() ? "" : Twice.notes[0]);
  EXPECT_EQ(Twice.patched, Once.patched);
}

TEST(LdsPad, MacroExtentKeepsTheMacro) {
  SnippetRewrite R = rewriteSnippet(R"(#define TILE 32
__global__ void k(float *out) {
  __shared__ float t[TILE][TILE];
  t[threadIdx.y][threadIdx.x] = 1.0f;
  out[0] = t[threadIdx.x][threadIdx.y];
}
)",
                                    "lds-pad", {{"pad", "1"}});
  ASSERT_TRUE(R.error.empty()) << R.error;
  EXPECT_NE(R.patched.find("t[TILE][TILE + 1];"), std::string::npos) << R.patched;
}

TEST(LdsPad, FlattenedArrayRewritesTheDeclarationAndEveryAccess) {
  SnippetRewrite R = rewriteSnippet(R"(__global__ void k(float *out) {
  __shared__ float s[32 * 32];
  int tx = threadIdx.x, ty = threadIdx.y;
  s[ty * 32 + tx] = 1.0f;
  out[0] = s[tx * 32 + ty] + s[32 * ty];
}
)",
                                    "lds-pad", {{"pad", "1"}});
  ASSERT_TRUE(R.error.empty()) << R.error;
  ASSERT_EQ(R.candidates.size(), 1u) << (R.notes.empty() ? "" : R.notes[0]);
  EXPECT_NE(R.patched.find("s[32 * (32 + 1)];"), std::string::npos) << R.patched;
  EXPECT_NE(R.patched.find("s[ty * (32 + 1) + tx] = 1.0f;"), std::string::npos) << R.patched;
  EXPECT_NE(R.patched.find("s[tx * (32 + 1) + ty] + s[(32 + 1) * ty]"), std::string::npos)
      << R.patched;
  // And the padded array is recognised as such.
  SnippetRewrite Twice = rewriteSnippet(R.patched, "lds-pad", {{"pad", "1"}});
  EXPECT_TRUE(anyNoteContains(Twice, "already padded"));
}

TEST(LdsPad, FlattenedArrayWithInconsistentWidthsIsRefusedWhole) {
  SnippetRewrite R = rewriteSnippet(R"(__global__ void k(float *out) {
  __shared__ float s[1024];
  s[threadIdx.y * 32 + threadIdx.x] = 1.0f;
  out[0] = s[threadIdx.x * 16 + threadIdx.y];
}
)",
                                    "lds-pad", {{"pad", "1"}});
  EXPECT_TRUE(R.candidates.empty());
  EXPECT_TRUE(anyNoteContains(R, "use different row widths (32 and 16)"));
  EXPECT_EQ(R.patched.find("(32 + 1)"), std::string::npos);
}

TEST(LdsPad, FlattenedAccessOfAnotherShapeIsRefusedWithItsLocation) {
  SnippetRewrite R = rewriteSnippet(R"(__global__ void k(float *out) {
  __shared__ float s[1024];
  s[threadIdx.y * 32 + threadIdx.x] = 1.0f;
  out[0] = s[threadIdx.x];
}
)",
                                    "lds-pad", {{"pad", "1"}});
  EXPECT_TRUE(R.candidates.empty());
  EXPECT_TRUE(
      anyNoteContains(R, "8:12: not applicable: an access of the 1-D array 's' is not rewritable"))
      << (R.notes.empty() ? "" : R.notes[0]);
}

TEST(LdsPad, RefusesAnEditThatWouldSplitAMacro) {
  SnippetRewrite R = rewriteSnippet(R"(#define IDX(r, c) ((r) * 32 + (c))
__global__ void k(float *out) {
  __shared__ float s[32 * 32];
  s[IDX(threadIdx.y, threadIdx.x)] = 1.0f;
  out[0] = s[IDX(threadIdx.x, threadIdx.y)];
}
)",
                                    "lds-pad", {{"pad", "1"}});
  EXPECT_TRUE(R.candidates.empty());
  EXPECT_TRUE(anyNoteContains(R, "the edit would split the expansion of macro 'IDX'"))
      << (R.notes.empty() ? "" : R.notes[0]);
}

TEST(LdsPad, RefusesArraysUsedThroughPointers) {
  SnippetRewrite R = rewriteSnippet(R"(__global__ void k(float *out) {
  __shared__ float t[32][32];
  float *p = &t[threadIdx.y][0];
  p[threadIdx.x] = 1.0f;
  out[0] = t[threadIdx.x][threadIdx.y];
}
)",
                                    "lds-pad", {{"pad", "1"}});
  EXPECT_TRUE(R.candidates.empty());
  EXPECT_TRUE(anyNoteContains(R, "the address of an element of 't' is taken"));
}

TEST(LdsPad, RejectsABadPad) {
  EXPECT_NE(rewriteSnippet(Transpose, "lds-pad", {{"pad", "0"}}).error.find("pad must be"),
            std::string::npos);
  EXPECT_NE(rewriteSnippet(Transpose, "lds-pad", {{"pad", "x"}}).error.find("pad must be"),
            std::string::npos);
}

TEST(LdsPad, AutoPadWithoutABankModelSaysSo) {
  SnippetRewrite R = rewriteSnippet(Transpose, "lds-pad");
  ASSERT_EQ(R.candidates.size(), 1u);
  EXPECT_TRUE(anyNoteContains(R, "pad=auto without a bank model"));
}

TEST(LdsPad, NamedArrayThatDoesNotExist) {
  SnippetRewrite R = rewriteSnippet(Transpose, "lds-pad", {{"array", "nope"}, {"pad", "1"}});
  EXPECT_TRUE(R.candidates.empty());
  EXPECT_TRUE(anyNoteContains(R, "declares no __shared__ array named 'nope'"));
}

} // namespace
} // namespace ave::rw::test

namespace ave::rw::test {
namespace {

TEST(LdsPad, TemplateExtentIsRefusedWithTheReason) {
  SnippetRewrite R = rewriteSnippet(R"(template <int T> __global__ void k(float *out) {
  __shared__ float t[T][T];
  t[threadIdx.y][threadIdx.x] = 1.0f;
  out[0] = t[threadIdx.x][threadIdx.y];
}
template __global__ void k<32>(float *);
)",
                                    "lds-pad", {{"pad", "1"}});
  EXPECT_TRUE(R.candidates.empty());
  EXPECT_TRUE(anyNoteContains(R, "'t' has one that depends on a template parameter"))
      << (R.notes.empty() ? "" : R.notes[0]);
}

} // namespace
} // namespace ave::rw::test

namespace ave::rw::test {
namespace {

TEST(LdsPad, MacroArgumentUsedTwiceIsRefused) {
  SnippetRewrite R = rewriteSnippet(R"(#define SQUARE(name, n) __shared__ float name[n][n]
#define AT(r, w, c) s[r * w + c] = w
__global__ void k(float *out) {
  SQUARE(t, 32);
  t[threadIdx.y][threadIdx.x] = 1.0f;
  out[0] = t[threadIdx.x][threadIdx.y];
}
__global__ void flat(float *out) {
  __shared__ float s[32 * 32];
  AT(threadIdx.y, 32, threadIdx.x);
  out[0] = s[threadIdx.x * 32 + threadIdx.y];
}
)",
                                    "lds-pad", {{"pad", "1"}});
  EXPECT_TRUE(R.candidates.empty()) << R.patched;
  EXPECT_TRUE(anyNoteContains(R, "8:13: not applicable: lds-pad: the edit is in an argument of "
                                 "macro 'SQUARE' that the macro also uses elsewhere"))
      << (R.notes.empty() ? "" : R.notes[0]);
  EXPECT_TRUE(anyNoteContains(R, "14:19: not applicable: lds-pad: the edit is in an argument of "
                                 "macro 'AT'"))
      << (R.notes.size() < 2 ? "" : R.notes[1]);
}

} // namespace
} // namespace ave::rw::test
