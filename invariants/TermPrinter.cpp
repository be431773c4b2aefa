// C-like rendering of terms for diagnostics and counterexamples. Uses C
// precedence so the text can be pasted back into a kernel; products are
// written tight (`by*16`) and sums spaced (`by*16 + ty`) to show structure.
#include "ave/invariants/Term.h"

namespace ave::inv {

namespace {

enum Precedence : int {
  PrecSelect = 3,
  PrecLogicalOr = 4,
  PrecLogicalAnd = 5,
  PrecBitOr = 6,
  PrecBitXor = 7,
  PrecBitAnd = 8,
  PrecEquality = 9,
  PrecRelational = 10,
  PrecShift = 11,
  PrecAdditive = 12,
  PrecMultiplicative = 13,
  PrecUnary = 14,
  PrecPrimary = 15,
};

int precedenceOf(const Term *t) {
  switch (t->kind()) {
  case TermKind::Constant:
    return t->value() < 0 ? PrecUnary : PrecPrimary;
  case TermKind::Symbol:
  case TermKind::Apply:
    return PrecPrimary;
  case TermKind::Add:
  case TermKind::Sub:
    return PrecAdditive;
  case TermKind::Mul:
  case TermKind::Div:
  case TermKind::Rem:
    return PrecMultiplicative;
  case TermKind::Shl:
  case TermKind::Shr:
    return PrecShift;
  case TermKind::Lt:
  case TermKind::Le:
  case TermKind::Gt:
  case TermKind::Ge:
    return PrecRelational;
  case TermKind::Eq:
  case TermKind::Ne:
    return PrecEquality;
  case TermKind::BitAnd:
    return PrecBitAnd;
  case TermKind::BitXor:
    return PrecBitXor;
  case TermKind::BitOr:
    return PrecBitOr;
  case TermKind::LogicalAnd:
    return PrecLogicalAnd;
  case TermKind::LogicalOr:
    return PrecLogicalOr;
  case TermKind::Neg:
  case TermKind::BitNot:
  case TermKind::LogicalNot:
    return PrecUnary;
  case TermKind::Select:
    return PrecSelect;
  }
  return PrecPrimary;
}

const char *spelling(TermKind kind) {
  switch (kind) {
  case TermKind::Add:
    return " + ";
  case TermKind::Sub:
    return " - ";
  case TermKind::Mul:
    return "*";
  case TermKind::Div:
    return " / ";
  case TermKind::Rem:
    return " % ";
  case TermKind::BitAnd:
    return " & ";
  case TermKind::BitOr:
    return " | ";
  case TermKind::BitXor:
    return " ^ ";
  case TermKind::Shl:
    return " << ";
  case TermKind::Shr:
    return " >> ";
  case TermKind::Lt:
    return " < ";
  case TermKind::Le:
    return " <= ";
  case TermKind::Gt:
    return " > ";
  case TermKind::Ge:
    return " >= ";
  case TermKind::Eq:
    return " == ";
  case TermKind::Ne:
    return " != ";
  case TermKind::LogicalAnd:
    return " && ";
  case TermKind::LogicalOr:
    return " || ";
  case TermKind::Neg:
    return "-";
  case TermKind::BitNot:
    return "~";
  case TermKind::LogicalNot:
    return "!";
  default:
    return "?";
  }
}

void printTo(std::string &out, const Term *t);

// Left operands of left-associative operators need parentheses only when
// they bind looser; right operands also when they bind equally.
void printOperand(std::string &out, const Term *op, int parentPrec, bool rightSide) {
  int prec = precedenceOf(op);
  bool parens = rightSide ? prec <= parentPrec : prec < parentPrec;
  if (parens)
    out += '(';
  printTo(out, op);
  if (parens)
    out += ')';
}

void printTo(std::string &out, const Term *t) {
  switch (t->kind()) {
  case TermKind::Constant:
    out += std::to_string(t->value());
    return;
  case TermKind::Symbol:
    out += t->name();
    return;
  case TermKind::Apply: {
    out += t->name();
    out += '(';
    for (size_t i = 0; i < t->numOperands(); ++i) {
      if (i)
        out += ", ";
      printTo(out, t->operand(i));
    }
    out += ')';
    return;
  }
  case TermKind::Select:
    printOperand(out, t->operand(0), PrecSelect, true);
    out += " ? ";
    printOperand(out, t->operand(1), PrecSelect, true);
    out += " : ";
    printOperand(out, t->operand(2), PrecSelect, true);
    return;
  case TermKind::Neg:
  case TermKind::BitNot:
  case TermKind::LogicalNot:
    out += spelling(t->kind());
    // `-(-3)` and `- -x` must not print as `--`.
    printOperand(out, t->operand(0), PrecUnary, true);
    return;
  case TermKind::Add:
    // Canonical sums keep constants on the right: `x + -3` reads `x - 3`.
    if (t->operand(1)->isConstant() && t->operand(1)->value() < 0 &&
        t->operand(1)->value() != INT64_MIN) {
      printOperand(out, t->operand(0), PrecAdditive, false);
      out += " - ";
      out += std::to_string(-t->operand(1)->value());
      return;
    }
    [[fallthrough]];
  default: {
    int prec = precedenceOf(t);
    printOperand(out, t->operand(0), prec, false);
    out += spelling(t->kind());
    printOperand(out, t->operand(1), prec, true);
    return;
  }
  }
}

} // namespace

std::string print(const Term *term) {
  std::string out;
  printTo(out, term);
  return out;
}

} // namespace ave::inv
