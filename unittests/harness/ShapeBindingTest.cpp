// --shape parsing and expression evaluation (pure, no Clang).

#include "ave/harness/ShapeBinding.h"

#include "gtest/gtest.h"

namespace ave::harness {
namespace {

TEST(ShapeBindingTest, ParsesNameValueList) {
  std::string error;
  auto b = parseShapeText(" M=4096, N = 0x100,K=64 ", error);
  ASSERT_TRUE(b) << error;
  EXPECT_EQ(b->at("M"), 4096);
  EXPECT_EQ(b->at("N"), 256);
  EXPECT_EQ(b->at("K"), 64);
}

TEST(ShapeBindingTest, RejectsMalformedShapes) {
  std::string error;
  EXPECT_FALSE(parseShapeText("M=4096,N", error));
  EXPECT_NE(error.find("NAME=VALUE"), std::string::npos);
  EXPECT_FALSE(parseShapeText("M=-1", error));
  EXPECT_FALSE(parseShapeText("M=12x", error));
  EXPECT_FALSE(parseShapeText("M=1,M=2", error));
  EXPECT_NE(error.find("twice"), std::string::npos);
  EXPECT_FALSE(parseShapeText("3M=1", error));
}

TEST(ShapeBindingTest, EvaluatesWithCSemantics) {
  auto expr = ann::parseExpression("(N / 16) * 2 + -7 / 2 + (M % 16 == 0 && K >= 16)");
  ASSERT_TRUE(expr);
  std::string error;
  auto v = evaluate(*expr, {{"N", 4096}, {"M", 32}, {"K", 16}}, error);
  ASSERT_TRUE(v) << error;
  EXPECT_EQ(*v, 512 - 3 + 1);
  EXPECT_FALSE(evaluate(*expr, {{"N", 4096}}, error));
  EXPECT_NE(error.find("'M'"), std::string::npos);
  auto div = ann::parseExpression("N / M");
  EXPECT_FALSE(evaluate(*div, {{"N", 1}, {"M", 0}}, error));
  EXPECT_NE(error.find("division by zero"), std::string::npos);
}

} // namespace
} // namespace ave::harness
