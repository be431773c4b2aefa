#include "ave/invariants/CIntSemantics.h"

namespace ave::inv {

namespace {

std::optional<int64_t> checked(int64_t V) {
  if (!fitsInInt(V))
    return std::nullopt;
  return V;
}

} // namespace

std::optional<int64_t> applyCOperator(TermKind Kind, std::span<const int64_t> Values) {
  auto A = [&] { return Values[0]; };
  auto B = [&] { return Values[1]; };
  // Operands are int values; anything outside is itself not a C int.
  for (int64_t V : Values)
    if (!fitsInInt(V))
      return std::nullopt;
  switch (Kind) {
  case TermKind::Add:
    return checked(A() + B());
  case TermKind::Sub:
    return checked(A() - B());
  case TermKind::Mul:
    return checked(A() * B());
  case TermKind::Div:
    if (B() == 0)
      return std::nullopt;
    return checked(A() / B()); // int64 `/` truncates like C's int `/`
  case TermKind::Rem:
    if (B() == 0 || (A() == IntMin && B() == -1))
      return std::nullopt;
    return A() % B();
  case TermKind::BitAnd:
    return A() & B();
  case TermKind::BitOr:
    return A() | B();
  case TermKind::BitXor:
    return A() ^ B();
  case TermKind::Shl:
    if (B() < 0 || B() >= 32 || A() < 0)
      return std::nullopt;
    return checked(A() << B());
  case TermKind::Shr:
    if (B() < 0 || B() >= 32)
      return std::nullopt;
    return A() >> B(); // arithmetic on int64, same as on a sign-extended int
  case TermKind::Neg:
    return checked(-A());
  case TermKind::BitNot:
    return ~A();
  case TermKind::Lt:
    return A() < B();
  case TermKind::Le:
    return A() <= B();
  case TermKind::Gt:
    return A() > B();
  case TermKind::Ge:
    return A() >= B();
  case TermKind::Eq:
    return A() == B();
  case TermKind::Ne:
    return A() != B();
  case TermKind::LogicalAnd:
    return A() != 0 && B() != 0;
  case TermKind::LogicalOr:
    return A() != 0 || B() != 0;
  case TermKind::LogicalNot:
    return A() == 0;
  case TermKind::Select:
    return Values[0] != 0 ? Values[1] : Values[2];
  case TermKind::Constant:
  case TermKind::Symbol:
  case TermKind::Apply:
  case TermKind::Overflows: // needs the operator, not its value: evaluate()
    return std::nullopt;
  }
  return std::nullopt;
}

} // namespace ave::inv
