#include "ave/agent/IsaProfile.h"

#include "ave/optimize/StaticCost.h"

#include <gtest/gtest.h>

namespace {

using ave::agent::IsaLoopProfile;
using ave::agent::kernelAssembly;
using ave::agent::profileHotLoop;

// The shape LLVM writes: loop headers and blocks carry loop comments.
constexpr const char *TwoLoops = R"(_Z1kPf:                                ; @_Z1kPf
	s_load_dwordx2 s[0:1], s[4:5], 0x0
	v_mov_b32_e32 v1, 0
.LBB0_1:                                ; =>This Loop Header: Depth=1
	global_load_dword v2, v[4:5], off
	s_waitcnt vmcnt(0)
.LBB0_2:                                ;   Parent Loop BB0_1 Depth=1
                                        ; =>  This Inner Loop Header: Depth=2
	ds_read_b128 v[8:11], v3
	ds_read2_b32 v[12:13], v6 offset1:16
	s_waitcnt lgkmcnt(0)
	v_fmac_f32_e32 v1, v8, v12
	v_pk_fma_f32 v[14:15], v[8:9], v[12:13], v[14:15]
	s_cbranch_scc1 .LBB0_2
; %bb.3:                                ;   in Loop: Header=BB0_1 Depth=1
	ds_write_b32 v7, v2
	s_barrier
	s_cbranch_scc0 .LBB0_1
; %bb.4:
	global_store_dword v[4:5], v1, off
	s_endpgm
.Lfunc_end0:
_Z1gPf:
	v_mfma_f32_16x16x16f16 a[0:3], v[0:1], v[2:3], a[0:3]
	s_endpgm
.Lfunc_end1:
)";

TEST(IsaProfile, HotLoopIsTheInnermostWithTheMostWork) {
  IsaLoopProfile P = profileHotLoop(kernelAssembly(TwoLoops, "_Z1kPf"));
  ASSERT_TRUE(P.found);
  EXPECT_TRUE(P.loop);
  EXPECT_EQ(P.header, ".LBB0_2");
  EXPECT_EQ(P.depth, 2u);
  // v_fmac: 2 x 64, v_pk_fma_f32: 4 x 64.
  EXPECT_DOUBLE_EQ(P.flops, 6 * 64);
  EXPECT_DOUBLE_EQ(P.ldsReadBytes, (16 + 8) * 64);
  EXPECT_DOUBLE_EQ(P.globalLoadBytes, 0); // in the outer loop, not the hot one
  EXPECT_EQ(P.ldsWaits, 1u);
  EXPECT_EQ(P.memoryWaits, 0u);
  EXPECT_DOUBLE_EQ(P.valuCycles, 8);
}

TEST(IsaProfile, StraightLineKernelIsProfiledWhole) {
  IsaLoopProfile P = profileHotLoop(kernelAssembly(TwoLoops, "_Z1gPf"));
  ASSERT_TRUE(P.found);
  EXPECT_FALSE(P.loop);
  EXPECT_DOUBLE_EQ(P.flops, 2.0 * 16 * 16 * 16);
  EXPECT_DOUBLE_EQ(P.mfmaCycles, 8192.0 / 512);
}

TEST(IsaProfile, WidenedHalfFmasAreFlops) {
  ave::agent::IsaLoopProfile P = profileHotLoop(
      "_Z1hv:\n.LBB0_1: ; =>This Inner Loop Header: Depth=1\n"
      "\tv_fma_mix_f32 v1, v2, v3, v1 op_sel_hi:[1,1,0]\n\ts_cbranch_scc1 .LBB0_1\n");
  EXPECT_DOUBLE_EQ(P.flops, 2 * 64);
}

TEST(IsaProfile, MissingKernelIsNotFound) {
  EXPECT_TRUE(kernelAssembly(TwoLoops, "_Z1hPf").empty());
  EXPECT_FALSE(profileHotLoop("").found);
}

ave::opt::CostInputs gemmLoop() {
  ave::opt::CostInputs In;
  In.loop.found = In.loop.loop = true;
  In.loop.instructions = 40;
  In.loop.flops = 16 * 2 * 64;
  In.loop.valuCycles = 16 * 4;
  In.loop.ldsReadBytes = 32 * 4 * 64;
  In.loop.globalLoadBytes = 2 * 4 * 64;
  In.vgprs = 40;
  In.ldsBytes = 2048;
  In.threadsPerBlock = 256;
  return In;
}

TEST(StaticCost, BankConflictsSlowAnLdsBoundLoop) {
  ave::opt::CostInputs In = gemmLoop();
  ave::opt::CostEstimate Free = ave::opt::estimateCost(In);
  ASSERT_TRUE(Free.valid);
  EXPECT_EQ(Free.bound, "lds");
  In.ldsReadDegree = 4;
  ave::opt::CostEstimate Conflicted = ave::opt::estimateCost(In);
  EXPECT_NEAR(Conflicted.workPerClockPerCu * 4, Free.workPerClockPerCu,
              Free.workPerClockPerCu * 0.3);
  EXPECT_LT(Conflicted.modeledGflops, Free.modeledGflops);
}

TEST(StaticCost, RegistersLimitOccupancy) {
  ave::opt::CostInputs In = gemmLoop();
  EXPECT_EQ(ave::opt::estimateCost(In).wavesPerCu, 32); // 8 waves per SIMD
  In.vgprs = 256;                                       // 2 waves per SIMD
  ave::opt::CostEstimate E = ave::opt::estimateCost(In);
  EXPECT_EQ(E.wavesPerCu, 8);
  EXPECT_EQ(E.occupancyLimit, "vgprs");
  In.ldsBytes = 40000; // one block of 4 waves
  EXPECT_EQ(ave::opt::estimateCost(In).wavesPerCu, 4);
}

TEST(StaticCost, FewWavesExposeMemoryLatency) {
  ave::opt::CostInputs In = gemmLoop();
  In.loop.memoryWaits = 2;
  In.vgprs = 512;
  ave::opt::CostEstimate E = ave::opt::estimateCost(In);
  EXPECT_EQ(E.bound, "latency");
  EXPECT_GE(E.latencyCycles, 1000);
}

TEST(StaticCost, NoWorkIsNotRated) {
  ave::opt::CostInputs In;
  EXPECT_FALSE(ave::opt::estimateCost(In).valid);
  In.loop.found = true;
  In.loop.instructions = 3;
  ave::opt::CostEstimate E = ave::opt::estimateCost(In);
  EXPECT_FALSE(E.valid);
  EXPECT_NE(E.reason.find("neither"), std::string::npos);
}

} // namespace
