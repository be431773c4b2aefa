// The warp-shuffle reduction loop run lane by lane: how many times each
// lane's partial reaches a lane, for the target's wave size.
#include "analysis/ShuffleReduction.h"

#include "../annotations/HipSnippet.h"
#include "DeviceBuiltins.h"

#include "clang/AST/RecursiveASTVisitor.h"

#include <gtest/gtest.h>

namespace ave::inv {
namespace {

// The shuffles as HIP declares them (a default width of 64).
const char *const Shuffles = R"cu(
template <class T> __device__ T __shfl_xor(T v, int m, int w = 64);
template <class T> __device__ T __shfl_down(T v, unsigned d, int w = 64);
)cu";

class FirstFor : public clang::RecursiveASTVisitor<FirstFor> {
public:
  bool VisitForStmt(clang::ForStmt *F) {
    if (!found)
      found = F;
    return true;
  }
  const clang::ForStmt *found = nullptr;
};

// The combination of the kernel's only loop, Loop, for a wave of Wave lanes.
LaneCombination runLanes(const std::string &Loop, unsigned Wave, bool &Matched) {
  std::string Source = std::string(ann::test::MinimalPrelude) + test::DeviceBuiltins + Shuffles +
                       "__global__ void k(float *Y, float x) {\n  float v = x;\n" + Loop +
                       "\n  Y[threadIdx.x] = v;\n}\n";
  LaneCombination Out;
  Matched = false;
  bool Parsed = ann::test::parseHip(Source, [&](const ann::test::Snippet &S) {
    const clang::FunctionDecl *K = S.kernel("k");
    FirstFor F;
    F.TraverseStmt(K->getBody());
    std::optional<ShuffleLoop> L = F.found ? matchShuffleLoop(F.found) : std::nullopt;
    Matched = L.has_value();
    const std::optional<int64_t> Block[3] = {int64_t(Wave), 1, 1};
    if (L)
      Out = combineLanes(S.context, *K, *L, Wave, Block);
  });
  EXPECT_TRUE(Parsed);
  return Out;
}

// The combination of the run of statements that starts the kernel body
// after `float v = x;`, for a wave of Wave lanes.
LaneCombination runStatements(const std::string &Run, unsigned Wave, size_t &Steps) {
  std::string Source = std::string(ann::test::MinimalPrelude) + test::DeviceBuiltins + Shuffles +
                       "__global__ void k(float *Y, float x) {\n  float v = x;\n" + Run +
                       "\n  Y[threadIdx.x] = v;\n}\n";
  LaneCombination Out;
  Steps = 0;
  bool Parsed = ann::test::parseHip(Source, [&](const ann::test::Snippet &S) {
    const clang::FunctionDecl *K = S.kernel("k");
    const auto *Body = llvm::cast<clang::CompoundStmt>(K->getBody());
    std::optional<ShuffleLoop> L = matchShuffleRun(Body, Body->body_begin()[1]);
    Steps = L ? L->statements.size() : 0;
    const std::optional<int64_t> Block[3] = {int64_t(Wave), 1, 1};
    if (L)
      Out = combineLanes(S.context, *K, *L, Wave, Block);
  });
  EXPECT_TRUE(Parsed);
  return Out;
}

TEST(ShuffleReduction, UnrolledButterflyIsTheLoop) {
  size_t Steps = 0;
  LaneCombination C = runStatements("  v += __shfl_xor(v, 16);\n  v += __shfl_xor(v, 8);\n"
                                    "  v += __shfl_xor(v, 4);\n  v += __shfl_xor(v, 2);\n"
                                    "  v = v + __shfl_xor(v, 1);\n  v = v * 2.0f;",
                                    32, Steps);
  EXPECT_EQ(Steps, 5u); // the run stops at the first other statement
  ASSERT_EQ(C.unmodelled, "");
  for (const std::vector<unsigned> &Lane : C.times)
    EXPECT_EQ(Lane, std::vector<unsigned>(32, 1));
}

TEST(ShuffleReduction, LoneShuffleCombinesTwoLanes) {
  size_t Steps = 0;
  LaneCombination C = runStatements("  v += __shfl_down(v, 1);", 64, Steps);
  ASSERT_EQ(Steps, 1u);
  ASSERT_EQ(C.unmodelled, "");
  std::vector<unsigned> Lane0(64, 0), Last(64, 0);
  Lane0[0] = Lane0[1] = 1;
  Last[63] = 2; // nothing below it to shift in: the lane's own value, twice
  EXPECT_EQ(C.times[0], Lane0);
  EXPECT_EQ(C.times[63], Last);
}

TEST(ShuffleReduction, ButterflyOverTheWaveTakesEveryLaneOnceInEveryLane) {
  bool Matched = false;
  LaneCombination C =
      runLanes("  for (int off = 16; off > 0; off /= 2) v += __shfl_xor(v, off);", 32, Matched);
  ASSERT_TRUE(Matched);
  ASSERT_EQ(C.unmodelled, "");
  for (const std::vector<unsigned> &Lane : C.times)
    EXPECT_EQ(Lane, std::vector<unsigned>(32, 1));
}

TEST(ShuffleReduction, HalfWaveButterflyOnA64LaneWaveMissesTheOtherHalf) {
  bool Matched = false;
  LaneCombination C =
      runLanes("  for (int off = 16; off > 0; off /= 2) v += __shfl_xor(v, off);", 64, Matched);
  ASSERT_EQ(C.unmodelled, "");
  EXPECT_EQ(C.times[0][31], 1u);
  EXPECT_EQ(C.times[0][32], 0u);
  EXPECT_EQ(C.times[40][63], 1u);
}

TEST(ShuffleReduction, ShiftDownByTheWholeWaveAddsALaneToItself) {
  bool Matched = false;
  LaneCombination C = runLanes(
      "  for (int off = 32; off > 0; off >>= 1) v = v + __shfl_down(v, off);", 32, Matched);
  ASSERT_EQ(C.unmodelled, "");
  EXPECT_EQ(C.times[0], std::vector<unsigned>(32, 2));
}

TEST(ShuffleReduction, LaneMaskOutsideTheWidthIsNotFollowed) {
  bool Matched = false;
  LaneCombination C =
      runLanes("  for (int off = 32; off > 0; off /= 2) v += __shfl_xor(v, off);", 32, Matched);
  EXPECT_NE(C.unmodelled.find("outside the width"), std::string::npos) << C.unmodelled;
}

TEST(ShuffleReduction, ShuffleOfAnotherVariableIsNoReductionLoop) {
  bool Matched = true;
  runLanes("  float w = x;\n  for (int off = 16; off > 0; off /= 2) v += __shfl_xor(w, off);", 32,
           Matched);
  EXPECT_FALSE(Matched);
}

} // namespace
} // namespace ave::inv
