#include "RewriteSnippet.h"

#include <gtest/gtest.h>

namespace ave::rw::test {
namespace {

// The snippet prelude has no HIP headers: blockIdx, the launch pragma's
// needs and a float4 stand-in are declared here, and the tag macro (a
// kernel pointer's vectors are aligned only through its tag).
const std::string Prelude = "#define AVE_TAG(s) __attribute__((annotate(\"ave.tag\", s)))\n"
                            "__attribute__((device)) void __syncthreads();\n"
                            "extern const __attribute__((device)) Dim3 blockIdx;\n"
                            "struct float4 { float x, y, z, w; };\n"
                            "struct int2 { int x, y; };\n";

bool has(const SnippetRewrite &R, const std::string &Text) {
  return R.patched.find(Text) != std::string::npos;
}

bool noted(const SnippetRewrite &R, const std::string &Text) { return anyNoteContains(R, Text); }

// A register loop of `Trips` iterations copying `Rhs` into v[j].
std::string registerLoad(const std::string &Rhs, int Trips = 8, const std::string &Type = "float") {
  return Prelude + "__global__ void g(const " + Type + " *X AVE_TAG(\"X(i < 1048576)\"), " + Type +
         " *Y AVE_TAG(\"Y(i < 1048576)\"), int C) {\n"
         "  const int c0 = (blockIdx.x * 64 + threadIdx.x) * 8;\n"
         "  " +
         Type + " v[8];\n  for (int j = 0; j < " + std::to_string(Trips) +
         "; ++j)\n    v[j] = " + Rhs +
         ";\n"
         "  Y[c0] = v[0];\n}\n";
}

TEST(Vectorize, RegisterLoadStepsByTheWidth) {
  SnippetRewrite R = rewriteSnippet(registerLoad("X[c0 + j]"), "vectorize");
  ASSERT_EQ(R.candidates.size(), 1u) << R.patched;
  EXPECT_TRUE(has(R, "  for (int j = 0; j < 8; j += 4) {\n"
                     "    const float4 vec = *reinterpret_cast<const float4 *>(&X[c0 + j]);\n"
                     "    v[j] = vec.x;\n"
                     "    v[j + 1] = vec.y;\n"
                     "    v[j + 2] = vec.z;\n"
                     "    v[j + 3] = vec.w;\n"
                     "  }\n"))
      << R.patched;
}

TEST(Vectorize, WidthTwoOfInts) {
  SnippetRewrite R =
      rewriteSnippet(registerLoad("X[j + c0]", 8, "int"), "vectorize", {{"width", "2"}});
  ASSERT_EQ(R.candidates.size(), 1u) << R.patched;
  EXPECT_TRUE(has(R, "const int2 vec = *reinterpret_cast<const int2 *>(&X[j + c0]);")) << R.patched;
  EXPECT_TRUE(has(R, "v[j + 1] = vec.y;")) << R.patched;
  EXPECT_FALSE(has(R, "vec.z")) << R.patched;
}

TEST(Vectorize, RefusesWhatIsNotContiguousOrDoesNotDivide) {
  SnippetRewrite Column = rewriteSnippet(registerLoad("X[(c0 + j) * C]"), "vectorize");
  EXPECT_TRUE(Column.candidates.empty());
  EXPECT_TRUE(noted(Column, "whose last index is `X + j`")) << Column.patched;
  SnippetRewrite Six = rewriteSnippet(registerLoad("X[c0 + j]", 6), "vectorize");
  EXPECT_TRUE(Six.candidates.empty());
  EXPECT_TRUE(noted(Six, "run a multiple of 4 times (it runs 6 times)"));
  SnippetRewrite Doubles = rewriteSnippet(registerLoad("X[c0 + j]", 8, "double"), "vectorize");
  EXPECT_TRUE(Doubles.candidates.empty());
  EXPECT_TRUE(noted(Doubles, "32 bytes, more than one 128-bit access"));
}

// Without a tag nothing says where a kernel pointer's vectors fall: refused.
TEST(Vectorize, UntaggedPointerIsRefused) {
  std::string Source = registerLoad("X[c0 + j]");
  Source.replace(Source.find(" AVE_TAG(\"X(i < 1048576)\")"), 26, "");
  SnippetRewrite R = rewriteSnippet(Source, "vectorize");
  EXPECT_TRUE(R.candidates.empty()) << R.patched;
  EXPECT_TRUE(noted(R, "'X' has no tag")) << R.patched;
}

TEST(Vectorize, NameOfTheTemporaryIsFresh) {
  std::string Source = registerLoad("X[c0 + j]");
  Source.replace(Source.find("int C)"), 6, "int vec)");
  SnippetRewrite R = rewriteSnippet(Source, "vectorize");
  ASSERT_EQ(R.candidates.size(), 1u) << R.patched;
  EXPECT_TRUE(has(R, "const float4 vec2 = ")) << R.patched;
}

// A staging loop, e-form, with a clamped column: the element's column
// becomes the lane, the clamp steps back by three.
TEST(Vectorize, StagingLoopTakesFourElementsPerThread) {
  std::string Source = Prelude + "__global__ void g(const float *B AVE_TAG(\"B(i < 1048576)\"), "
                                 "int N) {\n"
                                 "#pragma ave launch block(256) grid(N / 128)\n"
                                 "  __shared__ float Bs[8][128];\n"
                                 "  const int tid = threadIdx.x;\n"
                                 "  const int col0 = blockIdx.x * 128;\n"
                                 "  for (int l = 0; l < 8; ++l) {\n"
                                 "    const int e = tid + l * 256;\n"
                                 "    Bs[e / 128][e % 128] = B[(e / 128) * N + (col0 + e % 128 < N "
                                 "? col0 + e % 128 : N - 1)];\n"
                                 "  }\n"
                                 "  __syncthreads();\n}\n";
  SnippetRewrite R = rewriteSnippet(Source, "vectorize");
  ASSERT_EQ(R.candidates.size(), 1u) << R.patched;
  EXPECT_TRUE(has(R, "alignas(16) __shared__ float Bs[8][128];")) << R.patched;
  EXPECT_TRUE(has(R, "  for (int l = 0; l < 2; ++l) {\n"
                     "    *reinterpret_cast<float4 *>(&Bs[tid / 32 + l * 8][4 * (tid % 32)]) = "
                     "*reinterpret_cast<const float4 *>(&B[(tid / 32 + l * 8) * N + (col0 + 4 * "
                     "(tid % 32) < N ? col0 + 4 * (tid % 32) : N - 4)]);\n"
                     "  }\n"))
      << R.patched;
}

TEST(Vectorize, StagingStrideMustBeTheBlock) {
  std::string Source = Prelude + "__global__ void g(const float *B, int N) {\n"
                                 "#pragma ave launch block(128) grid(N / 128)\n"
                                 "  __shared__ float Bs[8][128];\n"
                                 "  const int tid = threadIdx.x;\n"
                                 "  for (int l = 0; l < 4; ++l) {\n"
                                 "    const int e = tid + l * 256;\n"
                                 "    Bs[e / 128][e % 128] = B[(e / 128) * N + e % 128];\n"
                                 "  }\n}\n";
  SnippetRewrite R = rewriteSnippet(Source, "vectorize");
  EXPECT_TRUE(R.candidates.empty());
  EXPECT_TRUE(noted(R, "its stride 256 is not the block's 128 threads")) << R.patched;
}

TEST(Vectorize, WhereSelectsKinds) {
  SnippetRewrite R =
      rewriteSnippet(registerLoad("X[c0 + j]"), "vectorize", {{"where", "stores+staging"}});
  EXPECT_TRUE(R.candidates.empty()) << R.patched;
  SnippetRewrite Bad =
      rewriteSnippet(registerLoad("X[c0 + j]"), "vectorize", {{"where", "all+loads"}});
  EXPECT_NE(Bad.error.find("where must be all, or loads, stores and staging"), std::string::npos)
      << Bad.error;
}

} // namespace
} // namespace ave::rw::test
