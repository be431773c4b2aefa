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

} // namespace
} // namespace ave::agent::stages
