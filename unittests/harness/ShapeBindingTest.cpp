// --shape parsing and expression evaluation (pure, no Clang).

#include "ave/harness/ShapeBinding.h"

#include "ave/invariants/Term.h"

#include "gtest/gtest.h"
#include <random>

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

// Where the harness' own int64 evaluator used to disagree with the
// analysis: C leaves these undefined for `int`, so no shape that needs them is
// accepted (it used to compute 2^32, 2^31 and a wrapped quotient).
TEST(ShapeBindingTest, UndefinedCIntArithmeticIsAnError) {
  std::string error;
  auto product = ann::parseExpression("M * N > 0");
  EXPECT_FALSE(evaluate(*product, {{"M", 65536}, {"N", 65536}}, error));
  EXPECT_NE(error.find("overflows a C int"), std::string::npos) << error;
  EXPECT_NE(error.find("'M * N'"), std::string::npos) << error;
  error.clear();
  EXPECT_EQ(evaluate(*product, {{"M", 46340}, {"N", 46340}}, error), 1) << error;

  auto shift = ann::parseExpression("1 << S");
  EXPECT_FALSE(evaluate(*shift, {{"S", 31}}, error));
  EXPECT_NE(error.find("shift"), std::string::npos) << error;
  EXPECT_FALSE(evaluate(*shift, {{"S", 32}}, error));
  EXPECT_EQ(evaluate(*shift, {{"S", 30}}, error), 1 << 30);

  auto quotient = ann::parseExpression("A / B");
  EXPECT_FALSE(evaluate(*quotient, {{"A", -2147483647 - 1}, {"B", -1}}, error));
  EXPECT_NE(error.find("quotient overflows"), std::string::npos) << error;

  // A size outside int is no C int value at all.
  auto plain = ann::parseExpression("M + 0");
  EXPECT_FALSE(evaluate(*plain, {{"M", 3000000000}}, error));
  EXPECT_NE(error.find("does not fit in a C int"), std::string::npos) << error;

  // What C does define: truncating division, sign of the dividend, arithmetic
  // shift, and && / ?: evaluating only what C evaluates.
  auto defined = ann::parseExpression(
      "(-7 / 2 == -3) + (-7 % 2 == -1) + (-8 >> 1 == -4) + (N > 0 && K / N > 1) + (N ? K / N : 0)");
  EXPECT_EQ(evaluate(*defined, {{"N", 0}, {"K", 5}}, error), 3) << error;
}

// The annotation expression as the analysis' term (same operator names).
const inv::Term *toTerm(inv::TermContext &ctx, const ann::Expr &e) {
  switch (e.kind) {
  case ann::ExprKind::IntLiteral:
    return ctx.constant(e.value);
  case ann::ExprKind::Identifier:
    return ctx.symbol(e.name, inv::SymbolKind::Param);
  case ann::ExprKind::Unary: {
    const inv::Term *a = toTerm(ctx, e.operands[0]);
    switch (e.unaryOp) {
    case ann::UnaryOp::Negate:
      return ctx.neg(a);
    case ann::UnaryOp::LogicalNot:
      return ctx.logicalNot(a);
    case ann::UnaryOp::BitNot:
      return ctx.bitNot(a);
    }
    return nullptr;
  }
  case ann::ExprKind::Conditional:
    return ctx.select(toTerm(ctx, e.operands[0]), toTerm(ctx, e.operands[1]),
                      toTerm(ctx, e.operands[2]));
  case ann::ExprKind::Binary: {
    const inv::Term *a = toTerm(ctx, e.operands[0]), *b = toTerm(ctx, e.operands[1]);
    switch (e.binaryOp) {
    case ann::BinaryOp::Mul:
      return ctx.mul(a, b);
    case ann::BinaryOp::Div:
      return ctx.div(a, b);
    case ann::BinaryOp::Rem:
      return ctx.rem(a, b);
    case ann::BinaryOp::Add:
      return ctx.add(a, b);
    case ann::BinaryOp::Sub:
      return ctx.sub(a, b);
    case ann::BinaryOp::Shl:
      return ctx.shl(a, b);
    case ann::BinaryOp::Shr:
      return ctx.shr(a, b);
    case ann::BinaryOp::Lt:
      return ctx.lt(a, b);
    case ann::BinaryOp::Le:
      return ctx.le(a, b);
    case ann::BinaryOp::Gt:
      return ctx.gt(a, b);
    case ann::BinaryOp::Ge:
      return ctx.ge(a, b);
    case ann::BinaryOp::Eq:
      return ctx.eq(a, b);
    case ann::BinaryOp::Ne:
      return ctx.ne(a, b);
    case ann::BinaryOp::BitAnd:
      return ctx.bitAnd(a, b);
    case ann::BinaryOp::BitXor:
      return ctx.bitXor(a, b);
    case ann::BinaryOp::BitOr:
      return ctx.bitOr(a, b);
    case ann::BinaryOp::LogicalAnd:
      return ctx.logicalAnd(a, b);
    case ann::BinaryOp::LogicalOr:
      return ctx.logicalOr(a, b);
    }
    return nullptr;
  }
  default:
    return nullptr;
  }
}

// The harness and the analysis give the same value, or both none, for
// launch/assume-style expressions at sizes around the edges of int.
TEST(ShapeBindingTest, AgreesWithTheAnalysisEvaluator) {
  const char *texts[] = {"N / 16 * M",
                         "(N + 63) / 64",
                         "M * N * K",
                         "N % 16 == 0 && M % 64 == 0",
                         "1 << N",
                         "M << 4",
                         "-M >> 2",
                         "(M - N) / (K - 16)",
                         "(M - N) % (K - 16)",
                         "N > 0 ? M / N : -1",
                         "K >= 16 || M / (N - N) > 0",
                         "~M & (N | K) ^ 255",
                         "-(M * 2) + N - K"};
  const std::int64_t edges[] = {0,          1,          2,     15,         16, 31,
                                32,         46341,      65536, 2147483647, -1, -2147483647 - 1,
                                1073741824, 3000000000, -16};
  std::mt19937_64 rng(20);
  for (const char *text : texts) {
    auto expr = ann::parseExpression(text);
    ASSERT_TRUE(expr) << text;
    inv::TermContext ctx;
    const inv::Term *term = toTerm(ctx, *expr);
    ASSERT_NE(term, nullptr) << text;
    for (int trial = 0; trial < 300; ++trial) {
      Bindings values;
      inv::Assignment assignment;
      for (const char *name : {"M", "N", "K"}) {
        std::int64_t v = edges[rng() % std::size(edges)];
        values[name] = v;
        assignment[ctx.symbol(name, inv::SymbolKind::Param)] = v;
      }
      std::string error;
      std::optional<std::int64_t> ours = evaluate(*expr, values, error);
      std::optional<std::int64_t> theirs = inv::evaluate(term, assignment);
      EXPECT_EQ(ours, theirs) << text << " at M=" << values["M"] << " N=" << values["N"]
                              << " K=" << values["K"] << ": " << error;
    }
  }
}

} // namespace
} // namespace ave::harness
