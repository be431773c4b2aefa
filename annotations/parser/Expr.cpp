#include "ave/annotations/Expr.h"

#include "ExpressionParser.h"

#include <utility>

namespace ave::ann {

Expr Expr::intLiteral(std::int64_t value, unsigned begin, unsigned end) {
  Expr node;
  node.kind = ExprKind::IntLiteral;
  node.value = value;
  node.begin = begin;
  node.end = end;
  return node;
}

Expr Expr::identifier(std::string name, unsigned begin, unsigned end) {
  Expr node;
  node.kind = ExprKind::Identifier;
  node.name = std::move(name);
  node.begin = begin;
  node.end = end;
  return node;
}

Expr Expr::binary(BinaryOp op, Expr lhs, Expr rhs, unsigned begin, unsigned end) {
  Expr node;
  node.kind = ExprKind::Binary;
  node.binaryOp = op;
  node.begin = begin;
  node.end = end;
  node.operands.push_back(std::move(lhs));
  node.operands.push_back(std::move(rhs));
  return node;
}

const char *nameKindName(NameKind kind) {
  switch (kind) {
  case NameKind::Unresolved:
    return "unresolved";
  case NameKind::Coordinate:
    return "coordinate";
  case NameKind::TagOf:
    return "tag-of";
  case NameKind::TagLiteral:
    return "tag-literal";
  case NameKind::Parameter:
    return "parameter";
  case NameKind::LocalVariable:
    return "local";
  case NameKind::SharedArray:
    return "shared-array";
  case NameKind::GlobalVariable:
    return "global";
  case NameKind::Builtin:
    return "builtin";
  case NameKind::IntegerConstant:
    return "constant";
  case NameKind::IntegerMacro:
    return "macro";
  }
  return "unresolved";
}

const char *spelling(UnaryOp op) {
  switch (op) {
  case UnaryOp::Negate:
    return "-";
  case UnaryOp::LogicalNot:
    return "!";
  case UnaryOp::BitNot:
    return "~";
  }
  return "?";
}

const char *spelling(BinaryOp op) {
  switch (op) {
  case BinaryOp::Mul:
    return "*";
  case BinaryOp::Div:
    return "/";
  case BinaryOp::Rem:
    return "%";
  case BinaryOp::Add:
    return "+";
  case BinaryOp::Sub:
    return "-";
  case BinaryOp::Shl:
    return "<<";
  case BinaryOp::Shr:
    return ">>";
  case BinaryOp::Lt:
    return "<";
  case BinaryOp::Le:
    return "<=";
  case BinaryOp::Gt:
    return ">";
  case BinaryOp::Ge:
    return ">=";
  case BinaryOp::Eq:
    return "==";
  case BinaryOp::Ne:
    return "!=";
  case BinaryOp::BitAnd:
    return "&";
  case BinaryOp::BitXor:
    return "^";
  case BinaryOp::BitOr:
    return "|";
  case BinaryOp::LogicalAnd:
    return "&&";
  case BinaryOp::LogicalOr:
    return "||";
  }
  return "?";
}

int precedence(BinaryOp op) {
  switch (op) {
  case BinaryOp::Mul:
  case BinaryOp::Div:
  case BinaryOp::Rem:
    return 10;
  case BinaryOp::Add:
  case BinaryOp::Sub:
    return 9;
  case BinaryOp::Shl:
  case BinaryOp::Shr:
    return 8;
  case BinaryOp::Lt:
  case BinaryOp::Le:
  case BinaryOp::Gt:
  case BinaryOp::Ge:
    return 7;
  case BinaryOp::Eq:
  case BinaryOp::Ne:
    return 6;
  case BinaryOp::BitAnd:
    return 5;
  case BinaryOp::BitXor:
    return 4;
  case BinaryOp::BitOr:
    return 3;
  case BinaryOp::LogicalAnd:
    return 2;
  case BinaryOp::LogicalOr:
    return 1;
  }
  return 0;
}

namespace {

constexpr int ConditionalPrecedence = 0;
constexpr int UnaryPrecedence = 11;
constexpr int PostfixPrecedence = 12;

int printPrecedence(const Expr &expr) {
  switch (expr.kind) {
  case ExprKind::Conditional:
    return ConditionalPrecedence;
  case ExprKind::Binary:
    return precedence(expr.binaryOp);
  case ExprKind::Unary:
    return UnaryPrecedence;
  default:
    return PostfixPrecedence;
  }
}

void print(const Expr &expr, std::string &out);

void printWrapped(const Expr &expr, bool parenthesize, std::string &out) {
  if (parenthesize)
    out += '(';
  print(expr, out);
  if (parenthesize)
    out += ')';
}

void print(const Expr &expr, std::string &out) {
  switch (expr.kind) {
  case ExprKind::IntLiteral:
    out += std::to_string(expr.value);
    return;
  case ExprKind::Identifier:
    out += expr.name;
    return;
  case ExprKind::Member:
    printWrapped(expr.operands[0], printPrecedence(expr.operands[0]) < PostfixPrecedence, out);
    out += '.';
    out += expr.name;
    return;
  case ExprKind::Subscript:
    printWrapped(expr.operands[0], printPrecedence(expr.operands[0]) < PostfixPrecedence, out);
    out += '[';
    print(expr.operands[1], out);
    out += ']';
    return;
  case ExprKind::Call:
    out += expr.name;
    out += '(';
    for (size_t i = 0; i < expr.operands.size(); ++i) {
      if (i)
        out += ", ";
      if (i < expr.argNames.size()) {
        out += expr.argNames[i];
        out += " = ";
      }
      print(expr.operands[i], out);
    }
    out += ')';
    return;
  case ExprKind::Unary:
    out += spelling(expr.unaryOp);
    printWrapped(expr.operands[0], printPrecedence(expr.operands[0]) < UnaryPrecedence, out);
    return;
  case ExprKind::Binary: {
    int own = precedence(expr.binaryOp);
    // Left-associative: a right operand of equal precedence needs parentheses.
    printWrapped(expr.operands[0], printPrecedence(expr.operands[0]) < own, out);
    out += ' ';
    out += spelling(expr.binaryOp);
    out += ' ';
    printWrapped(expr.operands[1], printPrecedence(expr.operands[1]) <= own, out);
    return;
  }
  case ExprKind::Conditional:
    printWrapped(expr.operands[0], printPrecedence(expr.operands[0]) == ConditionalPrecedence, out);
    out += " ? ";
    print(expr.operands[1], out);
    out += " : ";
    print(expr.operands[2], out);
    return;
  }
}

} // namespace

std::string printExpr(const Expr &expr) {
  std::string out;
  print(expr, out);
  return out;
}

bool sameShape(const Expr &a, const Expr &b) {
  if (a.kind != b.kind || a.operands.size() != b.operands.size() || a.argNames != b.argNames)
    return false;
  switch (a.kind) {
  case ExprKind::IntLiteral:
    if (a.value != b.value)
      return false;
    break;
  case ExprKind::Identifier:
  case ExprKind::Member:
  case ExprKind::Call:
    if (a.name != b.name)
      return false;
    break;
  case ExprKind::Unary:
    if (a.unaryOp != b.unaryOp)
      return false;
    break;
  case ExprKind::Binary:
    if (a.binaryOp != b.binaryOp)
      return false;
    break;
  case ExprKind::Subscript:
  case ExprKind::Conditional:
    break;
  }
  for (size_t i = 0; i < a.operands.size(); ++i)
    if (!sameShape(a.operands[i], b.operands[i]))
      return false;
  return true;
}

Result<Expr> parseExpression(std::string_view text) {
  Result<std::vector<Token>> tokens = lex(text);
  if (!tokens)
    return tokens.error();
  ExpressionParser parser(std::move(*tokens));
  if (parser.atEnd())
    return ParseError{0, static_cast<unsigned>(text.size()), "empty expression"};
  Expr expr = parser.parseExpression();
  if (!parser.failed() && !parser.atEnd())
    parser.failTrailing("expression");
  if (parser.failed())
    return parser.failure();
  return expr;
}

} // namespace ave::ann
