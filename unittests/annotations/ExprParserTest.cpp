#include "ave/annotations/Expr.h"

#include <gtest/gtest.h>

namespace ave::ann {
namespace {

Expr parseOk(std::string_view text) {
  Result<Expr> parsed = parseExpression(text);
  EXPECT_TRUE(parsed.ok()) << text << ": " << (parsed ? "" : parsed.error().message);
  return parsed ? *parsed : Expr{};
}

// Fully parenthesized rendering, to check the tree's shape independently of
// the printer's precedence logic.
// Concatenation by appending: GCC 12 at -O3 reports a false -Wrestrict on
// chains of std::string operator+.
std::string cat(std::initializer_list<std::string_view> parts) {
  std::string out;
  for (std::string_view part : parts)
    out.append(part);
  return out;
}

std::string shape(const Expr &e) {
  switch (e.kind) {
  case ExprKind::IntLiteral:
    return std::to_string(e.value);
  case ExprKind::Identifier:
    return e.name;
  case ExprKind::Member:
    return cat({shape(e.operands[0]), ".", e.name});
  case ExprKind::Subscript:
    return cat({shape(e.operands[0]), "[", shape(e.operands[1]), "]"});
  case ExprKind::Call: {
    std::string out = cat({e.name, "("});
    for (size_t i = 0; i < e.operands.size(); ++i)
      out.append(cat({i ? "," : "", e.argNames.empty() ? "" : e.argNames[i],
                      e.argNames.empty() ? "" : "=", shape(e.operands[i])}));
    return out + ")";
  }
  case ExprKind::Unary:
    return cat({"(", spelling(e.unaryOp), shape(e.operands[0]), ")"});
  case ExprKind::Binary:
    return cat(
        {"(", shape(e.operands[0]), " ", spelling(e.binaryOp), " ", shape(e.operands[1]), ")"});
  case ExprKind::Conditional:
    return cat(
        {"(", shape(e.operands[0]), " ? ", shape(e.operands[1]), " : ", shape(e.operands[2]), ")"});
  }
  return "?";
}

TEST(ExprParser, CPrecedenceAndAssociativity) {
  struct Case {
    const char *text, *shape;
  } cases[] = {
      {"a + b * c", "(a + (b * c))"},
      {"a - b - c", "((a - b) - c)"},
      {"a / b % c * d", "(((a / b) % c) * d)"},
      {"a << 1 + b", "(a << (1 + b))"},
      {"a < b == c > d", "((a < b) == (c > d))"},
      {"a & b ^ c | d", "(((a & b) ^ c) | d)"},
      {"a || b && c", "(a || (b && c))"},
      {"a == 1 && b != 2 || !c", "(((a == 1) && (b != 2)) || (!c))"},
      {"-a * ~b", "((-a) * (~b))"},
      {"a ? b : c ? d : e", "(a ? b : (c ? d : e))"},
      {"a >= b ? x + 1 : y", "((a >= b) ? (x + 1) : y)"},
      {"(a + b) * c", "((a + b) * c)"},
      {"a <= b >> 2", "(a <= (b >> 2))"},
      {"!-~a", "(!(-(~a)))"},
  };
  for (const Case &c : cases) {
    EXPECT_EQ(shape(parseOk(c.text)), c.shape) << c.text;
  }
}

TEST(ExprParser, PostfixForms) {
  EXPECT_EQ(shape(parseOk("threadIdx.x")), "threadIdx.x");
  EXPECT_EQ(shape(parseOk("As[ty][k]")), "As[ty][k]");
  EXPECT_EQ(shape(parseOk("tag(As[ty][k]).k")), "tag(As[ty][k]).k");
  EXPECT_EQ(shape(parseOk("A(row, k0 + k)")), "A(row,(k0 + k))");
  EXPECT_EQ(shape(parseOk("X(c = b, r = a)")), "X(c=b,r=a)");
  EXPECT_EQ(shape(parseOk("f()")), "f()");
  EXPECT_EQ(shape(parseOk("-a[i].y")), "(-a[i].y)");
}

TEST(ExprParser, IntegerLiterals) {
  EXPECT_EQ(parseOk("42").value, 42);
  EXPECT_EQ(parseOk("0x1F").value, 31);
  EXPECT_EQ(parseOk("0b101").value, 5);
  EXPECT_EQ(parseOk("017").value, 15);
  EXPECT_EQ(parseOk("0").value, 0);
  EXPECT_EQ(parseOk("9223372036854775807").value, INT64_MAX);
}

TEST(ExprParser, NodesCarryByteOffsets) {
  //                    0123456789012345678901234
  Expr e = parseOk("tag(As[ty][k]) == A(row, k0 + k)");
  ASSERT_EQ(e.kind, ExprKind::Binary);
  EXPECT_EQ(e.begin, 0u);
  EXPECT_EQ(e.end, 32u);
  const Expr &lhs = e.operands[0];
  EXPECT_EQ(lhs.begin, 0u);
  EXPECT_EQ(lhs.end, 14u);
  EXPECT_EQ(lhs.calleeEnd, 3u);
  const Expr &subscript = lhs.operands[0];
  EXPECT_EQ(subscript.begin, 4u);
  EXPECT_EQ(subscript.end, 13u);
  EXPECT_EQ(subscript.operands[1].begin, 11u); // k
  const Expr &rhs = e.operands[1];
  EXPECT_EQ(rhs.begin, 18u);
  const Expr &sum = rhs.operands[1];
  EXPECT_EQ(sum.begin, 25u);
  EXPECT_EQ(sum.end, 31u);
}

TEST(ExprParser, PrinterUsesMinimalParenthesesAndRoundTrips) {
  struct Case {
    const char *text, *printed;
  } cases[] = {
      {"(a + b) * c", "(a + b) * c"},
      {"a + (b * c)", "a + b * c"},
      {"a - (b - c)", "a - (b - c)"},
      {"(a - b) - c", "a - b - c"},
      {"((a))", "a"},
      {"(a ? b : c) ? d : e", "(a ? b : c) ? d : e"},
      {"x + (a ? b : c)", "x + (a ? b : c)"},
      {"-(a + b)", "-(a + b)"},
      {"- -a", "--a"},
      {"(a + b)[i]", "(a + b)[i]"},
      {"tag( As[ ty ][k] ).k == A( r=1,c =2 )", "tag(As[ty][k]).k == A(r = 1, c = 2)"},
      {"0x10 + 0b11", "16 + 3"},
  };
  for (const Case &c : cases) {
    Expr e = parseOk(c.text);
    std::string printed = printExpr(e);
    EXPECT_EQ(printed, c.printed) << c.text;
    Expr again = parseOk(printed);
    EXPECT_TRUE(sameShape(e, again)) << c.text;
  }
}

TEST(ExprParser, SameShapeDistinguishesTrees) {
  EXPECT_FALSE(sameShape(parseOk("a - b - c"), parseOk("a - (b - c)")));
  EXPECT_FALSE(sameShape(parseOk("A(x = 1)"), parseOk("A(1)")));
  EXPECT_FALSE(sameShape(parseOk("a.x"), parseOk("a.y")));
  EXPECT_TRUE(sameShape(parseOk("a+b"), parseOk(" a + b ")));
}

TEST(ExprParser, ConjunctsFlattenNestedAnds) {
  Expr e = parseOk("a > 0 && (b > 0 && c > 0) && (d > 0 || e > 0)");
  std::vector<const Expr *> parts = conjuncts(e);
  ASSERT_EQ(parts.size(), 4u);
  EXPECT_EQ(printExpr(*parts[1]), "b > 0");
  EXPECT_EQ(printExpr(*parts[3]), "d > 0 || e > 0");
  EXPECT_EQ(conjuncts(parts[3][0]).size(), 1u);
}

TEST(ExprParser, ZeroStartIsTagOfANameEqualToZero) {
  // The declaration is whatever the name resolved to: a marker here.
  int marker = 0;
  const auto *decl = reinterpret_cast<const clang::ValueDecl *>(&marker);
  auto resolved = [&](std::string_view text) {
    Expr e = parseOk(text);
    forEachNode(e, [&](const Expr &n) {
      if (n.kind == ExprKind::Identifier)
        const_cast<Expr &>(n).resolution.decl = decl;
    });
    return e;
  };
  EXPECT_EQ(zeroStartOf(resolved("tag(Y) == 0")), decl);
  EXPECT_EQ(zeroStartOf(resolved("0 == tag(Y)")), decl);
  EXPECT_EQ(zeroStartOf(resolved("tag(Y) == 1")), nullptr);
  EXPECT_EQ(zeroStartOf(resolved("tag(Y) <= 0")), nullptr);
  EXPECT_EQ(zeroStartOf(resolved("tag(Y[0]) == 0")), nullptr);
  EXPECT_EQ(zeroStartOf(resolved("Y == 0")), nullptr);
}

} // namespace
} // namespace ave::ann
