#include "RewriteSnippet.h"

#include <gtest/gtest.h>

namespace ave::rw::test {
namespace {

std::string kernel(const std::string &Body) {
  return "__global__ void k(const float *A, float *Y) {\n"
         "  float acc = 0.0f;\n" +
         Body + "  Y[threadIdx.x] = acc;\n}\n";
}

bool has(const SnippetRewrite &R, const std::string &Text) {
  return R.patched.find(Text) != std::string::npos;
}

TEST(Unroll, PragmaByDefault) {
  SnippetRewrite R = rewriteSnippet(kernel("  for (int k = 0; k < 8; ++k)\n"
                                           "    acc += A[k];\n"),
                                    "unroll");
  ASSERT_EQ(R.candidates.size(), 1u) << R.patched;
  EXPECT_TRUE(has(R, "  #pragma unroll\n  for (int k = 0; k < 8; ++k)\n")) << R.patched;
}

TEST(Unroll, ByFactorWithTail) {
  SnippetRewrite R = rewriteSnippet(kernel("  for (int k = 2; k <= 12; k += 2) {\n"
                                           "    acc += A[k] * 2.0f;\n"
                                           "  }\n"),
                                    "unroll", {{"factor", "4"}});
  ASSERT_EQ(R.candidates.size(), 1u) << R.patched;
  // 6 iterations: 4 in one unrolled iteration, 2 in the tail.
  EXPECT_TRUE(has(R, "for (int k = 2; k < 10; k += 8) {\n"
                     "    acc += A[k] * 2.0f;\n"
                     "    acc += A[k + 2] * 2.0f;\n"
                     "    acc += A[k + 4] * 2.0f;\n"
                     "    acc += A[k + 6] * 2.0f;\n"
                     "  }\n"
                     "  for (int k = 10; k <= 12; k += 2) {\n"
                     "    acc += A[k] * 2.0f;\n"
                     "  }"))
      << R.patched;
  EXPECT_NE(R.candidates[0].summary.find("by 4 (6 iterations, a tail loop of 2)"),
            std::string::npos)
      << R.candidates[0].summary;
}

TEST(Unroll, ParenthesesWhereTheSumNeedsThem) {
  SnippetRewrite R = rewriteSnippet(kernel("  for (int k = 0; k < 4; ++k)\n"
                                           "    acc += A[k * 4] + A[2 - k] + A[1 + k];\n"),
                                    "unroll", {{"factor", "2"}});
  ASSERT_EQ(R.candidates.size(), 1u) << R.patched;
  EXPECT_TRUE(has(R, "acc += A[(k + 1) * 4] + A[2 - (k + 1)] + A[1 + k + 1];")) << R.patched;
}

TEST(Unroll, AvePragmasStayWithTheFirstCopy) {
  SnippetRewrite R = rewriteSnippet(kernel("  for (int k = 0; k < 4; ++k) {\n"
                                           "#pragma ave assert tag(A[k]) == A(k)\n"
                                           "    acc += A[k];\n"
                                           "  }\n"),
                                    "unroll", {{"factor", "2"}});
  ASSERT_EQ(R.candidates.size(), 1u) << R.patched;
  size_t First = R.patched.find("#pragma ave");
  ASSERT_NE(First, std::string::npos) << R.patched;
  EXPECT_EQ(R.patched.find("#pragma ave", First + 1), std::string::npos) << R.patched;
}

TEST(Unroll, RefusesWhatOneIterationOwns) {
  for (const char *Body : {"  for (int k = 0; k < 8; ++k) {\n    if (A[k] > 0) break;\n  }\n",
                           "  for (int k = 0; k < 8; ++k) {\n    if (A[k] > 0) continue;\n"
                           "    acc += A[k];\n  }\n",
                           "  for (int k = 0; k < 8; ++k) {\n    int &r = k;\n    r = 9;\n  }\n",
                           "  for (int k = 0; k < 8; ++k) {\n  again:\n    acc += A[k];\n  }\n"}) {
    SnippetRewrite R = rewriteSnippet(kernel(Body), "unroll", {{"factor", "2"}});
    EXPECT_TRUE(R.candidates.empty()) << R.patched;
    EXPECT_TRUE(anyNoteContains(R, "cannot be unrolled")) << Body;
  }
}

TEST(Unroll, KeepsBreaksOfInnerLoopsAndSwitches) {
  SnippetRewrite R = rewriteSnippet(kernel("  for (int k = 0; k < 4; ++k) {\n"
                                           "    switch (k) {\n"
                                           "    case 1: acc += A[k]; break;\n"
                                           "    default: break;\n"
                                           "    }\n"
                                           "  }\n"),
                                    "unroll", {{"factor", "2"}});
  EXPECT_EQ(R.candidates.size(), 1u) << R.patched;
}

TEST(Unroll, OnlyTheNamedLoop) {
  SnippetRewrite R = rewriteSnippet(kernel("  for (int i = 0; i < 4; ++i)\n"
                                           "    for (int j = 0; j < 4; ++j)\n"
                                           "      acc += A[i * 4 + j];\n"),
                                    "unroll", {{"loop", "i"}});
  ASSERT_EQ(R.candidates.size(), 1u) << R.patched;
  EXPECT_TRUE(has(R, "  #pragma unroll\n  for (int i = 0;")) << R.patched;
  EXPECT_FALSE(has(R, "    #pragma unroll\n    for (int j")) << R.patched;
}

} // namespace
} // namespace ave::rw::test
