#include "RewriteSnippet.h"

#include <gtest/gtest.h>

namespace ave::rw::test {
namespace {

// The snippet prelude has no HIP headers: the barrier, blockIdx and the tag
// attribute are declared here.
const std::string Prelude = "__attribute__((device)) void __syncthreads();\n"
                            "extern const __attribute__((device)) Dim3 blockIdx;\n"
                            "#define AVE_TAG(s) __attribute__((annotate(\"ave.tag\", s)))\n";

// A 16x16 tiled GEMM; `Assume` is its kernel-level assumption, `Tags` the
// three tag specs, `Store` the statement after the K loop.
std::string tiled(const std::string &Assume, const std::string &BTag = "k * N + n",
                  const std::string &Store = "C[row * N + col] = acc;") {
  return Prelude +
         "__global__ void g(const float *A AVE_TAG(\"A(m < M, k < K) = m * K + k\"),\n"
         "                  const float *B AVE_TAG(\"B(k < K, n < N) = " +
         BTag +
         "\"),\n"
         "                  float *C AVE_TAG(\"C(m < M, n < N) = m * N + n\"), int M, int N, "
         "int K) {\n"
         "#pragma ave launch block(16, 16) grid(N / 16, M / 16)\n"
         "#pragma ave assume " +
         Assume +
         "\n"
         "  __shared__ float As[16][16], Bs[16][16];\n"
         "  int tx = threadIdx.x, ty = threadIdx.y;\n"
         "  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;\n"
         "  float acc = 0.0f;\n"
         "  for (int k0 = 0; k0 < K; k0 += 16) {\n"
         "    As[ty][tx] = A[row * K + k0 + tx];\n"
         "    Bs[ty][tx] = B[(k0 + ty) * N + col];\n"
         "    __syncthreads();\n"
         "    for (int k = 0; k < 16; ++k)\n"
         "      acc += As[ty][k] * Bs[k][tx];\n"
         "    __syncthreads();\n"
         "  }\n  " +
         Store + "\n}\n";
}

bool has(const SnippetRewrite &R, const std::string &Text) {
  return R.patched.find(Text) != std::string::npos;
}

TEST(RegisterTile, DivisibleShapesNeedNoGuards) {
  SnippetRewrite R =
      rewriteSnippet(tiled("M % 256 == 0 && N % 128 == 0 && K % 16 == 0"), "register-tile");
  ASSERT_EQ(R.candidates.size(), 1u) << R.patched;
  EXPECT_TRUE(R.candidates[0].changesLaunch);
  EXPECT_TRUE(has(R, "#pragma ave launch block(256) grid(N / 128, M / 128)\n")) << R.patched;
  EXPECT_TRUE(has(R, "  __shared__ float As[128][8], Bs[8][128];\n")) << R.patched;
  EXPECT_TRUE(has(R, "      As[e / 8][e % 8] = A[(row0 + e / 8) * K + (k0 + e % 8)];\n"))
      << R.patched;
  EXPECT_TRUE(has(R, "      C[(row0 + ty * 8 + i) * N + (col0 + tx * 8 + j)] = acc[i][j];\n"))
      << R.patched;
  EXPECT_FALSE(has(R, "M - 1")) << R.patched;
}

TEST(RegisterTile, EdgesClampLoadsAndGuardStores) {
  SnippetRewrite R = rewriteSnippet(tiled("M % 16 == 0 && N % 128 == 0 && K % 8 == 0"),
                                    "register-tile", {{"tm", "4"}, {"bm", "64"}});
  ASSERT_EQ(R.candidates.size(), 1u) << R.patched;
  EXPECT_TRUE(has(R, "grid(N / 128, (M + 63) / 64)")) << R.patched;
  EXPECT_TRUE(has(R, "A[(row0 + e / 8 < M ? row0 + e / 8 : M - 1) * K + (k0 + e % 8)]"))
      << R.patched;
  EXPECT_TRUE(has(R, "if (row0 + ty * 4 + i < M)\n")) << R.patched;
  EXPECT_FALSE(has(R, "N - 1")) << R.patched;
}

TEST(RegisterTile, NMajorBKeepsItsOrderInLds) {
  SnippetRewrite R = rewriteSnippet(
      tiled("M % 128 == 0 && N % 128 == 0 && K % 16 == 0", "n * K + k"), "register-tile");
  ASSERT_EQ(R.candidates.size(), 1u) << R.patched;
  EXPECT_TRUE(has(R, "__shared__ float As[128][8], Bs[128][8];")) << R.patched;
  EXPECT_TRUE(has(R, "Bs[e / 8][e % 8] = B[(col0 + e / 8) * K + (k0 + e % 8)];")) << R.patched;
  EXPECT_TRUE(has(R, "b[j] = Bs[tx * 8 + j][k];")) << R.patched;
}

TEST(RegisterTile, RefusesWhatTheNewBodyWouldDrop) {
  SnippetRewrite Scaled = rewriteSnippet(tiled("M % 16 == 0 && N % 16 == 0 && K % 16 == 0",
                                               "k * N + n", "C[row * N + col] = 2 * acc;"),
                                         "register-tile");
  EXPECT_TRUE(Scaled.candidates.empty());
  EXPECT_TRUE(anyNoteContains(Scaled, "is not the store `C[...] = acc;`")) << Scaled.patched;
  SnippetRewrite ShortK =
      rewriteSnippet(tiled("M % 16 == 0 && N % 16 == 0 && K % 4 == 0"), "register-tile");
  EXPECT_TRUE(ShortK.candidates.empty());
  EXPECT_TRUE(anyNoteContains(ShortK, "no assumption says 'K % 8 == 0'"));
}

TEST(RegisterTile, ShapesThatDoNotDivideAreUsageErrors) {
  const std::string Code = tiled("M % 16 == 0 && N % 16 == 0 && K % 16 == 0");
  EXPECT_EQ(rewriteSnippet(Code, "register-tile", {{"tn", "3"}}).error,
            "register-tile: tn=3 does not divide bn=128");
  EXPECT_EQ(rewriteSnippet(Code, "register-tile", {{"bk", "0"}}).error,
            "register-tile: bk must be a number from 1 to 1024, not '0'");
  EXPECT_EQ(rewriteSnippet(Code, "register-tile", {{"transpose-a", "yes"}}).error,
            "register-tile: transpose-a must be 0 or 1");
}

} // namespace
} // namespace ave::rw::test
