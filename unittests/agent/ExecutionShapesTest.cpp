// The execution stage's shapes: the sizes it runs both kernels at must meet
// the kernel's assumptions. One value for every size (32..512) cannot meet
// `B <= 16 && N >= 64`; some sizes are then taken small.

#include "../harness/KernelSpecLoader.h"
#include "ExecutionStage.h"

#include <gtest/gtest.h>

namespace ave::agent::stages {
namespace {

TEST(ExecutionShapes, SmallBatchBesideALongSequence) {
  harness::BenchSpecResult R =
      harness::testing::loadSpec("testdata/attention/flash_fwd_f16.hip", "flash_fwd");
  ASSERT_TRUE(R.spec) << R.error;
  ExecutionShapes S = chooseExecutionShapes(*R.spec);
  ASSERT_EQ(S.error, "");
  std::string Error;
  EXPECT_EQ(harness::violatedAssumption(*R.spec, S.given, Error), "") << S.given.text();
  EXPECT_EQ(harness::violatedAssumption(*R.spec, S.odd, Error), "") << S.odd.text();
  EXPECT_NE(S.given.values, S.odd.values);
}

TEST(ExecutionShapes, RoundSizesFirst) {
  harness::BenchSpecResult R = harness::testing::loadSpec("testdata/tiled_gemm.hip", "sgemm");
  ASSERT_TRUE(R.spec) << R.error;
  ExecutionShapes S = chooseExecutionShapes(*R.spec);
  ASSERT_EQ(S.error, "");
  for (int64_t V : S.given.values)
    EXPECT_GE(V, 32) << S.given.text();
}

// A pipelined loop over K in tiles of 64 (K % 64 == 0): the plain choice
// (K = 64 in both shapes) runs it once, so its prefetch never runs; with
// the loop given, one shape runs it at least three times.
TEST(ExecutionShapes, SizedLoopsRunSeveralTimes) {
  harness::BenchSpecResult R =
      harness::testing::loadSpec("testdata/e2e/rewrite/Inputs/pipeline_tiles.hip", "draft");
  ASSERT_TRUE(R.spec) << R.error;
  ExecutionShapes Plain = chooseExecutionShapes(*R.spec);
  ASSERT_EQ(Plain.error, "");
  SizedLoop Tiles;
  Tiles.init = *ann::parseExpression("0");
  Tiles.bound = *ann::parseExpression("K");
  Tiles.step = 64;
  ASSERT_EQ(*tripsAt(Tiles, Plain.given), 1) << Plain.given.text();
  for (unsigned Min : {3u, 5u}) {
    ExecutionShapes S = chooseExecutionShapes(*R.spec, {Tiles}, Min);
    ASSERT_EQ(S.error, "");
    EXPECT_EQ(S.shortLoops, "");
    EXPECT_GE(std::max(*tripsAt(Tiles, S.given), *tripsAt(Tiles, S.odd)), int64_t(Min))
        << S.given.text() << " " << S.odd.text();
    std::string Error;
    EXPECT_EQ(harness::violatedAssumption(*R.spec, S.given, Error), "") << S.given.text();
    EXPECT_EQ(harness::violatedAssumption(*R.spec, S.odd, Error), "") << S.odd.text();
  }
}

} // namespace
} // namespace ave::agent::stages
