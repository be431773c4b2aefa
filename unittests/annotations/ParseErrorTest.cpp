// Malformed annotations: each must fail with this exact message at this
// exact byte range (and note, where there is one).
#include "ave/annotations/Expr.h"
#include "ave/annotations/Pragma.h"
#include "ave/annotations/TagSpec.h"

#include <gtest/gtest.h>

namespace ave::ann {
namespace {

enum class Grammar { Pragma, Spec, Expression };

struct Malformed {
  Grammar grammar;
  std::string text;
  unsigned begin, end;
  std::string message;
  int noteBegin = -1; // -1: no note expected
  std::string note = "";
};

std::optional<ParseError> errorOf(Grammar grammar, std::string_view text) {
  switch (grammar) {
  case Grammar::Pragma:
    if (auto r = parsePragma(text); !r)
      return r.error();
    return std::nullopt;
  case Grammar::Spec:
    if (auto r = parseTagSpec(text); !r)
      return r.error();
    return std::nullopt;
  case Grammar::Expression:
    if (auto r = parseExpression(text); !r)
      return r.error();
    return std::nullopt;
  }
  return std::nullopt;
}

const Grammar P = Grammar::Pragma, S = Grammar::Spec, E = Grammar::Expression;

const std::vector<Malformed> &malformedInputs() {
  static const std::vector<Malformed> cases = {
      {P, "asert x", 0, 5,
       "unknown pragma 'ave asert'; expected one of assert, assume, launch, reset"},
      {P, "", 0, 0, "empty '#pragma ave'; expected one of assert, assume, launch, reset"},
      {P, "42 x", 0, 2, "unknown pragma 'ave 42'; expected one of assert, assume, launch, reset"},
      {P, "assert", 0, 6, "empty predicate after 'assert'"},
      {P, "assume   ", 0, 6, "empty predicate after 'assume'"},
      {P, "assert (a + b", 13, 13, "expected ')' to close '('", 7, "'(' opened here"},
      {P, "assert a b", 9, 10, "trailing tokens after expression"},
      {P, "assert a = b", 9, 10, "unexpected '='; use '==' to compare"},
      {P, "assert a)", 8, 9, "unmatched ')'"},
      {P, "assert tag(x, y) == A(1)", 7, 16, "tag(...) takes exactly one expression, got 2"},
      {P, "assert tag() == 1", 7, 12, "tag(...) takes exactly one expression, got 0"},
      {P, "assert tag(e = x)", 7, 17, "tag(...) takes one expression, not named coordinates"},
      {P, "assert A(c = 1, 2)", 16, 17,
       "cannot mix named and positional arguments in a call to 'A'"},
      {P, "assert A(c = 1, c = 2)", 16, 17, "duplicate coordinate 'c' in a call to 'A'"},
      {P, "assert A(1, )", 12, 13, "expected expression"},
      {P, "assert x == 99999999999999999999", 12, 32, "integer literal out of range"},
      {P, "assert x == 16u", 14, 15,
       "integer suffix 'u' is not supported in annotations; write a plain integer"},
      {P, "assert x @ y", 9, 10, "unexpected character '@'"},
      {P, "assert x == 09", 13, 14, "invalid digit '9' in integer literal"},
      {P, "assert x ? y", 12, 12, "expected ':' in conditional expression", 9, "'?' is here"},
      {P, "assert As[ty", 12, 12, "expected ']' to close '['", 9, "'[' opened here"},
      {P, "assert (a + 1)(b)", 14, 15, "only a name can be called, as in 'tag(e)' or 'A(i, j)'"},
      {P, "assert x.y.z(1)", 12, 13, "only a name can be called, as in 'tag(e)' or 'A(i, j)'"},
      {P, "assert threadIdx. == 0", 18, 20, "expected a field name after '.'"},
      {P, "assert x == )", 12, 13, "expected expression before ')'"},
      {P, "assert x ==", 11, 11, "expected expression at end of text"},
      {P, "launch", 0, 6, "expected 'block(...)' after 'launch'"},
      {P, "launch grid(4)", 7, 11, "expected 'block(...)' after 'launch'"},
      {P, "launch block(1, 2, 3, 4)", 20, 21,
       "too many dimensions in 'block'; at most 3 (x, y, z)"},
      {P, "launch block(16) grid", 21, 21, "expected '(' after 'grid'"},
      {P, "launch block(16) foo(2)", 17, 20,
       "expected 'grid(...)', 'shared(...)' or end of pragma after 'block(...)'"},
      {P, "launch block(16) shared", 23, 23, "expected '(' after 'shared'"},
      {P, "launch block(16) shared()", 24, 25,
       "expected the bytes of dynamic shared memory in 'shared(...)'"},
      {P, "launch block(16) shared(4, 8)", 25, 26,
       "'shared' takes one expression: the bytes of dynamic shared memory"},
      {P, "launch block(16) shared(4 * K", 29, 29, "expected ')' to close '('", 23,
       "'(' opened here"},
      {P, "launch block(16) shared(64) grid(1)", 28, 32, "'grid(...)' goes before 'shared(...)'"},
      {P, "launch block(16) shared(64) shared(8)", 28, 37, "trailing tokens after 'shared(...)'"},
      {P, "launch block(16) grid(1) shared(8) x", 35, 36, "trailing tokens after 'shared(...)'"},
      {P, "launch block()", 13, 14, "expected x dimension of 'block'"},
      {P, "launch block(16, )", 17, 18, "expected y dimension of 'block'"},
      {P, "launch block(16) grid(1) x", 25, 26, "trailing tokens after 'grid(...)'"},
      {P, "reset", 0, 5, "expected a __shared__ array name after 'reset'"},
      {P, "reset 3", 6, 7, "expected a __shared__ array name after 'reset'"},
      {P, "reset As Bs", 9, 11, "trailing tokens after array name"},
      {S, "", 0, 0, "empty tag spec; expected 'Name(c1 < B1, ...) [= layout]'"},
      {S, "(m < M)", 0, 1, "expected tensor name at start of tag spec"},
      {S, "A(m < M, k)", 10, 11, "expected coordinate bound '<' after 'k'"},
      {S, "A(m <= M)", 4, 6, "expected coordinate bound '<' after 'm'"},
      {S, "A(m < M, m < N)", 9, 10, "duplicate coordinate 'm'", 2, "first declared here"},
      {S, "A(m < M", 7, 7, "expected ')' to close '('", 1, "'(' opened here"},
      {S, "A()", 1, 3, "a tag needs at least one coordinate, as in 'A(m < M)'"},
      {S, "A(m < M) = ", 9, 10, "expected layout expression after '='"},
      {S, "A(m < M) m", 9, 10, "expected '= layout' or end of tag spec after ')'"},
      {S, "tag(m < M)", 0, 3, "'tag' is reserved and cannot name a tensor"},
      {S, "A(threadIdx < 4)", 2, 11, "'threadIdx' is reserved and cannot name a coordinate"},
      {S, "A(m < )", 6, 7, "expected bound expression after 'm <'"},
      {S, "A m < M", 2, 3, "expected '(' and coordinates after tensor name 'A'"},
      {S, "A(1 < M)", 2, 3, "expected coordinate name"},
      {S, "A(m < M) = m * K + k)", 20, 21, "unmatched ')'"},
      {S, "A(m < M, k < K) = m * K +", 25, 25, "expected expression at end of text"},
      {S, "A(m < M) = m K", 13, 14, "trailing tokens after layout expression"},
      {S, "A(m < M; k < K)", 7, 8, "unexpected character ';'"},
      {E, "0x", 0, 2, "expected digits after '0x'"},
      {E, "   ", 0, 3, "empty expression"},
      {E, "a\x01", 1, 2, "unexpected character byte 0x01"},
  };
  return cases;
}

TEST(ParseErrors, ExactMessageAndRange) {
  ASSERT_GE(malformedInputs().size(), 25u);
  for (const Malformed &c : malformedInputs()) {
    SCOPED_TRACE("input: \"" + c.text + "\"");
    std::optional<ParseError> error = errorOf(c.grammar, c.text);
    EXPECT_TRUE(error.has_value()) << "parsed without error";
    if (!error)
      continue;
    EXPECT_EQ(error->message, c.message);
    EXPECT_EQ(error->begin, c.begin);
    EXPECT_EQ(error->end, c.end);
    if (c.noteBegin < 0) {
      EXPECT_FALSE(error->note.has_value());
    } else {
      EXPECT_TRUE(error->note.has_value());
      if (!error->note)
        continue;
      EXPECT_EQ(error->note->begin, static_cast<unsigned>(c.noteBegin));
      EXPECT_EQ(error->note->message, c.note);
    }
  }
}

TEST(ParseErrors, TooDeepNestingIsAnErrorNotACrash) {
  std::string text(300, '(');
  text += "1";
  text += std::string(300, ')');
  Result<Expr> parsed = parseExpression(text);
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.error().message, "expression nested too deeply");
  EXPECT_EQ(parsed.error().begin, 200u);

  Result<Expr> unary = parseExpression(std::string(500, '-') + "x");
  ASSERT_FALSE(unary.ok());
  EXPECT_EQ(unary.error().message, "expression nested too deeply");
}

TEST(ParseErrors, TooLongIsAnError) {
  std::string text = "1";
  for (int i = 0; i < 1000; ++i)
    text += "+1";
  // 2001 tokens; the 2001st starts at offset 2000.
  Result<Expr> parsed = parseExpression(text);
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.error().message, "annotation is too long (more than 2000 tokens)");
  EXPECT_EQ(parsed.error().begin, 2000u);
  // Just under the limit parses.
  EXPECT_TRUE(parseExpression(text.substr(0, 1999)).ok());
}

} // namespace
} // namespace ave::ann
