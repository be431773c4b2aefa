// --shape parsing, evaluation of annotation expressions under a shape, and
// the odd-multiple second shape.

#include "ave/harness/ShapeBinding.h"

#include "AssignmentList.h"
#include "ave/harness/BenchSpec.h"
#include "ave/invariants/CIntSemantics.h"

#include <algorithm>
#include <cctype>
#include <numeric>

namespace ave::harness {

Bindings Shape::bindings() const {
  Bindings B;
  for (std::size_t I = 0; I < names.size(); ++I)
    B[names[I]] = values[I];
  return B;
}

std::string Shape::text() const {
  std::string Out;
  for (std::size_t I = 0; I < names.size(); ++I)
    Out += (I ? "," : "") + names[I] + "=" + std::to_string(values[I]);
  return Out;
}

namespace {

bool isIdentifier(const std::string &Name) {
  if (Name.empty() || !(std::isalpha(static_cast<unsigned char>(Name[0])) || Name[0] == '_'))
    return false;
  for (char C : Name)
    if (!(std::isalnum(static_cast<unsigned char>(C)) || C == '_'))
      return false;
  return true;
}

// The conjuncts of `a && b && c`.
void conjuncts(const ann::Expr &E, std::vector<const ann::Expr *> &Out) {
  if (E.kind == ann::ExprKind::Binary && E.binaryOp == ann::BinaryOp::LogicalAnd) {
    conjuncts(E.operands[0], Out);
    conjuncts(E.operands[1], Out);
    return;
  }
  Out.push_back(&E);
}

std::optional<std::int64_t> constantOf(const ann::Expr &E) {
  if (E.kind == ann::ExprKind::IntLiteral)
    return E.value;
  if (E.kind == ann::ExprKind::Identifier && E.resolution.constant)
    return E.resolution.constant;
  return std::nullopt;
}

// `name % c == 0` (either side of ==): c, else 1.
std::int64_t granuleFrom(const ann::Expr &Fact, const std::string &Name) {
  if (Fact.kind != ann::ExprKind::Binary || Fact.binaryOp != ann::BinaryOp::Eq)
    return 1;
  for (int Side = 0; Side < 2; ++Side) {
    const ann::Expr &Rem = Fact.operands[Side], &Zero = Fact.operands[1 - Side];
    std::optional<std::int64_t> Z = constantOf(Zero);
    if (!Z || *Z != 0 || Rem.kind != ann::ExprKind::Binary || Rem.binaryOp != ann::BinaryOp::Rem)
      continue;
    const ann::Expr &Var = Rem.operands[0];
    std::optional<std::int64_t> C = constantOf(Rem.operands[1]);
    if (Var.kind == ann::ExprKind::Identifier && Var.name == Name && C && *C > 0)
      return *C;
  }
  return 1;
}

inv::TermKind unaryTermKind(ann::UnaryOp Op) {
  switch (Op) {
  case ann::UnaryOp::Negate:
    return inv::TermKind::Neg;
  case ann::UnaryOp::LogicalNot:
    return inv::TermKind::LogicalNot;
  case ann::UnaryOp::BitNot:
    return inv::TermKind::BitNot;
  }
  return inv::TermKind::Neg;
}

inv::TermKind binaryTermKind(ann::BinaryOp Op) {
  switch (Op) {
  case ann::BinaryOp::Mul:
    return inv::TermKind::Mul;
  case ann::BinaryOp::Div:
    return inv::TermKind::Div;
  case ann::BinaryOp::Rem:
    return inv::TermKind::Rem;
  case ann::BinaryOp::Add:
    return inv::TermKind::Add;
  case ann::BinaryOp::Sub:
    return inv::TermKind::Sub;
  case ann::BinaryOp::Shl:
    return inv::TermKind::Shl;
  case ann::BinaryOp::Shr:
    return inv::TermKind::Shr;
  case ann::BinaryOp::Lt:
    return inv::TermKind::Lt;
  case ann::BinaryOp::Le:
    return inv::TermKind::Le;
  case ann::BinaryOp::Gt:
    return inv::TermKind::Gt;
  case ann::BinaryOp::Ge:
    return inv::TermKind::Ge;
  case ann::BinaryOp::Eq:
    return inv::TermKind::Eq;
  case ann::BinaryOp::Ne:
    return inv::TermKind::Ne;
  case ann::BinaryOp::BitAnd:
    return inv::TermKind::BitAnd;
  case ann::BinaryOp::BitXor:
    return inv::TermKind::BitXor;
  case ann::BinaryOp::BitOr:
    return inv::TermKind::BitOr;
  case ann::BinaryOp::LogicalAnd:
    return inv::TermKind::LogicalAnd;
  case ann::BinaryOp::LogicalOr:
    return inv::TermKind::LogicalOr;
  }
  return inv::TermKind::Add;
}

// Why C leaves `Kind` applied to `Values` undefined (applyCOperator said so).
std::string undefinedBecause(inv::TermKind Kind, const std::vector<std::int64_t> &Values) {
  for (std::int64_t V : Values)
    if (!inv::fitsInInt(V))
      return std::to_string(V) + " does not fit in a C int";
  switch (Kind) {
  case inv::TermKind::Div:
  case inv::TermKind::Rem:
    return Values[1] == 0 ? "division by zero" : "the quotient overflows a C int";
  case inv::TermKind::Shl:
  case inv::TermKind::Shr:
    return "the shift is out of range or overflows a C int";
  default:
    return "the result overflows a C int";
  }
}

// One operator with the analysis' C `int` semantics (CIntSemantics.h), so
// the shapes the harness accepts are the ones the analysis reasons about.
std::optional<std::int64_t> applyC(const ann::Expr &Expr, inv::TermKind Kind,
                                   std::vector<std::int64_t> Values, std::string &Error) {
  if (std::optional<std::int64_t> V = inv::applyCOperator(Kind, Values))
    return V;
  Error = "'" + ann::printExpr(Expr) +
          "' is undefined in C int arithmetic at this shape: " + undefinedBecause(Kind, Values);
  return std::nullopt;
}

} // namespace

std::optional<Bindings> parseShapeText(const std::string &Text, std::string &Error) {
  Bindings Out;
  if (Text.empty()) // a kernel without size parameters needs none
    return Out;
  auto Items = splitAssignments(Text, "--shape", Error);
  if (!Items)
    return std::nullopt;
  for (const auto &[name, value] : *Items) {
    if (!isIdentifier(name)) {
      Error = "--shape: '" + name + "' is not a parameter name";
      return std::nullopt;
    }
    std::size_t Used = 0;
    long long Number = 0;
    try {
      Number = std::stoll(value, &Used, 0);
    } catch (...) {
      Used = 0;
    }
    if (value.empty() || Used != value.size() || Number <= 0) {
      Error = "--shape: " + name + " needs a positive integer, got '" + value + "'";
      return std::nullopt;
    }
    if (!Out.emplace(name, Number).second) {
      Error = "--shape: " + name + " is given twice";
      return std::nullopt;
    }
  }
  return Out;
}

std::optional<Shape> shapeForSpec(const BenchSpec &Spec, const Bindings &Given,
                                  std::string &Error) {
  Shape Shape;
  for (const SizeParam &S : Spec.sizes) {
    auto It = Given.find(S.name);
    if (It == Given.end()) {
      Error =
          "--shape does not give size parameter '" + S.name + "' of kernel '" + Spec.kernel + "'";
      return std::nullopt;
    }
    Shape.names.push_back(S.name);
    Shape.values.push_back(It->second);
  }
  for (const auto &[name, value] : Given) {
    (void)value;
    bool Known = false;
    for (const SizeParam &S : Spec.sizes)
      Known = Known || S.name == name;
    if (!Known) {
      Error = "--shape names '" + name + "', which is no integer parameter of kernel '" +
              Spec.kernel + "'";
      return std::nullopt;
    }
  }
  return Shape;
}

std::optional<std::int64_t> evaluate(const ann::Expr &Expr, const Bindings &Bindings,
                                     std::string &Error) {
  auto Sub = [&](std::size_t I) { return evaluate(Expr.operands[I], Bindings, Error); };
  switch (Expr.kind) {
  case ann::ExprKind::IntLiteral:
    return Expr.value;
  case ann::ExprKind::Identifier: {
    if (Expr.resolution.constant)
      return Expr.resolution.constant;
    auto It = Bindings.find(Expr.name);
    if (It == Bindings.end()) {
      Error = "'" + Expr.name + "' has no value in the shape";
      return std::nullopt;
    }
    return It->second;
  }
  case ann::ExprKind::Unary: {
    std::optional<std::int64_t> V = Sub(0);
    if (!V)
      return std::nullopt;
    return applyC(Expr, unaryTermKind(Expr.unaryOp), {*V}, Error);
  }
  case ann::ExprKind::Binary: {
    std::optional<std::int64_t> A = Sub(0);
    if (!A)
      return std::nullopt;
    // Short-circuit like C (and the analysis' evaluate), so
    // `N > 0 && K / N > 1` is defined at N == 0.
    if (Expr.binaryOp == ann::BinaryOp::LogicalAnd && *A == 0)
      return 0;
    if (Expr.binaryOp == ann::BinaryOp::LogicalOr && *A != 0)
      return 1;
    std::optional<std::int64_t> B = Sub(1);
    if (!B)
      return std::nullopt;
    return applyC(Expr, binaryTermKind(Expr.binaryOp), {*A, *B}, Error);
  }
  case ann::ExprKind::Conditional: {
    std::optional<std::int64_t> C = Sub(0);
    if (!C)
      return std::nullopt;
    return *C ? Sub(1) : Sub(2);
  }
  case ann::ExprKind::Member:
  case ann::ExprKind::Subscript:
  case ann::ExprKind::Call:
    Error = "'" + ann::printExpr(Expr) + "' is not an integer expression over the shape";
    return std::nullopt;
  }
  return std::nullopt;
}

std::string violatedAssumption(const BenchSpec &Spec, const Shape &Shape, std::string &Error) {
  Bindings B = Shape.bindings();
  for (const ann::Expr &Fact : Spec.assumptions) {
    std::optional<std::int64_t> V = evaluate(Fact, B, Error);
    if (!V)
      return "";
    if (*V == 0)
      return ann::printExpr(Fact);
  }
  return "";
}

std::int64_t granuleOf(const BenchSpec &Spec, const std::string &Name) {
  std::vector<const ann::Expr *> Facts;
  for (const ann::Expr &A : Spec.assumptions)
    conjuncts(A, Facts);
  std::int64_t Granule = 1;
  for (const ann::Expr *F : Facts)
    Granule = std::lcm(Granule, granuleFrom(*F, Name));
  return Granule;
}

namespace {

// A size an assumption ties to the others (`R == T`, `S == T * TOPK`) and
// the expression it equals: the odd shape computes it rather than picking
// it, or the two would part.
struct TiedSize {
  std::size_t index;     // into the shape
  const ann::Expr *expr; // over the other sizes
};

bool mentions(const ann::Expr &E, const std::string &Name) {
  if (E.kind == ann::ExprKind::Identifier && E.name == Name)
    return true;
  return std::any_of(E.operands.begin(), E.operands.end(),
                     [&](const ann::Expr &Op) { return mentions(Op, Name); });
}

std::vector<TiedSize> tiedSizes(const std::vector<const BenchSpec *> &Kernels, const Shape &Given) {
  std::vector<TiedSize> Tied;
  std::string Ignored;
  for (const BenchSpec *Spec : Kernels) {
    std::vector<const ann::Expr *> Facts;
    for (const ann::Expr &A : Spec->assumptions)
      conjuncts(A, Facts);
    for (const ann::Expr *F : Facts) {
      if (F->kind != ann::ExprKind::Binary || F->binaryOp != ann::BinaryOp::Eq)
        continue;
      for (int Side = 0; Side < 2; ++Side) {
        const ann::Expr &Lhs = F->operands[Side], &Rhs = F->operands[1 - Side];
        auto Name = std::find(Given.names.begin(), Given.names.end(), Lhs.name);
        if (Lhs.kind != ann::ExprKind::Identifier || Name == Given.names.end() ||
            mentions(Rhs, Lhs.name) || constantOf(Rhs))
          continue;
        std::size_t Index = std::size_t(Name - Given.names.begin());
        bool Known = std::any_of(Tied.begin(), Tied.end(),
                                 [&](const TiedSize &T) { return T.index == Index; });
        if (!Known && evaluate(Rhs, Given.bindings(), Ignored) == Given.values[Index])
          Tied.push_back({Index, &Rhs});
        break;
      }
    }
  }
  return Tied;
}

// Each size an odd multiple of its granule (times Scale for the sizes tied
// sizes are computed from), distinct from the given one; tied sizes computed.
std::optional<Shape> oddCandidate(const std::vector<const BenchSpec *> &Kernels, const Shape &Given,
                                  const std::vector<TiedSize> &Tied, std::int64_t Scale,
                                  std::string &Error) {
  Shape Odd = Given;
  for (std::size_t I = 0; I < Given.names.size(); ++I) {
    std::int64_t Granule = 1;
    for (const BenchSpec *Spec : Kernels)
      Granule = std::lcm(Granule, granuleOf(*Spec, Given.names[I]));
    if (std::any_of(Tied.begin(), Tied.end(),
                    [&](const TiedSize &T) { return mentions(*T.expr, Given.names[I]); }))
      Granule *= Scale;
    std::int64_t Multiple = Given.values[I] / Granule;
    if (Multiple % 2 == 0)
      --Multiple;
    Multiple -= 2 * static_cast<std::int64_t>(I);
    while (Multiple < 1)
      Multiple += 2;
    Odd.values[I] = Granule * Multiple;
  }
  for (const TiedSize &T : Tied) {
    std::optional<std::int64_t> Value = evaluate(*T.expr, Odd.bindings(), Error);
    if (!Value)
      return std::nullopt;
    Odd.values[T.index] = *Value;
  }
  return Odd;
}

} // namespace

std::optional<Shape> oddMultipleShape(const std::vector<const BenchSpec *> &Kernels,
                                      const Shape &Given, std::string &Error) {
  std::vector<TiedSize> Tied = tiedSizes(Kernels, Given);
  std::string Bad;
  std::optional<Shape> Odd;
  // Tied sizes may need the sizes they come from coarser (R == T with
  // R % 16 == 0 makes T a multiple of 16): powers of two until it holds.
  for (std::int64_t Scale = 1; Scale <= (Tied.empty() ? 1 : 256); Scale *= 2) {
    Odd = oddCandidate(Kernels, Given, Tied, Scale, Error);
    if (!Odd)
      return std::nullopt;
    Bad.clear();
    for (const BenchSpec *Spec : Kernels)
      if (Bad.empty()) {
        Bad = violatedAssumption(*Spec, *Odd, Error);
        if (!Error.empty())
          return std::nullopt;
        if (!Bad.empty())
          Bad = "the odd-multiple shape " + Odd->text() + " violates the assumption '" + Bad +
                "' of kernel '" + Spec->kernel + "'; give a larger --shape";
      }
    if (Bad.empty())
      return Odd;
  }
  Error = Bad;
  return std::nullopt;
}

std::optional<Shape> oddMultipleShape(const BenchSpec &Spec, const Shape &Given,
                                      std::string &Error) {
  return oddMultipleShape(std::vector<const BenchSpec *>{&Spec}, Given, Error);
}

} // namespace ave::harness
