// --shape parsing, evaluation of annotation expressions under a shape, and
// the odd-multiple second shape.

#include "ave/harness/ShapeBinding.h"

#include "AssignmentList.h"
#include "ave/harness/BenchSpec.h"

#include <cctype>
#include <numeric>

namespace ave::harness {

Bindings Shape::bindings() const {
  Bindings b;
  for (std::size_t i = 0; i < names.size(); ++i)
    b[names[i]] = values[i];
  return b;
}

std::string Shape::text() const {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i)
    out += (i ? "," : "") + names[i] + "=" + std::to_string(values[i]);
  return out;
}

namespace {

bool isIdentifier(const std::string &name) {
  if (name.empty() || !(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_'))
    return false;
  for (char c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_'))
      return false;
  return true;
}

// The conjuncts of `a && b && c`.
void conjuncts(const ann::Expr &e, std::vector<const ann::Expr *> &out) {
  if (e.kind == ann::ExprKind::Binary && e.binaryOp == ann::BinaryOp::LogicalAnd) {
    conjuncts(e.operands[0], out);
    conjuncts(e.operands[1], out);
    return;
  }
  out.push_back(&e);
}

std::optional<std::int64_t> constantOf(const ann::Expr &e) {
  if (e.kind == ann::ExprKind::IntLiteral)
    return e.value;
  if (e.kind == ann::ExprKind::Identifier && e.resolution.constant)
    return e.resolution.constant;
  return std::nullopt;
}

// `name % c == 0` (either side of ==): c, else 1.
std::int64_t granuleFrom(const ann::Expr &fact, const std::string &name) {
  if (fact.kind != ann::ExprKind::Binary || fact.binaryOp != ann::BinaryOp::Eq)
    return 1;
  for (int side = 0; side < 2; ++side) {
    const ann::Expr &rem = fact.operands[side], &zero = fact.operands[1 - side];
    std::optional<std::int64_t> z = constantOf(zero);
    if (!z || *z != 0 || rem.kind != ann::ExprKind::Binary || rem.binaryOp != ann::BinaryOp::Rem)
      continue;
    const ann::Expr &var = rem.operands[0];
    std::optional<std::int64_t> c = constantOf(rem.operands[1]);
    if (var.kind == ann::ExprKind::Identifier && var.name == name && c && *c > 0)
      return *c;
  }
  return 1;
}

} // namespace

std::optional<Bindings> parseShapeText(const std::string &text, std::string &error) {
  Bindings out;
  auto Items = splitAssignments(text, "--shape", error);
  if (!Items)
    return std::nullopt;
  for (const auto &[name, value] : *Items) {
    if (!isIdentifier(name)) {
      error = "--shape: '" + name + "' is not a parameter name";
      return std::nullopt;
    }
    std::size_t used = 0;
    long long number = 0;
    try {
      number = std::stoll(value, &used, 0);
    } catch (...) {
      used = 0;
    }
    if (value.empty() || used != value.size() || number <= 0) {
      error = "--shape: " + name + " needs a positive integer, got '" + value + "'";
      return std::nullopt;
    }
    if (!out.emplace(name, number).second) {
      error = "--shape: " + name + " is given twice";
      return std::nullopt;
    }
  }
  return out;
}

std::optional<Shape> shapeForSpec(const BenchSpec &spec, const Bindings &given,
                                  std::string &error) {
  Shape shape;
  for (const SizeParam &s : spec.sizes) {
    auto it = given.find(s.name);
    if (it == given.end()) {
      error =
          "--shape does not give size parameter '" + s.name + "' of kernel '" + spec.kernel + "'";
      return std::nullopt;
    }
    shape.names.push_back(s.name);
    shape.values.push_back(it->second);
  }
  for (const auto &[name, value] : given) {
    (void)value;
    bool known = false;
    for (const SizeParam &s : spec.sizes)
      known = known || s.name == name;
    if (!known) {
      error = "--shape names '" + name + "', which is no integer parameter of kernel '" +
              spec.kernel + "'";
      return std::nullopt;
    }
  }
  return shape;
}

std::optional<std::int64_t> evaluate(const ann::Expr &expr, const Bindings &bindings,
                                     std::string &error) {
  auto sub = [&](std::size_t i) { return evaluate(expr.operands[i], bindings, error); };
  switch (expr.kind) {
  case ann::ExprKind::IntLiteral:
    return expr.value;
  case ann::ExprKind::Identifier: {
    if (expr.resolution.constant)
      return expr.resolution.constant;
    auto it = bindings.find(expr.name);
    if (it == bindings.end()) {
      error = "'" + expr.name + "' has no value in the shape";
      return std::nullopt;
    }
    return it->second;
  }
  case ann::ExprKind::Unary: {
    std::optional<std::int64_t> v = sub(0);
    if (!v)
      return std::nullopt;
    switch (expr.unaryOp) {
    case ann::UnaryOp::Negate:
      return -*v;
    case ann::UnaryOp::LogicalNot:
      return *v == 0;
    case ann::UnaryOp::BitNot:
      return ~*v;
    }
    return std::nullopt;
  }
  case ann::ExprKind::Binary: {
    std::optional<std::int64_t> a = sub(0);
    if (!a)
      return std::nullopt;
    // Short-circuit like C, so `N > 0 && K / N > 1` is defined at N == 0.
    if (expr.binaryOp == ann::BinaryOp::LogicalAnd && *a == 0)
      return 0;
    if (expr.binaryOp == ann::BinaryOp::LogicalOr && *a != 0)
      return 1;
    std::optional<std::int64_t> b = sub(1);
    if (!b)
      return std::nullopt;
    std::int64_t x = *a, y = *b;
    switch (expr.binaryOp) {
    case ann::BinaryOp::Mul:
      return x * y;
    case ann::BinaryOp::Div:
    case ann::BinaryOp::Rem:
      if (y == 0) {
        error = "division by zero in '" + ann::printExpr(expr) + "'";
        return std::nullopt;
      }
      return expr.binaryOp == ann::BinaryOp::Div ? x / y : x % y;
    case ann::BinaryOp::Add:
      return x + y;
    case ann::BinaryOp::Sub:
      return x - y;
    case ann::BinaryOp::Shl:
      return x << y;
    case ann::BinaryOp::Shr:
      return x >> y;
    case ann::BinaryOp::Lt:
      return x < y;
    case ann::BinaryOp::Le:
      return x <= y;
    case ann::BinaryOp::Gt:
      return x > y;
    case ann::BinaryOp::Ge:
      return x >= y;
    case ann::BinaryOp::Eq:
      return x == y;
    case ann::BinaryOp::Ne:
      return x != y;
    case ann::BinaryOp::BitAnd:
      return x & y;
    case ann::BinaryOp::BitXor:
      return x ^ y;
    case ann::BinaryOp::BitOr:
      return x | y;
    case ann::BinaryOp::LogicalAnd:
    case ann::BinaryOp::LogicalOr:
      return y != 0;
    }
    return std::nullopt;
  }
  case ann::ExprKind::Conditional: {
    std::optional<std::int64_t> c = sub(0);
    if (!c)
      return std::nullopt;
    return *c ? sub(1) : sub(2);
  }
  case ann::ExprKind::Member:
  case ann::ExprKind::Subscript:
  case ann::ExprKind::Call:
    error = "'" + ann::printExpr(expr) + "' is not an integer expression over the shape";
    return std::nullopt;
  }
  return std::nullopt;
}

std::string violatedAssumption(const BenchSpec &spec, const Shape &shape, std::string &error) {
  Bindings b = shape.bindings();
  for (const ann::Expr &fact : spec.assumptions) {
    std::optional<std::int64_t> v = evaluate(fact, b, error);
    if (!v)
      return "";
    if (*v == 0)
      return ann::printExpr(fact);
  }
  return "";
}

std::optional<Shape> oddMultipleShape(const BenchSpec &spec, const Shape &given,
                                      std::string &error) {
  std::vector<const ann::Expr *> facts;
  for (const ann::Expr &a : spec.assumptions)
    conjuncts(a, facts);
  Shape odd = given;
  for (std::size_t i = 0; i < given.names.size(); ++i) {
    std::int64_t granule = 1;
    for (const ann::Expr *f : facts)
      granule = std::lcm(granule, granuleFrom(*f, given.names[i]));
    std::int64_t multiple = given.values[i] / granule;
    if (multiple % 2 == 0)
      --multiple;
    multiple -= 2 * static_cast<std::int64_t>(i);
    while (multiple < 1)
      multiple += 2;
    odd.values[i] = granule * multiple;
  }
  std::string bad = violatedAssumption(spec, odd, error);
  if (!error.empty())
    return std::nullopt;
  if (!bad.empty()) {
    error = "the odd-multiple shape " + odd.text() + " violates the assumption '" + bad +
            "'; give a larger --shape";
    return std::nullopt;
  }
  return odd;
}

} // namespace ave::harness
