#include "ave/optimize/Planner.h"

#include "ave/optimize/Optimizer.h"

#include "llvm/Support/FileSystem.h"

#include <gtest/gtest.h>

namespace {

using namespace ave::opt;

Recipe recipe(const std::string &Name, const std::string &Family,
              std::vector<std::pair<std::string, std::vector<std::string>>> Params) {
  Recipe R;
  R.name = Name;
  R.family = Family;
  R.targets = "lds";
  R.parameters = std::move(Params);
  return R;
}

TEST(Planner, ParameterSetsStartFromTheFirstValuesThenOneChangeAtATime) {
  Recipe R = recipe("register-tile", "tiling", {{"tm", {"8", "4"}}, {"bm", {"128", "64"}}});
  std::vector<ave::rw::ParameterValues> Sets = parameterSets(R);
  ASSERT_EQ(Sets.size(), 4u);
  EXPECT_EQ(Sets[0], (ave::rw::ParameterValues{{"tm", "8"}, {"bm", "128"}}));
  EXPECT_EQ(Sets[1], (ave::rw::ParameterValues{{"tm", "4"}, {"bm", "128"}}));
  EXPECT_EQ(Sets[2], (ave::rw::ParameterValues{{"tm", "8"}, {"bm", "64"}}));
  EXPECT_EQ(Sets[3], (ave::rw::ParameterValues{{"tm", "4"}, {"bm", "64"}}));
}

TEST(Planner, Preconditions) {
  Recipe R = recipe("pipeline", "latency", {});
  R.preconditions = {"staged-k-loop"};
  R.excludes = {"mfma"};
  EXPECT_EQ(preconditionFailure(R, {}), "needs staged-k-loop");
  EXPECT_EQ(preconditionFailure(R, {"staged-k-loop"}), "");
  EXPECT_EQ(preconditionFailure(R, {"staged-k-loop", "mfma"}), "not for a kernel with mfma");
}

struct PlannerFixture : ::testing::Test {
  KnowledgeBase kb;
  Lineage lineage;
  KernelFacts facts;
  BanditState bandit;
  std::string dir;

  void SetUp() override {
    llvm::SmallString<128> D;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("ave-planner-test", D));
    dir = std::string(D);
    lineage = Lineage(dir, "k.hip");
    Member Root;
    Root.id = "g0";
    Root.text = "text";
    ASSERT_EQ(lineage.commit(Root), "");
    Recipe P = recipe("pipeline", "latency", {{"stages", {"2", "3", "4"}}});
    P.repairs = {{"invariants", "vary", {"stages"}}};
    P.expectedSpeedup = 1.2;
    Recipe T = recipe("register-tile", "tiling", {{"bm", {"128", "64", "32"}}});
    T.repairs = {{"LDS", "shrink", {"bm"}}};
    T.expectedSpeedup = 4;
    T.oncePerLine = true;
    kb.recipes = {P, T};
  }
  void TearDown() override { llvm::sys::fs::remove_directories(dir); }

  std::vector<Action> plan(const std::string &Parent, unsigned Wanted) {
    std::mt19937_64 Rng(1);
    PlanRequest R{kb, lineage, *lineage.find(Parent), facts, bandit, "lds", {}, Wanted, &Rng};
    return planActions(R);
  }
  void attempt(const std::string &Parent, const std::string &Apply, const std::string &Status,
               const std::string &Stage, const std::string &Reason) {
    Attempt A;
    A.parent = Parent;
    auto Colon = Apply.find(':');
    A.action.recipe = Apply.substr(0, Colon);
    auto Eq = Apply.find('=');
    A.action.parameters[Apply.substr(Colon + 1, Eq - Colon - 1)] = Apply.substr(Eq + 1);
    A.status = Status, A.stage = Stage, A.reason = Reason;
    ASSERT_EQ(lineage.record(A), "");
  }
};

TEST_F(PlannerFixture, RanksByPriorAndSortsTheChoice) {
  std::vector<Action> A = plan("g0", 2);
  ASSERT_EQ(A.size(), 2u);
  // Both recipes' first sets, in --apply order.
  EXPECT_EQ(A[0].apply(), "pipeline:stages=2");
  EXPECT_EQ(A[1].apply(), "register-tile:bm=128");
  // With one slot, the larger expected speedup wins.
  std::vector<Action> One = plan("g0", 1);
  ASSERT_EQ(One.size(), 1u);
  EXPECT_EQ(One[0].recipe, "register-tile");
}

TEST_F(PlannerFixture, RejectionsAreRepairedAndNeverRetried) {
  attempt("g0", "pipeline:stages=2", "rejected", "invariants", "1 obligation violated");
  attempt("g0", "register-tile:bm=128", "rejected", "lds-footprint",
          "LDS 70000 B above the 65536 B");
  std::vector<Action> A = plan("g0", 4);
  ASSERT_GE(A.size(), 2u);
  EXPECT_EQ(A[0].apply(), "pipeline:stages=3");
  EXPECT_EQ(A[0].origin, "repair");
  EXPECT_EQ(A[1].apply(), "register-tile:bm=64"); // shrink: the nearest smaller
  EXPECT_NE(A[1].why.find("rule 'LDS' -> shrink bm"), std::string::npos) << A[1].why;
  for (const Action &X : A)
    EXPECT_NE(X.apply(), "pipeline:stages=2");
}

TEST_F(PlannerFixture, OncePerLineRecipesAreNotRepeated) {
  Member Child;
  Child.id = "g1-c0";
  Child.parent = "g0";
  Child.text = "tiled";
  Action A;
  A.recipe = "register-tile";
  A.parameters = {{"bm", "128"}};
  Child.action = A;
  ASSERT_EQ(lineage.commit(Child), "");
  for (const Action &X : plan("g1-c0", 4))
    EXPECT_NE(X.recipe, "register-tile") << X.apply();
}

TEST_F(PlannerFixture, LineageReloadsWithItsAttempts) {
  attempt("g0", "pipeline:stages=2", "slower", "", "-3%");
  Lineage Again(dir, "k.hip");
  ASSERT_EQ(Again.load(), "");
  ASSERT_EQ(Again.members().size(), 1u);
  EXPECT_EQ(Again.root().text, "text");
  Action Tried;
  Tried.recipe = "pipeline";
  Tried.parameters = {{"stages", "2"}};
  EXPECT_TRUE(Again.tried("g0", Tried));
  Tried.parameters["stages"] = "3";
  EXPECT_FALSE(Again.tried("g0", Tried));
}

TEST(Budget, Parses) {
  double S = 0;
  unsigned N = 0;
  std::string E;
  ASSERT_TRUE(parseBudget("10m,40", S, N, E)) << E;
  EXPECT_EQ(S, 600);
  EXPECT_EQ(N, 40u);
  ASSERT_TRUE(parseBudget("90s", S, N, E));
  EXPECT_EQ(S, 90);
  EXPECT_FALSE(parseBudget("ten minutes", S, N, E));
  EXPECT_NE(E.find("--budget"), std::string::npos);
}

TEST(Bandit, RewardsMoveTheBound) {
  BanditState B;
  const double Before = B.upperBound("pipeline", "gemm-fp32", 0.1);
  B.update("pipeline", "gemm-fp32", 1.0);
  EXPECT_GT(B.upperBound("pipeline", "gemm-fp32", 0.1), Before - 0.2);
  B.update("unroll", "gemm-fp32", -0.2);
  B.update("unroll", "gemm-fp32", -0.2);
  EXPECT_LT(B.upperBound("unroll", "gemm-fp32", 0.1), B.upperBound("pipeline", "gemm-fp32", 0.1));
  EXPECT_EQ(B.arm("unroll", "gemm-fp32").pulls, 2u);
  EXPECT_EQ(B.arm("unroll", "copy").pulls, 0u);
}

} // namespace
