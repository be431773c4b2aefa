#include "ave/annotations/Expr.h"

#include "ExpressionParser.h"

#include <utility>

namespace ave::ann {

Expr Expr::intLiteral(std::int64_t Value, unsigned Begin, unsigned End) {
  Expr Node;
  Node.kind = ExprKind::IntLiteral;
  Node.value = Value;
  Node.begin = Begin;
  Node.end = End;
  return Node;
}

Expr Expr::identifier(std::string Name, unsigned Begin, unsigned End) {
  Expr Node;
  Node.kind = ExprKind::Identifier;
  Node.name = std::move(Name);
  Node.begin = Begin;
  Node.end = End;
  return Node;
}

Expr Expr::binary(BinaryOp Op, Expr Lhs, Expr Rhs, unsigned Begin, unsigned End) {
  Expr Node;
  Node.kind = ExprKind::Binary;
  Node.binaryOp = Op;
  Node.begin = Begin;
  Node.end = End;
  Node.operands.push_back(std::move(Lhs));
  Node.operands.push_back(std::move(Rhs));
  return Node;
}

const char *nameKindName(NameKind Kind) {
  switch (Kind) {
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
  case NameKind::IndexFact:
    return "index-fact";
  case NameKind::Mask:
    return "mask";
  case NameKind::CoordinateName:
    return "coordinate-name";
  case NameKind::IntegerMacro:
    return "macro";
  }
  return "unresolved";
}

const char *spelling(UnaryOp Op) {
  switch (Op) {
  case UnaryOp::Negate:
    return "-";
  case UnaryOp::LogicalNot:
    return "!";
  case UnaryOp::BitNot:
    return "~";
  }
  return "?";
}

const char *spelling(BinaryOp Op) {
  switch (Op) {
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

int precedence(BinaryOp Op) {
  switch (Op) {
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

int printPrecedence(const Expr &Expr) {
  switch (Expr.kind) {
  case ExprKind::Conditional:
    return ConditionalPrecedence;
  case ExprKind::Binary:
    return precedence(Expr.binaryOp);
  case ExprKind::Unary:
    return UnaryPrecedence;
  default:
    return PostfixPrecedence;
  }
}

void print(const Expr &Expr, std::string &Out);

void printWrapped(const Expr &Expr, bool Parenthesize, std::string &Out) {
  if (Parenthesize)
    Out += '(';
  print(Expr, Out);
  if (Parenthesize)
    Out += ')';
}

void print(const Expr &Expr, std::string &Out) {
  switch (Expr.kind) {
  case ExprKind::IntLiteral:
    Out += std::to_string(Expr.value);
    return;
  case ExprKind::Identifier:
    Out += Expr.name;
    return;
  case ExprKind::Member:
    printWrapped(Expr.operands[0], printPrecedence(Expr.operands[0]) < PostfixPrecedence, Out);
    Out += '.';
    Out += Expr.name;
    return;
  case ExprKind::Subscript:
    printWrapped(Expr.operands[0], printPrecedence(Expr.operands[0]) < PostfixPrecedence, Out);
    Out += '[';
    print(Expr.operands[1], Out);
    Out += ']';
    return;
  case ExprKind::Call:
    Out += Expr.name;
    Out += '(';
    for (size_t I = 0; I < Expr.operands.size(); ++I) {
      if (I)
        Out += ", ";
      if (I < Expr.argNames.size()) {
        Out += Expr.argNames[I];
        Out += " = ";
      }
      print(Expr.operands[I], Out);
    }
    Out += ')';
    return;
  case ExprKind::Unary:
    Out += spelling(Expr.unaryOp);
    printWrapped(Expr.operands[0], printPrecedence(Expr.operands[0]) < UnaryPrecedence, Out);
    return;
  case ExprKind::Binary: {
    int Own = precedence(Expr.binaryOp);
    // Left-associative: a right operand of equal precedence needs parentheses.
    printWrapped(Expr.operands[0], printPrecedence(Expr.operands[0]) < Own, Out);
    Out += ' ';
    Out += spelling(Expr.binaryOp);
    Out += ' ';
    printWrapped(Expr.operands[1], printPrecedence(Expr.operands[1]) <= Own, Out);
    return;
  }
  case ExprKind::Conditional:
    printWrapped(Expr.operands[0], printPrecedence(Expr.operands[0]) == ConditionalPrecedence, Out);
    Out += " ? ";
    print(Expr.operands[1], Out);
    Out += " : ";
    print(Expr.operands[2], Out);
    return;
  }
}

} // namespace

std::string printExpr(const Expr &Expr) {
  std::string Out;
  print(Expr, Out);
  return Out;
}

bool sameShape(const Expr &A, const Expr &B) {
  if (A.kind != B.kind || A.operands.size() != B.operands.size() || A.argNames != B.argNames)
    return false;
  switch (A.kind) {
  case ExprKind::IntLiteral:
    if (A.value != B.value)
      return false;
    break;
  case ExprKind::Identifier:
  case ExprKind::Member:
  case ExprKind::Call:
    if (A.name != B.name)
      return false;
    break;
  case ExprKind::Unary:
    if (A.unaryOp != B.unaryOp)
      return false;
    break;
  case ExprKind::Binary:
    if (A.binaryOp != B.binaryOp)
      return false;
    break;
  case ExprKind::Subscript:
  case ExprKind::Conditional:
    break;
  }
  for (size_t I = 0; I < A.operands.size(); ++I)
    if (!sameShape(A.operands[I], B.operands[I]))
      return false;
  return true;
}

Result<Expr> parseExpression(std::string_view Text) {
  Result<std::vector<Token>> Tokens = lex(Text);
  if (!Tokens)
    return Tokens.error();
  ExpressionParser Parser(std::move(*Tokens));
  if (Parser.atEnd())
    return ParseError{0, static_cast<unsigned>(Text.size()), "empty expression"};
  Expr Expr = Parser.parseExpression();
  if (!Parser.failed() && !Parser.atEnd())
    Parser.failTrailing("expression");
  if (Parser.failed())
    return Parser.failure();
  return Expr;
}

std::vector<const Expr *> conjuncts(const Expr &P) {
  if (P.kind != ExprKind::Binary || P.binaryOp != BinaryOp::LogicalAnd)
    return {&P};
  std::vector<const Expr *> Out = conjuncts(P.operands[0]);
  std::vector<const Expr *> Right = conjuncts(P.operands[1]);
  Out.insert(Out.end(), Right.begin(), Right.end());
  return Out;
}

const clang::ValueDecl *zeroStartOf(const Expr &E) {
  if (E.kind != ExprKind::Binary || E.binaryOp != BinaryOp::Eq)
    return nullptr;
  const Expr *Tag = &E.operands[0], *Zero = &E.operands[1];
  if (!Tag->isCallTo("tag"))
    std::swap(Tag, Zero);
  if (!Tag->isCallTo("tag") || Zero->kind != ExprKind::IntLiteral || Zero->value != 0 ||
      Tag->operands.size() != 1 || Tag->operands[0].kind != ExprKind::Identifier)
    return nullptr;
  return Tag->operands[0].resolution.decl;
}

} // namespace ave::ann
