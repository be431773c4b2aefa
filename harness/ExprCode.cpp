// Annotation expressions printed as C++ for the generated bundle.

#include "ave/harness/ExprCode.h"

namespace ave::harness {

std::string exprToCpp(const ann::Expr &Expr, const NameSpelling &Spell, std::string &Error) {
  auto Sub = [&](std::size_t I) { return exprToCpp(Expr.operands[I], Spell, Error); };
  switch (Expr.kind) {
  case ann::ExprKind::IntLiteral:
    return "int64_t(" + std::to_string(Expr.value) + ")";
  case ann::ExprKind::Identifier: {
    if (Expr.resolution.constant)
      return "int64_t(" + std::to_string(*Expr.resolution.constant) + ")";
    std::optional<std::string> Name = Spell(Expr);
    if (!Name) {
      if (Error.empty())
        Error = "'" + Expr.name + "' cannot be evaluated by the bundle";
      return "";
    }
    return *Name;
  }
  case ann::ExprKind::Unary: {
    std::string Operand = Sub(0);
    return Error.empty() ? "(" + std::string(ann::spelling(Expr.unaryOp)) + Operand + ")" : "";
  }
  case ann::ExprKind::Binary: {
    std::string Lhs = Sub(0), Rhs = Sub(1);
    if (!Error.empty())
      return "";
    std::string Text = "(" + Lhs + " " + ann::spelling(Expr.binaryOp) + " " + Rhs + ")";
    // Comparisons and logic are bool in C++; keep the arithmetic int64_t.
    switch (Expr.binaryOp) {
    case ann::BinaryOp::Lt:
    case ann::BinaryOp::Le:
    case ann::BinaryOp::Gt:
    case ann::BinaryOp::Ge:
    case ann::BinaryOp::Eq:
    case ann::BinaryOp::Ne:
    case ann::BinaryOp::LogicalAnd:
    case ann::BinaryOp::LogicalOr:
      return "int64_t" + Text;
    default:
      return Text;
    }
  }
  case ann::ExprKind::Conditional: {
    std::string C = Sub(0), T = Sub(1), F = Sub(2);
    return Error.empty() ? "(" + C + " ? " + T + " : " + F + ")" : "";
  }
  case ann::ExprKind::Subscript: // an index array's read, where the spelling knows it
    if (std::optional<std::string> Read = Spell(Expr))
      return *Read;
    [[fallthrough]];
  case ann::ExprKind::Member:
  case ann::ExprKind::Call:
    if (Error.empty())
      Error = "'" + ann::printExpr(Expr) + "' cannot be evaluated by the bundle";
    return "";
  }
  return "";
}

} // namespace ave::harness
