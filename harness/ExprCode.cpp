// Annotation expressions printed as C++ for the generated bundle.

#include "ave/harness/ExprCode.h"

namespace ave::harness {

std::string exprToCpp(const ann::Expr &expr, const NameSpelling &spell, std::string &error) {
  auto sub = [&](std::size_t i) { return exprToCpp(expr.operands[i], spell, error); };
  switch (expr.kind) {
  case ann::ExprKind::IntLiteral:
    return "int64_t(" + std::to_string(expr.value) + ")";
  case ann::ExprKind::Identifier: {
    if (expr.resolution.constant)
      return "int64_t(" + std::to_string(*expr.resolution.constant) + ")";
    std::optional<std::string> name = spell(expr);
    if (!name) {
      if (error.empty())
        error = "'" + expr.name + "' cannot be evaluated by the bundle";
      return "";
    }
    return *name;
  }
  case ann::ExprKind::Unary: {
    std::string operand = sub(0);
    return error.empty() ? "(" + std::string(ann::spelling(expr.unaryOp)) + operand + ")" : "";
  }
  case ann::ExprKind::Binary: {
    std::string lhs = sub(0), rhs = sub(1);
    if (!error.empty())
      return "";
    std::string text = "(" + lhs + " " + ann::spelling(expr.binaryOp) + " " + rhs + ")";
    // Comparisons and logic are bool in C++; keep the arithmetic int64_t.
    switch (expr.binaryOp) {
    case ann::BinaryOp::Lt:
    case ann::BinaryOp::Le:
    case ann::BinaryOp::Gt:
    case ann::BinaryOp::Ge:
    case ann::BinaryOp::Eq:
    case ann::BinaryOp::Ne:
    case ann::BinaryOp::LogicalAnd:
    case ann::BinaryOp::LogicalOr:
      return "int64_t" + text;
    default:
      return text;
    }
  }
  case ann::ExprKind::Conditional: {
    std::string c = sub(0), t = sub(1), f = sub(2);
    return error.empty() ? "(" + c + " ? " + t + " : " + f + ")" : "";
  }
  case ann::ExprKind::Member:
  case ann::ExprKind::Subscript:
  case ann::ExprKind::Call:
    if (error.empty())
      error = "'" + ann::printExpr(expr) + "' cannot be evaluated by the bundle";
    return "";
  }
  return "";
}

} // namespace ave::harness
