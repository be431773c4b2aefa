#include "RewriteSnippet.h"

#include <gtest/gtest.h>

namespace ave::rw::test {
namespace {

// The snippet prelude has no HIP headers: the barrier is declared here.
const std::string Barrier = "__attribute__((device)) void __syncthreads();\n";

std::string stagedLoop(const std::string &Loads, const std::string &Compute,
                       const std::string &Header = "for (int k0 = 0; k0 < K; k0 += 16)") {
  return Barrier +
         "__global__ void k(const float *A, float *C, int K) {\n"
         "  __shared__ float As[16][16];\n"
         "  int tx = threadIdx.x, ty = threadIdx.y;\n"
         "  float acc = 0.0f;\n"
         "  " +
         Header + " {\n" + Loads + "    __syncthreads();\n" + Compute +
         "    __syncthreads();\n"
         "  }\n"
         "  C[ty * 16 + tx] = acc;\n"
         "}\n";
}

const std::string Load = "    As[ty][tx] = A[ty * K + k0 + tx];\n";
const std::string Use = "    acc += As[tx][ty];\n";

TEST(Pipeline, TwoStagesPrefetchTheNextTile) {
  SnippetRewrite R = rewriteSnippet(stagedLoop(Load, Use), "pipeline");
  ASSERT_EQ(R.candidates.size(), 1u) << R.patched;
  const std::string &P = R.patched;
  EXPECT_NE(P.find("__shared__ float As[2][16][16];"), std::string::npos) << P;
  EXPECT_NE(P.find("for (int ave_s = 0; ave_s < 1; ++ave_s) {"), std::string::npos) << P;
  EXPECT_NE(P.find("As[ave_s][ty][tx] = A[ty * K + k0 + tx];"), std::string::npos) << P;
  EXPECT_NE(P.find("const int ave_stage = (k0 / 16) % 2;"), std::string::npos) << P;
  EXPECT_NE(P.find("ave_pf0 = A[ty * K + (k0 + 16) + tx];"), std::string::npos) << P;
  EXPECT_NE(P.find("acc += As[ave_stage][tx][ty];"), std::string::npos) << P;
  EXPECT_NE(P.find("As[(ave_stage + 1) % 2][ty][tx] = ave_pf0;"), std::string::npos) << P;
  // The declaration, one barrier after the prologue, one in the loop (the
  // first one is gone).
  size_t Barriers = 0;
  for (size_t At = P.find("__syncthreads();"); At != std::string::npos;
       At = P.find("__syncthreads();", At + 1))
    ++Barriers;
  EXPECT_EQ(Barriers, 3u) << P;
  bool KeepsProofs = false;
  for (const KeptObligation &O : R.candidates[0].obligations)
    KeepsProofs |= O.kind == KeptObligationKind::InvariantProofs;
  EXPECT_TRUE(KeepsProofs);
}

TEST(Pipeline, StagesAndStartShiftTheTileAhead) {
  SnippetRewrite R = rewriteSnippet(stagedLoop(Load, Use, "for (int k0 = 32; k0 <= K; k0 += 16)"),
                                    "pipeline", {{"stages", "4"}});
  ASSERT_EQ(R.candidates.size(), 1u) << R.patched;
  const std::string &P = R.patched;
  EXPECT_NE(P.find("const int k0 = 32 + ave_s * 16;"), std::string::npos) << P;
  EXPECT_NE(P.find("if (k0 <= K)"), std::string::npos) << P;
  EXPECT_NE(P.find("const int ave_stage = ((k0 - (32)) / 16) % 4;"), std::string::npos) << P;
  EXPECT_NE(P.find("if (k0 + 48 <= K)"), std::string::npos) << P;
  EXPECT_NE(P.find("As[(ave_stage + 3) % 4][ty][tx] = ave_pf0;"), std::string::npos) << P;
}

TEST(Pipeline, LoadsInAConstantLoopGetOneRegisterEach) {
  SnippetRewrite R = rewriteSnippet(
      stagedLoop("    for (int i = 0; i < 2; ++i)\n      As[ty + 8 * i][tx] = A[i * K + k0];\n",
                 Use),
      "pipeline");
  ASSERT_EQ(R.candidates.size(), 1u) << R.patched;
  EXPECT_NE(R.patched.find("float ave_pf0[2] = {};"), std::string::npos) << R.patched;
  EXPECT_NE(R.patched.find("ave_pf0[i] = A[i * K + (k0 + 16)];"), std::string::npos) << R.patched;
  EXPECT_NE(R.patched.find("As[(ave_stage + 1) % 2][ty + 8 * i][tx] = ave_pf0[i];"),
            std::string::npos)
      << R.patched;
}

TEST(Pipeline, RefusesWhatItCannotCopy) {
  struct Case {
    std::string loads, compute, header, why;
  };
  const std::string Canonical = "for (int k0 = 0; k0 < K; k0 += 16)";
  for (const Case &C : std::vector<Case>{
           {Load, "    acc += As[tx][ty];\n    As[tx][ty] = 0.0f;\n", Canonical,
            "the compute writes the staged array 'As'"},
           {Load, "    if (acc > 1.0f)\n      continue;\n", Canonical,
            "can leave the iteration early (a continue)"},
           {Load, Use, "for (int k0 = 0; k0 < K; k0 *= 2)", "step is not a positive constant"},
           {"    As[ty][tx] = A[ty * K + k0 + tx];\n    acc = 0.0f;\n", Use, Canonical,
            "stores into something other than an element of a __shared__ array"},
           {"    As[ty][tx] = A[ty * K + k0 + (int)acc];\n", "    acc += As[tx][ty];\n", Canonical,
            "the staged loads read 'acc', which the loop changes"},
       }) {
    SnippetRewrite R = rewriteSnippet(stagedLoop(C.loads, C.compute, C.header), "pipeline");
    EXPECT_TRUE(R.candidates.empty()) << C.why << "\n" << R.patched;
    std::string Notes;
    for (const std::string &N : R.notes)
      Notes += N + "\n";
    EXPECT_TRUE(anyNoteContains(R, C.why)) << C.why << "\n" << Notes;
  }
}

TEST(Pipeline, StagesOutsideTwoToFourAreAnError) {
  SnippetRewrite R = rewriteSnippet(stagedLoop(Load, Use), "pipeline", {{"stages", "1"}});
  EXPECT_NE(R.error.find("stages must be 2, 3 or 4"), std::string::npos) << R.error;
}

} // namespace
} // namespace ave::rw::test
