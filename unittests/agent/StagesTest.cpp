// The verification stages on hand-made snapshots: races compare by the pair
// of accesses (a new race no longer hides behind a known one on the same
// array), the capacity check counts dynamic shared memory, a vector access
// of a rewritten array fails the alignment check, and an obligation the
// original leaves unproven refuses the rewrite unless it is allowed, and
// every obligation of the original must be on the patched kernel (matched
// by kind and position carried through the patch).
#include "VerificationStages.h"

#include "clang/Tooling/Core/Replacement.h"

#include <gtest/gtest.h>
#include <tuple>

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

TEST(Stages, AViolationTheRewriteProvesAwayStillRefusesAMovingRewrite) {
  // A pipeline, unroll or register-tile rewrite has no layout pairs: its
  // kernel comes as Moved. Its original's violated obligation, proven on
  // the patched kernel (a regenerated body that sums what the original
  // skipped), refuses the rewrite: it computes something else.
  KernelSnapshot Old = kernel("k"), New = kernel("k");
  Old.obligations = {obligation(inv::SolverResult::Violated)};
  New.obligations = {obligation(inv::SolverResult::Proven)};
  StageResult S = compareInvariants({Old}, {New}, {}, false, PatchPositions(), {"k"});
  EXPECT_EQ(S.status, StageStatus::Failed) << S.message;
  EXPECT_NE(S.message.find("1 obligation(s) of a rewritten kernel unproven on the original"),
            std::string::npos)
      << S.message;
  EXPECT_EQ(compareInvariants({Old}, {New}, {}, false).status, StageStatus::Passed);
}

ObligationOutcome at(const char *Kind, unsigned Line, unsigned Column,
                     inv::SolverResult::Status Status = inv::SolverResult::Proven) {
  ObligationOutcome O;
  O.kind = Kind;
  O.summary = std::string(Kind) + " at " + std::to_string(Line);
  O.status = Status;
  O.location = {"k.hip", Line, Column};
  return O;
}

clang::tooling::Replacements
edits(const std::vector<std::tuple<unsigned, unsigned, std::string>> &List) {
  clang::tooling::Replacements R;
  for (const auto &[Offset, Length, Text] : List)
    EXPECT_FALSE(bool(R.add(clang::tooling::Replacement("k.hip", Offset, Length, Text))));
  return R;
}

// The defect: lds-swizzle was accepted on a kernel whose obligations went
// from 8 proven to 6 (the analysis no longer saw two shared reads' writer);
// the count of proven obligations after the patch is no evidence.
TEST(Stages, AnObligationMissingFromThePatchedKernelRejects) {
  // "  x = t[r][c];\n  y = t[c][r];\n" with `c` swizzled on both lines.
  const std::string Original = "__shared__ float t[32][32];\n  x = t[r][c];\n  y = t[c][r];\n";
  clang::tooling::Replacements Swizzle =
      edits({{39, 1, "(c ^ (r))"}, {51, 1, "(c ^ (r))"}}); // line 2 col 12, line 3 col 9
  auto Patched = clang::tooling::applyAllReplacements(Original, Swizzle);
  ASSERT_TRUE(bool(Patched));
  PatchPositions Positions("k.hip", Original, *Patched, {Swizzle});
  KernelSnapshot Old = kernel("k"), New = kernel("k");
  Old.obligations = {at("lds-read-written", 2, 7), at("lds-read-written", 3, 7),
                     at("assertion", 3, 3)};
  // After: the second read's obligation is gone; the assertion moved along
  // its line only by the edit before it (none here).
  New.obligations = {at("lds-read-written", 2, 7), at("assertion", 3, 3)};
  StageResult S = compareInvariants({Old}, {New}, Tile, false, Positions);
  EXPECT_EQ(S.status, StageStatus::Failed) << S.message;
  ASSERT_EQ(S.evidence.size(), 1u);
  EXPECT_NE(S.evidence[0].find("k.hip:3:7: k: lds-read-written"), std::string::npos)
      << S.evidence[0];
  EXPECT_NE(S.evidence[0].find("missing from the patched kernel"), std::string::npos);
  EXPECT_EQ(S.data["lost"], 1);
  // With both obligations there it passes.
  New.obligations = {at("lds-read-written", 2, 7), at("lds-read-written", 3, 7),
                     at("assertion", 3, 3)};
  EXPECT_EQ(compareInvariants({Old}, {New}, Tile, false, Positions).status, StageStatus::Passed);
}

TEST(Stages, ObligationsMatchAtTheirPositionCarriedThroughThePatch) {
  // Line 1 grows by a padding edit; an obligation later on the line moves
  // right, and one of another kind at the old column does not stand for it.
  const std::string Original = "float t[32][32]; a = t[x][y];\n";
  clang::tooling::Replacements Pad = edits({{12, 2, "32 + 1"}});
  auto Patched = clang::tooling::applyAllReplacements(Original, Pad);
  ASSERT_TRUE(bool(Patched));
  PatchPositions Positions("k.hip", Original, *Patched, {Pad});
  KernelSnapshot Old = kernel("k"), New = kernel("k");
  Old.obligations = {at("lds-read-written", 1, 22)};
  New.obligations = {at("assertion", 1, 22), at("lds-read-written", 1, 26)};
  StageResult Moved = compareInvariants({Old}, {New}, Tile, false, Positions);
  EXPECT_EQ(Moved.status, StageStatus::Passed) << Moved.message;
  // At the old column only: not the same place.
  New.obligations = {at("lds-read-written", 1, 22)};
  EXPECT_EQ(compareInvariants({Old}, {New}, Tile, false, Positions).status, StageStatus::Failed);
  // The counterpart is there but no longer proven.
  New.obligations = {at("lds-read-written", 1, 26, inv::SolverResult::Unknown)};
  StageResult Lost = compareInvariants({Old}, {New}, Tile, false, Positions);
  EXPECT_EQ(Lost.status, StageStatus::Failed);
  EXPECT_EQ(Lost.data["lost"], 1);
}

TEST(Stages, PatchPositionsSpreadAPositionOverTheTextThatReplacedIt) {
  const std::string Original = "ab\ncd[e]\n";
  clang::tooling::Replacements Step1 = edits({{6, 1, "(e ^ m)"}}); // e -> (e ^ m)
  auto Mid = clang::tooling::applyAllReplacements(Original, Step1);
  ASSERT_TRUE(bool(Mid));
  clang::tooling::Replacements Step2 = edits({{0, 0, "// x\n"}}); // a line above
  auto Patched = clang::tooling::applyAllReplacements(*Mid, Step2);
  ASSERT_TRUE(bool(Patched));
  PatchPositions P("k.hip", Original, *Patched, {Step1, Step2});
  PatchPositions::Span C = P.map({"k.hip", 2, 1}); // 'c': only moved down
  ASSERT_TRUE(C.known);
  EXPECT_EQ(C.first, 8u);
  EXPECT_EQ(C.last, 8u);
  PatchPositions::Span E = P.map({"k.hip", 2, 4}); // 'e': anywhere in "(e ^ m)"
  EXPECT_EQ(E.first, 11u);
  EXPECT_EQ(E.last, 17u);
  PatchPositions::Span Close = P.map({"k.hip", 2, 5}); // ']' after the edit
  EXPECT_EQ(Close.first, 18u);
  EXPECT_FALSE(P.map({"other.h", 2, 1}).known);
  EXPECT_FALSE(P.map({"k.hip", 7, 1}).known);
}

} // namespace
} // namespace ave::agent::stages
