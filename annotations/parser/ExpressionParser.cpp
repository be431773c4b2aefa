#include "ExpressionParser.h"

#include "Quoted.h"

#include <utility>

namespace ave::ann {
namespace {

// Nesting (parentheses, brackets, unary chains) deeper than this is refused
// rather than risking the stack.
constexpr unsigned MaxNestingDepth = 200;

std::optional<BinaryOp> binaryOpOf(const Token &Token) {
  if (Token.kind != TokenKind::Punct)
    return std::nullopt;
  static constexpr std::pair<std::string_view, BinaryOp> Table[] = {
      {"*", BinaryOp::Mul},   {"/", BinaryOp::Div},         {"%", BinaryOp::Rem},
      {"+", BinaryOp::Add},   {"-", BinaryOp::Sub},         {"<<", BinaryOp::Shl},
      {">>", BinaryOp::Shr},  {"<", BinaryOp::Lt},          {"<=", BinaryOp::Le},
      {">", BinaryOp::Gt},    {">=", BinaryOp::Ge},         {"==", BinaryOp::Eq},
      {"!=", BinaryOp::Ne},   {"&", BinaryOp::BitAnd},      {"^", BinaryOp::BitXor},
      {"|", BinaryOp::BitOr}, {"&&", BinaryOp::LogicalAnd}, {"||", BinaryOp::LogicalOr},
  };
  for (const auto &[text, op] : Table)
    if (Token.text == text)
      return op;
  return std::nullopt;
}

} // namespace

ExpressionParser::ExpressionParser(std::vector<Token> Tokens) : Tokens(std::move(Tokens)) {}

const Token &ExpressionParser::peek(unsigned Ahead) const {
  unsigned Index = Next + Ahead;
  return Index < Tokens.size() ? Tokens[Index] : Tokens.back();
}

Token ExpressionParser::take() {
  Token Token = peek();
  if (Next + 1 < Tokens.size())
    ++Next;
  return Token;
}

void ExpressionParser::fail(unsigned Begin, unsigned End, std::string Message,
                            std::optional<ParseNote> Note) {
  if (!Failure)
    Failure = ParseError{Begin, End, std::move(Message), std::move(Note)};
}

void ExpressionParser::failAt(const Token &Token, std::string Message,
                              std::optional<ParseNote> Note) {
  fail(Token.begin, Token.end, std::move(Message), std::move(Note));
}

bool ExpressionParser::accept(std::string_view Punct) {
  if (!peek().is(Punct))
    return false;
  take();
  return true;
}

bool ExpressionParser::expectClose(std::string_view Close, const Token &Open) {
  if (accept(Close))
    return true;
  failAt(peek(), "expected " + quoted(Close) + " to close " + quoted(Open.text),
         ParseNote{Open.begin, Open.end, quoted(Open.text) + " opened here"});
  return false;
}

void ExpressionParser::failTrailing(std::string_view After) {
  const Token &Token = peek();
  if (Token.is("="))
    failAt(Token, "unexpected '='; use '==' to compare");
  else if (Token.is(")") || Token.is("]"))
    failAt(Token, "unmatched " + quoted(Token.text));
  else
    fail(Token.begin, Tokens.back().begin, "trailing tokens after " + std::string(After));
}

Expr ExpressionParser::parseExpression() {
  if (++Depth > MaxNestingDepth) {
    failAt(peek(), "expression nested too deeply");
    --Depth;
    return {};
  }
  Expr Result = parseConditional();
  --Depth;
  return Result;
}

Expr ExpressionParser::parseConditional() {
  Expr Condition = parseBinary(1);
  if (failed() || !peek().is("?"))
    return Condition;
  Token Question = take();
  Expr WhenTrue = parseExpression();
  if (failed())
    return {};
  if (!accept(":")) {
    failAt(peek(), "expected ':' in conditional expression",
           ParseNote{Question.begin, Question.end, "'?' is here"});
    return {};
  }
  Expr WhenFalse = parseExpression();
  if (failed())
    return {};
  Expr Node;
  Node.kind = ExprKind::Conditional;
  Node.begin = Condition.begin;
  Node.end = WhenFalse.end;
  Node.operands = {std::move(Condition), std::move(WhenTrue), std::move(WhenFalse)};
  return Node;
}

Expr ExpressionParser::parseBinary(int MinPrecedence) {
  Expr Lhs = parseUnary();
  while (!failed()) {
    std::optional<BinaryOp> Op = binaryOpOf(peek());
    if (!Op || precedence(*Op) < MinPrecedence)
      break;
    take();
    Expr Rhs = parseBinary(precedence(*Op) + 1);
    if (failed())
      return {};
    unsigned Begin = Lhs.begin, End = Rhs.end;
    Lhs = Expr::binary(*Op, std::move(Lhs), std::move(Rhs), Begin, End);
  }
  return Lhs;
}

Expr ExpressionParser::parseUnary() {
  std::optional<UnaryOp> Op;
  if (peek().is("-"))
    Op = UnaryOp::Negate;
  else if (peek().is("!"))
    Op = UnaryOp::LogicalNot;
  else if (peek().is("~"))
    Op = UnaryOp::BitNot;
  if (!Op)
    return parsePostfix();
  Token OpToken = take();
  if (++Depth > MaxNestingDepth) {
    failAt(OpToken, "expression nested too deeply");
    return {};
  }
  Expr Operand = parseUnary();
  --Depth;
  if (failed())
    return {};
  Expr Node;
  Node.kind = ExprKind::Unary;
  Node.unaryOp = *Op;
  Node.begin = OpToken.begin;
  Node.end = Operand.end;
  Node.operands.push_back(std::move(Operand));
  return Node;
}

Expr ExpressionParser::parsePostfix() {
  Expr Base = parsePrimary();
  while (!failed()) {
    if (peek().is("[")) {
      Token Open = take();
      Expr Index = parseExpression();
      if (failed() || !expectClose("]", Open))
        return {};
      Expr Node;
      Node.kind = ExprKind::Subscript;
      Node.begin = Base.begin;
      Node.end = Tokens[Next - 1].end; // the ']'
      Node.operands = {std::move(Base), std::move(Index)};
      Base = std::move(Node);
    } else if (peek().is(".")) {
      take();
      if (peek().kind != TokenKind::Identifier) {
        failAt(peek(), "expected a field name after '.'");
        return {};
      }
      Token Field = take();
      Expr Node;
      Node.kind = ExprKind::Member;
      Node.begin = Base.begin;
      Node.end = Field.end;
      Node.name = std::string(Field.text);
      Node.operands.push_back(std::move(Base));
      Base = std::move(Node);
    } else if (peek().is("(")) {
      if (Base.kind != ExprKind::Identifier) {
        failAt(peek(), "only a name can be called, as in 'tag(e)' or 'A(i, j)'");
        return {};
      }
      Base = parseCall(std::move(Base));
    } else {
      break;
    }
  }
  return Base;
}

Expr ExpressionParser::parseCall(Expr Callee) {
  Token Open = take();
  Expr Call;
  Call.kind = ExprKind::Call;
  Call.name = Callee.name;
  Call.begin = Callee.begin;
  Call.calleeEnd = Callee.end;
  bool Named = false;
  if (!peek().is(")")) {
    while (true) {
      bool ThisNamed = peek().kind == TokenKind::Identifier && peek(1).is("=");
      if (!Call.operands.empty() && ThisNamed != Named) {
        failAt(peek(),
               "cannot mix named and positional arguments in a call to " + quoted(Call.name));
        return {};
      }
      Named = ThisNamed;
      if (Named) {
        Token ArgName = take();
        take(); // '='
        for (const std::string &Seen : Call.argNames)
          if (Seen == ArgName.text) {
            failAt(ArgName, "duplicate coordinate " + quoted(ArgName.text) + " in a call to " +
                                quoted(Call.name));
            return {};
          }
        Call.argNames.emplace_back(ArgName.text);
        Call.argNameOffsets.push_back(ArgName.begin);
      }
      if (peek().is(",") || peek().is(")")) {
        failAt(peek(), "expected expression");
        return {};
      }
      Call.operands.push_back(parseExpression());
      if (failed())
        return {};
      if (!accept(","))
        break;
    }
  }
  if (!expectClose(")", Open))
    return {};
  Call.end = Tokens[Next - 1].end;
  if (Call.name == "tag") {
    if (Named) {
      fail(Call.begin, Call.end, "tag(...) takes one expression, not named coordinates");
      return {};
    }
    if (Call.operands.size() != 1) {
      fail(Call.begin, Call.end,
           "tag(...) takes exactly one expression, got " + std::to_string(Call.operands.size()));
      return {};
    }
  }
  return Call;
}

Expr ExpressionParser::parsePrimary() {
  const Token &Next = peek();
  switch (Next.kind) {
  case TokenKind::Integer: {
    Token Literal = take();
    return Expr::intLiteral(Literal.value, Literal.begin, Literal.end);
  }
  case TokenKind::Identifier: {
    Token Name = take();
    return Expr::identifier(std::string(Name.text), Name.begin, Name.end);
  }
  case TokenKind::Punct:
    if (Next.is("(")) {
      Token Open = take();
      Expr Inner = parseExpression();
      if (failed() || !expectClose(")", Open))
        return {};
      return Inner;
    }
    failAt(Next, "expected expression before " + quoted(Next.text));
    return {};
  case TokenKind::End:
    failAt(Next, "expected expression at end of text");
    return {};
  }
  return {};
}

} // namespace ave::ann
