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

int precedenceOf(const Term *T) {
  switch (T->kind()) {
  case TermKind::Constant:
    return T->value() < 0 ? PrecUnary : PrecPrimary;
  case TermKind::Symbol:
  case TermKind::Apply:
  case TermKind::Overflows:
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

const char *spelling(TermKind Kind) {
  switch (Kind) {
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

void printTo(std::string &Out, const Term *T);

// Left operands of left-associative operators need parentheses only when
// they bind looser; right operands also when they bind equally.
void printOperand(std::string &Out, const Term *Op, int ParentPrec, bool RightSide) {
  int Prec = precedenceOf(Op);
  bool Parens = RightSide ? Prec <= ParentPrec : Prec < ParentPrec;
  if (Parens)
    Out += '(';
  printTo(Out, Op);
  if (Parens)
    Out += ')';
}

void printTo(std::string &Out, const Term *T) {
  switch (T->kind()) {
  case TermKind::Constant:
    Out += std::to_string(T->value());
    return;
  case TermKind::Symbol:
    Out += T->name();
    return;
  case TermKind::Apply: {
    Out += T->name();
    Out += '(';
    for (size_t I = 0; I < T->numOperands(); ++I) {
      if (I)
        Out += ", ";
      printTo(Out, T->operand(I));
    }
    Out += ')';
    return;
  }
  case TermKind::Overflows:
    Out += "overflows(";
    printTo(Out, T->operand(0));
    Out += ')';
    return;
  case TermKind::Select:
    printOperand(Out, T->operand(0), PrecSelect, true);
    Out += " ? ";
    printOperand(Out, T->operand(1), PrecSelect, true);
    Out += " : ";
    printOperand(Out, T->operand(2), PrecSelect, true);
    return;
  case TermKind::Neg:
  case TermKind::BitNot:
  case TermKind::LogicalNot:
    Out += spelling(T->kind());
    // `-(-3)` and `- -x` must not print as `--`.
    printOperand(Out, T->operand(0), PrecUnary, true);
    return;
  case TermKind::Add:
    // Canonical sums keep constants on the right: `x + -3` reads `x - 3`.
    if (T->operand(1)->isConstant() && T->operand(1)->value() < 0 &&
        T->operand(1)->value() != INT64_MIN) {
      printOperand(Out, T->operand(0), PrecAdditive, false);
      Out += " - ";
      Out += std::to_string(-T->operand(1)->value());
      return;
    }
    [[fallthrough]];
  default: {
    int Prec = precedenceOf(T);
    printOperand(Out, T->operand(0), Prec, false);
    Out += spelling(T->kind());
    printOperand(Out, T->operand(1), Prec, true);
    return;
  }
  }
}

} // namespace

std::string print(const Term *Term) {
  std::string Out;
  printTo(Out, Term);
  return Out;
}

} // namespace ave::inv
