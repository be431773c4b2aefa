#include "ExpressionParser.h"

#include "Quoted.h"

#include <utility>

namespace ave::ann {
namespace {

// Nesting (parentheses, brackets, unary chains) deeper than this is refused
// rather than risking the stack.
constexpr unsigned MaxNestingDepth = 200;

std::optional<BinaryOp> binaryOpOf(const Token &token) {
  if (token.kind != TokenKind::Punct)
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
    if (token.text == text)
      return op;
  return std::nullopt;
}

} // namespace

ExpressionParser::ExpressionParser(std::vector<Token> tokens) : Tokens(std::move(tokens)) {}

const Token &ExpressionParser::peek(unsigned ahead) const {
  unsigned index = Next + ahead;
  return index < Tokens.size() ? Tokens[index] : Tokens.back();
}

Token ExpressionParser::take() {
  Token token = peek();
  if (Next + 1 < Tokens.size())
    ++Next;
  return token;
}

void ExpressionParser::fail(unsigned begin, unsigned end, std::string message,
                            std::optional<ParseNote> note) {
  if (!Failure)
    Failure = ParseError{begin, end, std::move(message), std::move(note)};
}

void ExpressionParser::failAt(const Token &token, std::string message,
                              std::optional<ParseNote> note) {
  fail(token.begin, token.end, std::move(message), std::move(note));
}

bool ExpressionParser::accept(std::string_view punct) {
  if (!peek().is(punct))
    return false;
  take();
  return true;
}

bool ExpressionParser::expectClose(std::string_view close, const Token &open) {
  if (accept(close))
    return true;
  failAt(peek(), "expected " + quoted(close) + " to close " + quoted(open.text),
         ParseNote{open.begin, open.end, quoted(open.text) + " opened here"});
  return false;
}

void ExpressionParser::failTrailing(std::string_view after) {
  const Token &token = peek();
  if (token.is("="))
    failAt(token, "unexpected '='; use '==' to compare");
  else if (token.is(")") || token.is("]"))
    failAt(token, "unmatched " + quoted(token.text));
  else
    fail(token.begin, Tokens.back().begin, "trailing tokens after " + std::string(after));
}

Expr ExpressionParser::parseExpression() {
  if (++Depth > MaxNestingDepth) {
    failAt(peek(), "expression nested too deeply");
    --Depth;
    return {};
  }
  Expr result = parseConditional();
  --Depth;
  return result;
}

Expr ExpressionParser::parseConditional() {
  Expr condition = parseBinary(1);
  if (failed() || !peek().is("?"))
    return condition;
  Token question = take();
  Expr whenTrue = parseExpression();
  if (failed())
    return {};
  if (!accept(":")) {
    failAt(peek(), "expected ':' in conditional expression",
           ParseNote{question.begin, question.end, "'?' is here"});
    return {};
  }
  Expr whenFalse = parseExpression();
  if (failed())
    return {};
  Expr node;
  node.kind = ExprKind::Conditional;
  node.begin = condition.begin;
  node.end = whenFalse.end;
  node.operands = {std::move(condition), std::move(whenTrue), std::move(whenFalse)};
  return node;
}

Expr ExpressionParser::parseBinary(int minPrecedence) {
  Expr lhs = parseUnary();
  while (!failed()) {
    std::optional<BinaryOp> op = binaryOpOf(peek());
    if (!op || precedence(*op) < minPrecedence)
      break;
    take();
    Expr rhs = parseBinary(precedence(*op) + 1);
    if (failed())
      return {};
    unsigned begin = lhs.begin, end = rhs.end;
    lhs = Expr::binary(*op, std::move(lhs), std::move(rhs), begin, end);
  }
  return lhs;
}

Expr ExpressionParser::parseUnary() {
  std::optional<UnaryOp> op;
  if (peek().is("-"))
    op = UnaryOp::Negate;
  else if (peek().is("!"))
    op = UnaryOp::LogicalNot;
  else if (peek().is("~"))
    op = UnaryOp::BitNot;
  if (!op)
    return parsePostfix();
  Token opToken = take();
  if (++Depth > MaxNestingDepth) {
    failAt(opToken, "expression nested too deeply");
    return {};
  }
  Expr operand = parseUnary();
  --Depth;
  if (failed())
    return {};
  Expr node;
  node.kind = ExprKind::Unary;
  node.unaryOp = *op;
  node.begin = opToken.begin;
  node.end = operand.end;
  node.operands.push_back(std::move(operand));
  return node;
}

Expr ExpressionParser::parsePostfix() {
  Expr base = parsePrimary();
  while (!failed()) {
    if (peek().is("[")) {
      Token open = take();
      Expr index = parseExpression();
      if (failed() || !expectClose("]", open))
        return {};
      Expr node;
      node.kind = ExprKind::Subscript;
      node.begin = base.begin;
      node.end = Tokens[Next - 1].end; // the ']'
      node.operands = {std::move(base), std::move(index)};
      base = std::move(node);
    } else if (peek().is(".")) {
      take();
      if (peek().kind != TokenKind::Identifier) {
        failAt(peek(), "expected a field name after '.'");
        return {};
      }
      Token field = take();
      Expr node;
      node.kind = ExprKind::Member;
      node.begin = base.begin;
      node.end = field.end;
      node.name = std::string(field.text);
      node.operands.push_back(std::move(base));
      base = std::move(node);
    } else if (peek().is("(")) {
      if (base.kind != ExprKind::Identifier) {
        failAt(peek(), "only a name can be called, as in 'tag(e)' or 'A(i, j)'");
        return {};
      }
      base = parseCall(std::move(base));
    } else {
      break;
    }
  }
  return base;
}

Expr ExpressionParser::parseCall(Expr callee) {
  Token open = take();
  Expr call;
  call.kind = ExprKind::Call;
  call.name = callee.name;
  call.begin = callee.begin;
  call.calleeEnd = callee.end;
  bool named = false;
  if (!peek().is(")")) {
    while (true) {
      bool thisNamed = peek().kind == TokenKind::Identifier && peek(1).is("=");
      if (!call.operands.empty() && thisNamed != named) {
        failAt(peek(),
               "cannot mix named and positional arguments in a call to " + quoted(call.name));
        return {};
      }
      named = thisNamed;
      if (named) {
        Token argName = take();
        take(); // '='
        for (const std::string &seen : call.argNames)
          if (seen == argName.text) {
            failAt(argName, "duplicate coordinate " + quoted(argName.text) + " in a call to " +
                                quoted(call.name));
            return {};
          }
        call.argNames.emplace_back(argName.text);
        call.argNameOffsets.push_back(argName.begin);
      }
      if (peek().is(",") || peek().is(")")) {
        failAt(peek(), "expected expression");
        return {};
      }
      call.operands.push_back(parseExpression());
      if (failed())
        return {};
      if (!accept(","))
        break;
    }
  }
  if (!expectClose(")", open))
    return {};
  call.end = Tokens[Next - 1].end;
  if (call.name == "tag") {
    if (named) {
      fail(call.begin, call.end, "tag(...) takes one expression, not named coordinates");
      return {};
    }
    if (call.operands.size() != 1) {
      fail(call.begin, call.end,
           "tag(...) takes exactly one expression, got " + std::to_string(call.operands.size()));
      return {};
    }
  }
  return call;
}

Expr ExpressionParser::parsePrimary() {
  const Token &token = peek();
  switch (token.kind) {
  case TokenKind::Integer: {
    Token literal = take();
    return Expr::intLiteral(literal.value, literal.begin, literal.end);
  }
  case TokenKind::Identifier: {
    Token name = take();
    return Expr::identifier(std::string(name.text), name.begin, name.end);
  }
  case TokenKind::Punct:
    if (token.is("(")) {
      Token open = take();
      Expr inner = parseExpression();
      if (failed() || !expectClose(")", open))
        return {};
      return inner;
    }
    failAt(token, "expected expression before " + quoted(token.text));
    return {};
  case TokenKind::End:
    failAt(token, "expected expression at end of text");
    return {};
  }
  return {};
}

} // namespace ave::ann
