#include "ave/optimize/ExternalPlanner.h"

#include "CandidateRun.h"
#include "ave/agent/TextPatchRewriter.h"

#include <gtest/gtest.h>
#include <unistd.h>

namespace {

using namespace ave::opt;

TEST(PlannerAnswer, RecipesApplyChainsAndPatches) {
  PlannerAnswer A = parsePlannerAnswer(
      R"({"actions": [{"recipe": "pipeline", "parameters": {"stages": 3}},)"
      R"( {"apply": "lds-pad:pad=1,unroll"}, {"patch": "--- a/k\n", "summary": "s"}]})");
  ASSERT_EQ(A.error, "");
  ASSERT_EQ(A.actions.size(), 3u);
  EXPECT_EQ(A.actions[0].apply(), "pipeline:stages=3"); // numbers become strings
  EXPECT_EQ(A.actions[1].apply(), "lds-pad:pad=1,unroll");
  EXPECT_TRUE(A.actions[2].isPatch());
  EXPECT_EQ(A.actions[2].origin, "external");
}

TEST(PlannerAnswer, InvalidAnswersSayWhy) {
  EXPECT_EQ(parsePlannerAnswer("not json").error, "the answer is not a JSON object");
  EXPECT_EQ(parsePlannerAnswer("{}").error, "the answer has no \"actions\" array");
  EXPECT_EQ(parsePlannerAnswer(R"({"actions": [{"stages": 2}]})").error,
            "actions[0]: an action needs \"recipe\", \"apply\" or \"patch\"");
  PlannerAnswer Stop = parsePlannerAnswer(R"({"type": "stop", "reason": "done"})");
  EXPECT_TRUE(Stop.stop);
  EXPECT_EQ(Stop.stopReason, "done");
}

TEST(ExternalPlanner, AMalformedAnswerGetsOneErrorAndASecondChance) {
  ExternalPlanner P;
  // Answers garbage first; after the error message, a valid answer.
  ASSERT_EQ(P.start("read a; echo garbage; read b; case \"$b\" in *error*) "
                    "echo '{\"actions\": [{\"recipe\": \"unroll\"}]}';; esac; read c",
                    10),
            "");
  PlannerAnswer A = P.ask({{"type", "propose"}});
  EXPECT_EQ(A.error, "");
  ASSERT_EQ(A.actions.size(), 1u);
  EXPECT_EQ(A.actions[0].recipe, "unroll");
  P.finish({{"type", "end"}});
}

TEST(ExternalPlanner, APlannerThatExitsIsReported) {
  ExternalPlanner P;
  ASSERT_EQ(P.start("exit 0", 10), "");
  PlannerAnswer A = P.ask({{"type", "propose"}});
  EXPECT_FALSE(A.error.empty());
  EXPECT_FALSE(P.running());
  EXPECT_EQ(P.lostBecause(), "exited with status 0");
}

// A planner gone before the first message: the write fails, and the reason
// (its exit status) is kept for the optimizer's note (a CI run printed
// nothing because the first message was the one that failed).
TEST(ExternalPlanner, APlannerGoneBeforeTheFirstMessageIsReported) {
  ExternalPlanner P;
  ASSERT_EQ(P.start("exec 0<&-; exit 3", 10), "");
  usleep(300000);
  EXPECT_FALSE(P.send({{"type", "start"}}));
  EXPECT_FALSE(P.running());
  EXPECT_EQ(P.lostBecause(), "exited with status 3");
}

TEST(ExternalPlanner, ASilentPlannerTimesOut) {
  ExternalPlanner P;
  ASSERT_EQ(P.start("sleep 30", 1), "");
  PlannerAnswer A = P.ask({{"type", "propose"}});
  EXPECT_NE(A.error.find("did not answer within 1 s"), std::string::npos) << A.error;
  P.finish({{"type", "end"}});
}

TEST(RawPatch, AppliesAUnifiedDiff) {
  std::string Error;
  std::optional<std::string> T = applyRawPatch(
      "a\nb\nc\n", "--- a/k.hip\n+++ b/k.hip\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n", Error);
  ASSERT_TRUE(T) << Error;
  EXPECT_EQ(*T, "a\nB\nc\n");
  EXPECT_FALSE(applyRawPatch("a\nx\nc\n",
                             "--- a/k.hip\n+++ b/k.hip\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n", Error));
  EXPECT_NE(Error.find("does not apply"), std::string::npos) << Error;
  EXPECT_FALSE(applyRawPatch("a\n", "not a diff", Error));
}

TEST(RawPatch, TheSpecificationIsFrozen) {
  const std::string Before = "#pragma ave launch block(16)\n"
                             "#pragma ave assert tag(x) == A(i)\n"
                             "float *A AVE_TAG(\"A(i < N) = i\")\n";
  std::string Launch = Before;
  Launch.replace(Launch.find("16"), 2, "32");
  EXPECT_EQ(ave::agent::specificationChange(Before, Launch), "");
  std::string Weaker = Before;
  Weaker.replace(Weaker.find("tag(x) == A(i)"), 14, "1");
  EXPECT_EQ(ave::agent::specificationChange(Before, Weaker), "line 2: #pragma ave assert 1");
  std::string Dropped = "#pragma ave launch block(16)\nfloat *A AVE_TAG(\"A(i < N) = i\")\n";
  EXPECT_NE(ave::agent::specificationChange(Before, Dropped), "");
}

} // namespace
