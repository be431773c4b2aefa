// The LDS tree run level by level: how many times each thread's partial
// reaches the slot read after the tree, or why the tree is not followed.
#include "analysis/TreeReduction.h"

#include "../annotations/HipSnippet.h"
#include "DeviceBuiltins.h"

#include <gtest/gtest.h>

namespace ave::inv {
namespace {

// The tree over `partial` in a kernel of 8 threads whose body is Body.
TreeCombination runTree(const std::string &Body, int64_t Threads = 8) {
  std::string Source = std::string(ann::test::MinimalPrelude) + test::DeviceBuiltins +
                       "__global__ void k(float *Y, int n) {\n" +
                       "  __shared__ float partial[16];\n  int tid = threadIdx.x;\n" +
                       "  partial[tid] = 1.0f;\n  __syncthreads();\n" + Body +
                       "\n  if (tid == 0) Y[0] = partial[0];\n}\n";
  TreeCombination Out;
  bool Parsed = ann::test::parseHip(Source, [&](const ann::test::Snippet &S) {
    const clang::FunctionDecl *K = S.kernel("k");
    const clang::VarDecl *Partial = nullptr;
    for (const clang::Decl *D : K->decls())
      if (const auto *V = llvm::dyn_cast<clang::VarDecl>(D); V && V->getName() == "partial")
        Partial = V;
    const std::optional<int64_t> Block[3] = {Threads, 1, 1};
    Out = combineTree(S.context, *K, Partial, Block);
  });
  EXPECT_TRUE(Parsed);
  return Out;
}

std::vector<unsigned> times(std::initializer_list<unsigned> L) { return L; }

TEST(TreeReduction, HalvingTreeTakesEveryThreadOnce) {
  TreeCombination T = runTree(R"cu(
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      partial[tid] += partial[tid + s];
    __syncthreads();
  })cu");
  EXPECT_EQ(T.unmodelled, "");
  EXPECT_EQ(T.times, times({1, 1, 1, 1, 1, 1, 1, 1}));
  EXPECT_EQ(T.fills.size(), 1u);
  EXPECT_FALSE(T.filledSlotsRead);
}

TEST(TreeReduction, ReadOfAFilledSlotBeforeTheTreeIsRecorded) {
  // The read sees one thread's element: a fill's value may be taken as a
  // piece of the tree's sum only when nothing reads it before the tree.
  TreeCombination T = runTree(R"cu(
  float early = partial[3];
  __syncthreads();
  for (int s = 4; s > 0; s /= 2) {
    if (tid < s)
      partial[tid] += partial[tid + s];
    __syncthreads();
  }
  Y[1] = early;)cu");
  ASSERT_EQ(T.unmodelled, "");
  EXPECT_TRUE(T.filledSlotsRead);
}

TEST(TreeReduction, TreeStartingTooLowLeavesTheUpperThreadsOut) {
  TreeCombination T = runTree(R"cu(
  for (int s = 2; s > 0; s /= 2) {
    if (tid < s)
      partial[tid] = partial[tid] + partial[tid + s];
    __syncthreads();
  })cu");
  EXPECT_EQ(T.times, times({1, 1, 1, 1, 0, 0, 0, 0}));
}

TEST(TreeReduction, StrideRepeatedWithoutARaceCountsThreadsTwice) {
  // Strides 4, 3, 2, 1: slot 1 adds slot 4 at stride 3 after slot 0 did
  // at stride 4.
  TreeCombination T = runTree(R"cu(
  for (int s = 4; s > 0; s = s > 2 ? s - 1 : s / 2) {
    if (tid < s)
      partial[tid] += partial[tid + s];
    __syncthreads();
  })cu");
  ASSERT_EQ(T.unmodelled, "");
  EXPECT_EQ(T.times[4], 2u);
  EXPECT_EQ(T.times[0], 1u);
}

TEST(TreeReduction, GuardOnAParameterIsNotFollowed) {
  TreeCombination T = runTree(R"cu(
  for (int s = 4; s > 0; s /= 2) {
    if (tid < s && tid + s < n)
      partial[tid] += partial[tid + s];
    __syncthreads();
  })cu");
  EXPECT_NE(T.unmodelled.find("guard depends on more than"), std::string::npos) << T.unmodelled;
}

TEST(TreeReduction, SlotReadAndWrittenInOneLevelIsNotFollowed) {
  TreeCombination T = runTree(R"cu(
  for (int s = 2; s > 0; s /= 2) {
    if (tid <= s)
      partial[tid] += partial[tid + s];
    __syncthreads();
  })cu");
  EXPECT_NE(T.unmodelled.find("in one level"), std::string::npos) << T.unmodelled;
}

TEST(TreeReduction, LevelWithoutABarrierIsNoTree) {
  TreeCombination T = runTree(R"cu(
  for (int s = 4; s > 0; s /= 2)
    if (tid < s)
      partial[tid] += partial[tid + s];)cu");
  EXPECT_NE(T.unmodelled, "");
  EXPECT_TRUE(T.times.empty());
}

} // namespace
} // namespace ave::inv
