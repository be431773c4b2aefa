#include "Z3Encoder.h"

#include "ave/invariants/CIntSemantics.h"

#include "llvm/ADT/bit.h"

namespace ave::inv {

Z3Encoder::Z3Encoder(z3::context &Z3, EncodingMode Mode) : Z3(Z3), Mode(Mode) {}

z3::expr Z3Encoder::numeral(int64_t Value) {
  if (Mode == EncodingMode::BitVector32)
    return Z3.bv_val(static_cast<int>(static_cast<int32_t>(Value)), 32);
  return Z3.int_val(Value);
}

std::string Z3Encoder::unsupported(const Term *Node) const {
  const Term *Found = findSubterm(Node, [&](const Term *T) {
    return (T->isConstant() && !fitsInInt(T->value())) ||
           (Mode == EncodingMode::Integer && isBitwise(T->kind()));
  });
  if (!Found)
    return {};
  if (Found->isConstant())
    return "constant " + std::to_string(Found->value()) + " does not fit in a 32-bit int";
  return "bitwise operator in the integer encoding: " + print(Found);
}

z3::expr Z3Encoder::inIntRange(const z3::expr &Value) {
  if (Mode == EncodingMode::BitVector32)
    return Z3.bool_val(true);
  return Z3.int_val(IntMin) <= Value && Value <= Z3.int_val(IntMax);
}

// C truncates toward zero; Z3's integer div is Euclidean (remainder >= 0).
// They agree for a non-negative dividend. By a positive constant (index
// arithmetic's `/ 256`, `% 16`), a negative dividend that is not a multiple
// is one above Z3's quotient: one div/mod pair for Z3 to split on instead
// of two (vector_scale's coverage query: 110 -> 55 ms). Otherwise a
// negative dividend is mirrored.
//
// In 32 bits, bvsdiv is a divider circuit once Z3 bit-blasts it: a launch's
// `gridDim.x == C / 32` made transpose_swizzle's first bit-vector check take
// 30 ms. By 2^k it is what compilers emit instead, a shift of the dividend
// biased by 2^k - 1 when negative (an adder and shifts), and the remainder
// follows from it; the unit test proves both equal to bvsdiv/bvsrem.
z3::expr Z3Encoder::truncatingDivision(const z3::expr &A, const z3::expr &B) {
  if (Mode == EncodingMode::BitVector32) {
    if (std::optional<unsigned> Shift = powerOfTwoShift(B)) {
      if (*Shift == 0)
        return A;
      z3::expr Bias = z3::lshr(z3::ashr(A, 31), numeral(32 - *Shift));
      return z3::ashr(A + Bias, numeral(*Shift));
    }
    return A / B; // bvsdiv truncates
  }
  int64_t Divisor = 0;
  if (B.is_numeral_i64(Divisor) && Divisor > 0)
    return A / B + z3::ite(A < 0 && z3::mod(A, B) != 0, Z3.int_val(1), Z3.int_val(0));
  return z3::ite(A >= 0, A / B, -((-A) / B));
}

std::optional<unsigned> Z3Encoder::powerOfTwoShift(const z3::expr &Divisor) {
  int64_t Value = 0;
  if (!Divisor.is_numeral_i64(Value))
    return std::nullopt;
  // A 32-bit numeral reads back unsigned: INT_MIN is 2^31, not a power here.
  if (Value <= 0 || Value > (int64_t(1) << 30) || (Value & (Value - 1)) != 0)
    return std::nullopt;
  return unsigned(llvm::countr_zero(uint64_t(Value)));
}

z3::func_decl Z3Encoder::function(const Term *Application) {
  std::string Key = Application->name() + "/" + std::to_string(Application->numOperands());
  if (auto It = Functions.find(Key); It != Functions.end())
    return It->second;
  z3::sort IntSort = Mode == EncodingMode::BitVector32 ? Z3.bv_sort(32) : Z3.int_sort();
  z3::sort_vector Domain(Z3);
  for (size_t I = 0; I < Application->numOperands(); ++I)
    Domain.push_back(IntSort);
  z3::func_decl F = Z3.function(Key.c_str(), Domain, IntSort);
  Functions.emplace(Key, F);
  return F;
}

z3::expr Z3Encoder::integer(const Term *Node) {
  if (auto It = Integers.find(Node); It != Integers.end())
    return It->second;
  z3::expr E = encodeInteger(Node);
  Integers.emplace(Node, E);
  return E;
}

z3::expr Z3Encoder::condition(const Term *Node) {
  if (auto It = Conditions.find(Node); It != Conditions.end())
    return It->second;
  z3::expr E = encodeCondition(Node);
  Conditions.emplace(Node, E);
  return E;
}

z3::expr Z3Encoder::definedness(const Term *Node) {
  if (auto It = Definedness.find(Node); It != Definedness.end())
    return It->second;
  z3::expr E = encodeDefinedness(Node);
  Definedness.emplace(Node, E);
  return E;
}

z3::expr Z3Encoder::encodeInteger(const Term *T) {
  auto Op = [&](size_t I) { return integer(T->operand(I)); };
  bool Bv = Mode == EncodingMode::BitVector32;
  switch (T->kind()) {
  case TermKind::Constant:
    return numeral(T->value());
  case TermKind::Symbol: {
    // The id keeps `tx` of two different symbol kinds apart in Z3.
    std::string Name = T->name() + "!" + std::to_string(T->id());
    return Bv ? Z3.bv_const(Name.c_str(), 32) : Z3.int_const(Name.c_str());
  }
  case TermKind::Apply: {
    z3::expr_vector Args(Z3);
    for (size_t I = 0; I < T->numOperands(); ++I)
      Args.push_back(Op(I));
    return function(T)(Args);
  }
  case TermKind::Add:
    return Op(0) + Op(1);
  case TermKind::Sub:
    return Op(0) - Op(1);
  case TermKind::Mul:
    return Op(0) * Op(1);
  case TermKind::Div:
    return truncatingDivision(Op(0), Op(1));
  case TermKind::Rem:
    if (Bv && !powerOfTwoShift(Op(1)))
      return z3::srem(Op(0), Op(1)); // sign of the dividend, like C
    return Op(0) - Op(1) * truncatingDivision(Op(0), Op(1));
  case TermKind::Neg:
    return -Op(0);
  case TermKind::BitAnd:
  case TermKind::BitOr:
  case TermKind::BitXor:
  case TermKind::Shl:
  case TermKind::Shr:
  case TermKind::BitNot:
    if (!Bv) // rejected by unsupported() before encoding
      return Z3.int_val(0);
    switch (T->kind()) {
    case TermKind::BitAnd:
      return Op(0) & Op(1);
    case TermKind::BitOr:
      return Op(0) | Op(1);
    case TermKind::BitXor:
      return Op(0) ^ Op(1);
    case TermKind::Shl:
      return z3::shl(Op(0), Op(1));
    case TermKind::Shr:
      return z3::ashr(Op(0), Op(1));
    default:
      return ~Op(0);
    }
  case TermKind::Select:
    return z3::ite(condition(T->operand(0)), Op(1), Op(2));
  default: // comparisons and logic: 0 or 1 as in C
    return z3::ite(condition(T), numeral(1), numeral(0));
  }
}

z3::expr Z3Encoder::encodeCondition(const Term *T) {
  auto Op = [&](size_t I) { return integer(T->operand(I)); };
  auto Cond = [&](size_t I) { return condition(T->operand(I)); };
  switch (T->kind()) {
  case TermKind::Lt:
    return Op(0) < Op(1); // signed comparison for bit-vectors in z3++
  case TermKind::Le:
    return Op(0) <= Op(1);
  case TermKind::Gt:
    return Op(0) > Op(1);
  case TermKind::Ge:
    return Op(0) >= Op(1);
  case TermKind::Eq:
    return Op(0) == Op(1);
  case TermKind::Ne:
    return Op(0) != Op(1);
  case TermKind::LogicalAnd:
    return Cond(0) && Cond(1);
  case TermKind::LogicalOr:
    return Cond(0) || Cond(1);
  case TermKind::LogicalNot:
    return !Cond(0);
  case TermKind::Select:
    return z3::ite(Cond(0), Cond(1), Cond(2));
  case TermKind::Overflows: {
    z3::expr Defined = Z3.bool_val(true);
    for (const Term *Arg : T->operand(0)->operands())
      Defined = Defined && definedness(Arg);
    return Defined && !operatorDefinedness(T->operand(0));
  }
  case TermKind::Constant:
    return Z3.bool_val(T->value() != 0);
  default:
    return integer(T) != numeral(0);
  }
}

z3::expr Z3Encoder::encodeDefinedness(const Term *T) {
  switch (T->kind()) {
  case TermKind::Constant:
  case TermKind::Overflows: // the question itself, asked without assuming it
    return Z3.bool_val(true);
  case TermKind::Symbol:
    return inIntRange(integer(T));
  // C evaluates the right operand of && / || and one arm of ?: only when
  // the left side / condition says so.
  case TermKind::LogicalAnd:
    return definedness(T->operand(0)) &&
           z3::implies(condition(T->operand(0)), definedness(T->operand(1)));
  case TermKind::LogicalOr:
    return definedness(T->operand(0)) &&
           z3::implies(!condition(T->operand(0)), definedness(T->operand(1)));
  case TermKind::Select:
    return definedness(T->operand(0)) &&
           z3::ite(condition(T->operand(0)), definedness(T->operand(1)),
                   definedness(T->operand(2)));
  default: {
    z3::expr All = operatorDefinedness(T);
    for (const Term *Op : T->operands())
      All = definedness(Op) && All;
    return All;
  }
  }
}

z3::expr Z3Encoder::operatorDefinedness(const Term *T) {
  bool Bv = Mode == EncodingMode::BitVector32;
  auto Op = [&](size_t I) { return integer(T->operand(I)); };
  z3::expr Yes = Z3.bool_val(true);
  switch (T->kind()) {
  case TermKind::Apply:
    return inIntRange(integer(T)); // a value read from memory is an int
  case TermKind::Add:
    return Bv ? z3::bvadd_no_overflow(Op(0), Op(1), true) && z3::bvadd_no_underflow(Op(0), Op(1))
              : inIntRange(integer(T));
  case TermKind::Sub:
    return Bv ? z3::bvsub_no_overflow(Op(0), Op(1)) && z3::bvsub_no_underflow(Op(0), Op(1), true)
              : inIntRange(integer(T));
  case TermKind::Mul:
    return Bv ? z3::bvmul_no_overflow(Op(0), Op(1), true) && z3::bvmul_no_underflow(Op(0), Op(1))
              : inIntRange(integer(T));
  case TermKind::Neg:
    return Bv ? z3::bvneg_no_overflow(Op(0)) : inIntRange(integer(T));
  case TermKind::Div:
    return Op(1) != numeral(0) &&
           (Bv ? z3::bvsdiv_no_overflow(Op(0), Op(1)) : inIntRange(integer(T)));
  case TermKind::Rem:
    return Op(1) != numeral(0) && !(Op(0) == numeral(IntMin) && Op(1) == numeral(-1));
  case TermKind::Shl:
    if (!Bv)
      return Yes; // rejected by unsupported()
    return numeral(0) <= Op(1) && Op(1) < numeral(32) && numeral(0) <= Op(0) &&
           z3::ashr(z3::shl(Op(0), Op(1)), Op(1)) == Op(0);
  case TermKind::Shr:
    if (!Bv)
      return Yes;
    return numeral(0) <= Op(1) && Op(1) < numeral(32);
  default:
    return Yes;
  }
}

std::optional<int64_t> Z3Encoder::valueIn(const z3::model &Model, const Term *Node) {
  z3::expr V = Model.eval(integer(Node), true);
  if (Mode == EncodingMode::BitVector32) {
    uint64_t Bits = 0;
    if (!V.is_numeral_u64(Bits))
      return std::nullopt;
    return static_cast<int64_t>(static_cast<int32_t>(static_cast<uint32_t>(Bits)));
  }
  int64_t Value = 0;
  if (!V.is_numeral_i64(Value))
    return std::nullopt;
  return Value;
}

} // namespace ave::inv
