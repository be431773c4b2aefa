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
                .error.find("unknown rewrite 'nope' (known: lds-pad, lds-swizzle, pipeline, "
                            "unroll, launch-bounds, register-tile, vectorize, matrix-core)"),
            std::string::npos);
  EXPECT_NE(parseRewriteSpecs("lds-pad:pad", Reg).error.find("name=value"), std::string::npos);
}

} // namespace
} // namespace ave::rw::test

namespace ave::rw::test {
namespace {

// The smaller rewriter bugs of issue 22, each with its twin.
TEST(LdsSwizzle, ReversedSubscriptIsParenthesised) {
  SnippetRewrite R = rewriteSnippet(R"(__global__ void k(float *out) {
  __shared__ float tile[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  tile[ty][tx] = 1.0f;
  out[0] = ty[tile[tx]] + (tx + 1)[tile[ty]];
}
)",
                                    "lds-swizzle", {{"f", "r"}});
  ASSERT_EQ(R.candidates.size(), 1u) << (R.notes.empty() ? "" : R.notes[0]);
  EXPECT_NE(R.patched.find("out[0] = (ty ^ tx)[tile[tx]] + ((tx + 1) ^ ty)[tile[ty]];"),
            std::string::npos)
      << R.patched;
}

TEST(LdsSwizzle, SideEffectInASubscriptIsRefused) {
  SnippetRewrite R = rewriteSnippet(R"(__attribute__((device)) int next(int &w) { return w++; }
__global__ void k(float *out) {
  __shared__ float tile[32][32];
  int w = threadIdx.y;
  tile[w++][threadIdx.x] = 1.0f;
  out[0] = tile[threadIdx.x][threadIdx.y];
}
__global__ void call(float *out) {
  __shared__ float tile[32][32];
  int w = threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = 1.0f;
  out[0] = tile[threadIdx.x][next(w)];
}
)",
                                    "lds-swizzle");
  EXPECT_TRUE(R.candidates.empty()) << R.patched;
  EXPECT_TRUE(anyNoteContains(
      R, "9:8: not applicable: a subscript of 'tile' has a side effect ('w++'), which the XOR "
         "mask would repeat"));
  EXPECT_TRUE(anyNoteContains(R, "16:30: not applicable: a subscript of 'tile' has a side effect "
                                 "('next(w)')"));
  // Padding leaves the accesses as they are: nothing is repeated.
  SnippetRewrite Pad = rewriteSnippet(R"(__global__ void k(float *out) {
  __shared__ float tile[32][32];
  int w = threadIdx.y;
  tile[w++][threadIdx.x] = 1.0f;
  out[0] = tile[threadIdx.x][threadIdx.y];
}
)",
                                      "lds-pad", {{"pad", "1"}});
  EXPECT_EQ(Pad.candidates.size(), 1u);
}

TEST(LdsSwizzle, MacroArgumentUsedTwiceIsRefusedAndUsedOnceIsEdited) {
  SnippetRewrite R = rewriteSnippet(R"(#define STORE(r, c) tile[r][c] = in[(r) * 32 + (c)]
#define LOAD(r, c) tile[r][c]
__global__ void k(const float *in, float *out) {
  __shared__ float tile[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  STORE(ty, tx);
  out[0] = LOAD(tx, ty);
}
)",
                                    "lds-swizzle", {{"f", "r"}});
  EXPECT_TRUE(R.candidates.empty()) << R.patched;
  EXPECT_TRUE(anyNoteContains(R, "10:13: not applicable: lds-swizzle: the edit is in an argument "
                                 "of macro 'STORE' that the macro also uses elsewhere"))
      << (R.notes.empty() ? "" : R.notes[0]);
  SnippetRewrite Once = rewriteSnippet(R"(#define LOAD(r, c) tile[r][c]
__global__ void k(const float *in, float *out) {
  __shared__ float tile[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  LOAD(ty, tx) = in[ty * 32 + tx];
  out[0] = LOAD(tx, ty + 0);
}
)",
                                       "lds-swizzle", {{"f", "r"}});
  ASSERT_EQ(Once.candidates.size(), 1u) << (Once.notes.empty() ? "" : Once.notes[0]);
  EXPECT_NE(Once.patched.find("LOAD(ty, tx ^ ty) = in"), std::string::npos) << Once.patched;
  EXPECT_NE(Once.patched.find("LOAD(tx, (ty + 0) ^ tx);"), std::string::npos) << Once.patched;
}

TEST(LdsSwizzle, MasksAndSplicedRowsAreParenthesised) {
  SnippetRewrite R = rewriteSnippet(R"(__global__ void k(float *out, int b) {
  __shared__ float s[32 * 32];
  int tx = threadIdx.x, ty = threadIdx.y;
  s[(ty + b) * 32 + tx] = 1.0f;
  out[0] = s[32 * (tx - b)] + (tx * 32 + ty)[s];
}
)",
                                    "lds-swizzle", {{"f", "r & 7"}, {"unit", "2"}});
  ASSERT_EQ(R.candidates.size(), 1u) << (R.notes.empty() ? "" : R.notes[0]);
  EXPECT_NE(R.patched.find("s[(ty + b) * 32 + (tx ^ (((ty + b) & 7) * 2))] = 1.0f;"),
            std::string::npos)
      << R.patched;
  EXPECT_NE(R.patched.find("s[(32 * (tx - b) + (((tx - b) & 7) * 2))]"), std::string::npos)
      << R.patched;
  EXPECT_NE(R.patched.find("(tx * 32 + (ty ^ ((tx & 7) * 2)))[s]"), std::string::npos) << R.patched;
}

} // namespace
} // namespace ave::rw::test
