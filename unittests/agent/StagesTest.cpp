// The verification stages on hand-made snapshots: races compare by the pair
// of accesses (a new race no longer hides behind a known one on the same
// array), the capacity check counts dynamic shared memory, a vector access
// of a rewritten array fails the alignment check, and an obligation the
// original leaves unproven refuses the rewrite unless it is allowed.
#include "VerificationStages.h"

#include <gtest/gtest.h>

namespace ave::agent::stages {
namespace {

KernelSnapshot kernel(const std::string &Name) {
  KernelSnapshot K;
  K.kernel = Name;
  K.racesChecked = true;
  return K;
}

RaceOutcome race(const std::string &Key, const std::string &Message) {
  RaceOutcome R;
  R.array = "tile";
  R.key = Key;
  R.message = Message;
  return R;
}

TEST(Stages, ARaceMovedToAnotherPairOfAccessesIsNew) {
  KernelSnapshot Old = kernel("k"), New = kernel("k");
  Old.races.push_back(race("tile#0 & tile#1", "threads (0,0,0) and (1,0,0) race on tile[0][0]"));
  New.races.push_back(race("tile#0 & tile#2", "threads (0,0,0) and (2,0,0) race on tile[0][1]"));
  StageResult S = compareRaces({Old}, {New});
  EXPECT_EQ(S.status, StageStatus::Failed) << S.message;
  ASSERT_EQ(S.evidence.size(), 1u);
  EXPECT_NE(S.evidence[0].find("race on tile[0][1]"), std::string::npos);
  EXPECT_EQ(S.failedKernels, std::set<std::string>{"k"});
}

TEST(Stages, TheSameRaceWithAnotherWitnessIsNotNew) {
  KernelSnapshot Old = kernel("k"), New = kernel("k");
  Old.races.push_back(race("tile#0 & tile#1", "threads (0,0,0) and (1,0,0) race on tile[0][0]"));
  New.races.push_back(race("tile#0 & tile#1", "threads (3,0,0) and (1,2,0) race on tile[5][7]"));
  StageResult S = compareRaces({Old}, {New});
  EXPECT_EQ(S.status, StageStatus::Passed) << S.message;
}

TEST(Stages, AnAccessTheRaceCheckNoLongerFollowsFails) {
  KernelSnapshot Old = kernel("k"), New = kernel("k");
  New.raceSkipped.insert("tile#3");
  StageResult S = compareRaces({Old}, {New});
  EXPECT_EQ(S.status, StageStatus::Failed);
  EXPECT_NE(S.message.find("1 access(es) no longer checked"), std::string::npos) << S.message;
}

KernelSnapshot withLds(uint64_t StaticBytes, bool Dynamic, std::optional<uint64_t> DynamicBytes) {
  KernelSnapshot K = kernel("k");
  K.staticLdsBytes = StaticBytes;
  K.dynamicLds = Dynamic;
  K.dynamicLdsBytes = DynamicBytes;
  SharedArrayFootprint F;
  F.name = "tile";
  K.sharedArrays.push_back(F);
  return K;
}

const KernelArrays Tile = {{"k", "tile"}};

TEST(Stages, CapacityCountsDynamicSharedMemory) {
  // 33 KiB static after padding + 32 KiB dynamic: over gfx942's 64 KiB.
  StageResult Over = checkLdsFootprint({withLds(32768, true, 32768)}, {withLds(33792, true, 32768)},
                                       Tile, frontend::Target::Gfx942, std::nullopt);
  EXPECT_EQ(Over.status, StageStatus::Failed) << Over.message;
  // The same static growth fits with 16 KiB of dynamic memory.
  StageResult Fits = checkLdsFootprint({withLds(32768, true, 16384)}, {withLds(33792, true, 16384)},
                                       Tile, frontend::Target::Gfx942, std::nullopt);
  EXPECT_EQ(Fits.status, StageStatus::Passed) << Fits.message;
  // --dynamic-lds gives the size when no launch in the file does.
  StageResult Given =
      checkLdsFootprint({withLds(32768, true, std::nullopt)}, {withLds(33792, true, std::nullopt)},
                        Tile, frontend::Target::Gfx942, uint64_t(32768));
  EXPECT_EQ(Given.status, StageStatus::Failed) << Given.message;
}

TEST(Stages, UnknownDynamicSharedMemoryRefusesOnlyAGrowingRewrite) {
  StageResult Grows =
      checkLdsFootprint({withLds(4096, true, std::nullopt)}, {withLds(4224, true, std::nullopt)},
                        Tile, frontend::Target::Gfx942, std::nullopt);
  EXPECT_EQ(Grows.status, StageStatus::Failed);
  ASSERT_FALSE(Grows.evidence.empty());
  EXPECT_NE(Grows.evidence[0].find("--dynamic-lds"), std::string::npos) << Grows.evidence[0];
  StageResult Same =
      checkLdsFootprint({withLds(4096, true, std::nullopt)}, {withLds(4096, true, std::nullopt)},
                        Tile, frontend::Target::Gfx942, std::nullopt);
  EXPECT_EQ(Same.status, StageStatus::Passed) << Same.message;
}

TEST(Stages, AVectorAccessOfARewrittenArrayFailsTheAlignmentCheck) {
  KernelSnapshot New = withLds(4224, false, std::nullopt);
  New.sharedArrays[0].vectorAccesses.push_back({"8-byte", {"k.hip", 12, 5}});
  StageResult S = checkLdsFootprint({withLds(4096, false, std::nullopt)}, {New}, Tile,
                                    frontend::Target::Gfx942, std::nullopt);
  EXPECT_EQ(S.status, StageStatus::Failed);
  ASSERT_FALSE(S.evidence.empty());
  EXPECT_NE(S.evidence[0].find("k.hip:12:5: k: a 8-byte vector access of 'tile'"),
            std::string::npos)
      << S.evidence[0];
}

ObligationOutcome obligation(inv::SolverResult::Status Status) {
  ObligationOutcome O;
  O.kind = "assertion";
  O.summary = "assert tag(v) == X(r, c)";
  O.status = Status;
  O.message = Status == inv::SolverResult::Proven ? "" : "'v' carries no tag";
  return O;
}

TEST(Stages, AnUnprovenObligationOfTheOriginalRefusesUnlessAllowed) {
  KernelSnapshot Old = kernel("k"), New = kernel("k");
  Old.obligations = {obligation(inv::SolverResult::Proven), obligation(inv::SolverResult::Unknown)};
  New.obligations = Old.obligations;
  StageResult Refused = compareInvariants({Old}, {New}, Tile, /*AllowUnproven=*/false);
  EXPECT_EQ(Refused.status, StageStatus::Failed);
  EXPECT_NE(Refused.message.find("unproven on the original"), std::string::npos) << Refused.message;
  StageResult Allowed = compareInvariants({Old}, {New}, Tile, /*AllowUnproven=*/true);
  EXPECT_EQ(Allowed.status, StageStatus::Passed) << Allowed.message;
  EXPECT_NE(Allowed.message.find("ALLOWED 1"), std::string::npos) << Allowed.message;
  EXPECT_EQ(Allowed.data["allowed_unproven"], 1);
  // A kernel the rewrite does not touch does not count.
  StageResult Untouched = compareInvariants({Old}, {New}, {{"other", "tile"}}, false);
  EXPECT_EQ(Untouched.status, StageStatus::Passed) << Untouched.message;
}

} // namespace
} // namespace ave::agent::stages
