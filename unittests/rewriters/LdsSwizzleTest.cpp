#include "RewriteSnippet.h"
#include "ave/rewriters/Registry.h"
#include "ave/rewriters/TestHooks.h"

#include <gtest/gtest.h>

namespace ave::rw::test {
namespace {

TEST(LdsSwizzle, XorsTheColumnAtEveryAccess) {
  SnippetRewrite R = rewriteSnippet(Transpose, "lds-swizzle", {{"f", "r"}});
  ASSERT_TRUE(R.error.empty()) << R.error;
  EXPECT_NE(R.patched.find("tile[ty][tx ^ ty] = in"), std::string::npos) << R.patched;
  EXPECT_NE(R.patched.find("= tile[tx][ty ^ tx];"), std::string::npos) << R.patched;
  EXPECT_NE(R.patched.find("__shared__ float tile[32][32];"), std::string::npos);
}

TEST(LdsSwizzle, DefaultMaskStaysInsideTheRow) {
  SnippetRewrite R = rewriteSnippet(Transpose, "lds-swizzle");
  ASSERT_EQ(R.candidates.size(), 1u);
  EXPECT_EQ(R.candidates[0].parameters.at("f"), "r % 32");
  EXPECT_NE(R.patched.find("tile[ty][tx ^ (ty % 32)]"), std::string::npos) << R.patched;
}

TEST(LdsSwizzle, UnitSwizzlesChunks) {
  SnippetRewrite R =
      rewriteSnippet(Transpose, "lds-swizzle", {{"f", "(r / 2) % 8"}, {"unit", "4"}});
  ASSERT_TRUE(R.error.empty()) << R.error;
  EXPECT_NE(R.patched.find("tile[ty][tx ^ (((ty / 2) % 8) * 4)]"), std::string::npos) << R.patched;
}

TEST(LdsSwizzle, FlattenedArray) {
  SnippetRewrite R = rewriteSnippet(R"(__global__ void k(float *out) {
  __shared__ float s[32 * 32];
  int tx = threadIdx.x, ty = threadIdx.y;
  s[ty * 32 + tx] = 1.0f;
  out[0] = s[tx * 32 + ty + 0 * 0];
}
)",
                                    "lds-swizzle", {{"f", "r"}});
  // `tx * 32 + ty + 0 * 0` is not r * W + c: nothing may change.
  EXPECT_TRUE(R.candidates.empty());
  EXPECT_EQ(R.patched.find('^'), std::string::npos);
  R = rewriteSnippet(R"(__global__ void k(float *out) {
  __shared__ float s[32 * 32];
  int tx = threadIdx.x, ty = threadIdx.y;
  s[ty * 32 + tx] = 1.0f;
  out[0] = s[tx * 32 + ty];
}
)",
                     "lds-swizzle", {{"f", "r"}});
  ASSERT_EQ(R.candidates.size(), 1u);
  EXPECT_NE(R.patched.find("s[ty * 32 + (tx ^ ty)] = 1.0f;"), std::string::npos) << R.patched;
  EXPECT_NE(R.patched.find("s[tx * 32 + (ty ^ tx)];"), std::string::npos) << R.patched;
}

TEST(LdsSwizzle, RefusesToSwizzleTwice) {
  SnippetRewrite Once = rewriteSnippet(Transpose, "lds-swizzle", {{"f", "r"}});
  SnippetRewrite Twice = rewriteSnippet(Once.patched, "lds-swizzle", {{"f", "r"}});
  EXPECT_TRUE(Twice.candidates.empty());
  EXPECT_TRUE(anyNoteContains(Twice, "'tile' is already swizzled"));
}

TEST(LdsSwizzle, RefusesRowsThatAreNotAPowerOfTwo) {
  SnippetRewrite R = rewriteSnippet(R"(__global__ void k(float *out) {
  __shared__ float t[32][33];
  t[threadIdx.y][threadIdx.x] = 1.0f;
  out[0] = t[threadIdx.x][threadIdx.y];
}
)",
                                    "lds-swizzle");
  EXPECT_TRUE(R.candidates.empty());
  EXPECT_TRUE(anyNoteContains(R, "row width 33 of 't' is not a power of two"));
}

TEST(LdsSwizzle, OneUnrewritableAccessRefusesTheArray) {
  SnippetRewrite R = rewriteSnippet(R"(__global__ void k(float *out, float **p) {
  __shared__ float t[32][32];
  t[threadIdx.y][threadIdx.x] = 1.0f;
  *p = t[threadIdx.x];
  out[0] = t[threadIdx.x][threadIdx.y];
}
)",
                                    "lds-swizzle");
  EXPECT_TRUE(R.candidates.empty());
  EXPECT_TRUE(anyNoteContains(R, "8:3: not applicable: a row of 't' is stored in a pointer ('=')"))
      << (R.notes.empty() ? "" : R.notes[0]);
  EXPECT_EQ(R.patched.find('^'), std::string::npos);
}

TEST(LdsSwizzle, RejectsMasksNamingOtherVariables) {
  EXPECT_NE(rewriteSnippet(Transpose, "lds-swizzle", {{"f", "tx % 8"}}).error.find("only name 'r'"),
            std::string::npos);
  EXPECT_NE(rewriteSnippet(Transpose, "lds-swizzle", {{"unit", "3"}}).error.find("power of two"),
            std::string::npos);
}

TEST(LdsSwizzle, InjectedBugRewritesOnlyTheWrites) {
  testing::injectBug(testing::InjectedBug::SwizzleWritesOnly);
  SnippetRewrite R = rewriteSnippet(Transpose, "lds-swizzle", {{"f", "r"}});
  testing::injectBug(testing::InjectedBug::None);
  EXPECT_NE(R.patched.find("tile[ty][tx ^ ty] = in"), std::string::npos) << R.patched;
  EXPECT_NE(R.patched.find("= tile[tx][ty];"), std::string::npos) << R.patched;
}

TEST(RewriteSpecs, ParsesNamesAndParameters) {
  const RewriterRegistry &Reg = RewriterRegistry::builtin();
  ParsedSpecs P = parseRewriteSpecs("lds-pad:pad=1,lds-swizzle:f=r:unit=2", Reg);
  ASSERT_TRUE(P.error.empty()) << P.error;
  ASSERT_EQ(P.specs.size(), 2u);
  EXPECT_EQ(P.specs[0].rewriter->info().name, "lds-pad");
  EXPECT_EQ(P.specs[0].parameters.at("pad"), "1");
  EXPECT_EQ(P.specs[1].parameters.at("unit"), "2");
  P = parseRewriteSpecs("lds-swizzle:f=r,unit=4", Reg);
  ASSERT_TRUE(P.error.empty()) << P.error;
  ASSERT_EQ(P.specs.size(), 1u);
  EXPECT_EQ(P.specs[0].parameters.at("unit"), "4");
  EXPECT_NE(parseRewriteSpecs("lds-pad:bogus=1", Reg).error.find("has no parameter 'bogus'"),
            std::string::npos);
  EXPECT_NE(parseRewriteSpecs("nope", Reg)
                .error.find("unknown rewrite 'nope' (known: lds-pad, lds-swizzle)"),
            std::string::npos);
  EXPECT_NE(parseRewriteSpecs("lds-pad:pad", Reg).error.find("name=value"), std::string::npos);
}

} // namespace
} // namespace ave::rw::test
