// Float scalar parameters: --param values, their roles, and the refusals
// that keep the reference honest (no value, no role, a value of 0 or 1).

#include "ave/harness/ScalarBinding.h"

#include "KernelSpecLoader.h"

#include "gtest/gtest.h"

namespace ave::harness {
namespace {

using testing::loadSpec;

TEST(ScalarBindingTest, ParsesParamList) {
  std::string error;
  auto values = parseParamText("alpha=1.5, beta = -0.25,gamma=2e-3", error);
  ASSERT_TRUE(values) << error;
  EXPECT_EQ(values->at("alpha"), 1.5);
  EXPECT_EQ(values->at("beta"), -0.25);
  EXPECT_EQ(values->at("gamma"), 2e-3);
  EXPECT_FALSE(parseParamText("alpha", error));
  EXPECT_NE(error.find("NAME=VALUE"), std::string::npos);
  EXPECT_FALSE(parseParamText("alpha=x", error));
  EXPECT_FALSE(parseParamText("alpha=1.5x", error));
  EXPECT_FALSE(parseParamText("alpha=inf", error));
  EXPECT_FALSE(parseParamText("alpha=1,alpha=2", error));
  EXPECT_NE(error.find("twice"), std::string::npos);
}

TEST(ScalarBindingTest, VectorScaleAlphaIsAnOutputScale) {
  BenchSpecResult r = loadSpec("testdata/vector_scale.hip", "vector_scale");
  ASSERT_TRUE(r.spec) << r.error;
  std::string error;
  auto bound = bindScalars(*r.spec, {{"alpha", 0.1}}, {"alpha"}, "", false, error);
  ASSERT_TRUE(bound) << error;
  ASSERT_EQ(bound->size(), 1u);
  EXPECT_EQ((*bound)[0].name, "alpha");
  EXPECT_EQ((*bound)[0].role, ScalarRole::OutputScale);
  // The reference uses the float the kernel receives, not the decimal 0.1.
  EXPECT_EQ((*bound)[0].value, double(0.1f));
  EXPECT_NE((*bound)[0].value, 0.1);
}

TEST(ScalarBindingTest, RefusesWhatWouldMakeTheCheckMeaningless) {
  BenchSpecResult r = loadSpec("testdata/vector_scale.hip", "vector_scale");
  ASSERT_TRUE(r.spec) << r.error;
  const BenchSpec &spec = *r.spec;
  std::string error;
  // No value: the tool does not pick one.
  EXPECT_FALSE(bindScalars(spec, {}, {"alpha"}, "", false, error));
  EXPECT_NE(error.find("--param alpha=VALUE"), std::string::npos) << error;
  // A value but no role: the einsum cannot see alpha.
  EXPECT_FALSE(bindScalars(spec, {{"alpha", 1.5}}, {}, "", false, error));
  EXPECT_NE(error.find("--scales-output alpha"), std::string::npos) << error;
  // 1 and 0 pass a kernel that ignores alpha (or zero everything).
  EXPECT_FALSE(bindScalars(spec, {{"alpha", 1.0}}, {"alpha"}, "", false, error));
  EXPECT_NE(error.find("0 or 1"), std::string::npos) << error;
  EXPECT_FALSE(bindScalars(spec, {{"alpha", 0.0}}, {"alpha"}, "", false, error));
  // Names that are no float parameter.
  EXPECT_FALSE(bindScalars(spec, {{"alpha", 1.5}, {"R", 2}}, {"alpha"}, "", false, error));
  EXPECT_NE(error.find("--shape"), std::string::npos) << error;
  EXPECT_FALSE(bindScalars(spec, {{"alpha", 1.5}}, {"beta"}, "", false, error));
  // A score scale belongs to attention.
  EXPECT_FALSE(bindScalars(spec, {{"alpha", 1.5}}, {}, "alpha", false, error));
  EXPECT_NE(error.find("--einsum attention"), std::string::npos) << error;
}

TEST(ScalarBindingTest, AttentionScaleIsAScoreScale) {
  BenchSpecResult r = loadSpec("testdata/attention_fwd.hip", "attention_fwd");
  ASSERT_TRUE(r.spec) << r.error;
  std::string error;
  auto bound = bindScalars(*r.spec, {{"scale", 0.125}}, {}, "scale", true, error);
  ASSERT_TRUE(bound) << error;
  EXPECT_EQ((*bound)[0].role, ScalarRole::ScoreScale);
  EXPECT_EQ((*bound)[0].value, 0.125);
  // Without a role, attention names both ways of declaring it.
  EXPECT_FALSE(bindScalars(*r.spec, {{"scale", 0.125}}, {}, "", true, error));
  EXPECT_NE(error.find("--score-scale scale"), std::string::npos) << error;
  EXPECT_FALSE(bindScalars(*r.spec, {{"scale", 0.125}}, {"scale"}, "scale", true, error));
}

} // namespace
} // namespace ave::harness
