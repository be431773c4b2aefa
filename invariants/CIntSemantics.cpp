#include "ave/invariants/CIntSemantics.h"

namespace ave::inv {

namespace {

std::optional<int64_t> checked(int64_t v) {
  if (!fitsInInt(v))
    return std::nullopt;
  return v;
}

} // namespace

std::optional<int64_t> applyCOperator(TermKind kind, std::span<const int64_t> values) {
  auto a = [&] { return values[0]; };
  auto b = [&] { return values[1]; };
  // Operands are int values; anything outside is itself not a C int.
  for (int64_t v : values)
    if (!fitsInInt(v))
      return std::nullopt;
  switch (kind) {
  case TermKind::Add:
    return checked(a() + b());
  case TermKind::Sub:
    return checked(a() - b());
  case TermKind::Mul:
    return checked(a() * b());
  case TermKind::Div:
    if (b() == 0)
      return std::nullopt;
    return checked(a() / b()); // int64 `/` truncates like C's int `/`
  case TermKind::Rem:
    if (b() == 0 || (a() == IntMin && b() == -1))
      return std::nullopt;
    return a() % b();
  case TermKind::BitAnd:
    return a() & b();
  case TermKind::BitOr:
    return a() | b();
  case TermKind::BitXor:
    return a() ^ b();
  case TermKind::Shl:
    if (b() < 0 || b() >= 32 || a() < 0)
      return std::nullopt;
    return checked(a() << b());
  case TermKind::Shr:
    if (b() < 0 || b() >= 32)
      return std::nullopt;
    return a() >> b(); // arithmetic on int64, same as on a sign-extended int
  case TermKind::Neg:
    return checked(-a());
  case TermKind::BitNot:
    return ~a();
  case TermKind::Lt:
    return a() < b();
  case TermKind::Le:
    return a() <= b();
  case TermKind::Gt:
    return a() > b();
  case TermKind::Ge:
    return a() >= b();
  case TermKind::Eq:
    return a() == b();
  case TermKind::Ne:
    return a() != b();
  case TermKind::LogicalAnd:
    return a() != 0 && b() != 0;
  case TermKind::LogicalOr:
    return a() != 0 || b() != 0;
  case TermKind::LogicalNot:
    return a() == 0;
  case TermKind::Select:
    return values[0] != 0 ? values[1] : values[2];
  case TermKind::Constant:
  case TermKind::Symbol:
  case TermKind::Apply:
    return std::nullopt;
  }
  return std::nullopt;
}

} // namespace ave::inv
