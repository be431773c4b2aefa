#include "Z3Encoder.h"

#include "ave/invariants/CIntSemantics.h"

#include <unordered_set>
#include <vector>

namespace ave::inv {

Z3Encoder::Z3Encoder(z3::context &z3, EncodingMode mode) : Z3(z3), Mode(mode) {}

z3::expr Z3Encoder::numeral(int64_t value) {
  if (Mode == EncodingMode::BitVector32)
    return Z3.bv_val(static_cast<int>(static_cast<int32_t>(value)), 32);
  return Z3.int_val(value);
}

std::string Z3Encoder::unsupported(const Term *term) const {
  std::unordered_set<const Term *> seen;
  std::vector<const Term *> work{term};
  while (!work.empty()) {
    const Term *t = work.back();
    work.pop_back();
    if (!seen.insert(t).second)
      continue;
    if (t->isConstant() && !fitsInInt(t->value()))
      return "constant " + std::to_string(t->value()) + " does not fit in a 32-bit int";
    if (Mode == EncodingMode::Integer && isBitwise(t->kind()))
      return "bitwise operator in the integer encoding: " + print(t);
    for (const Term *op : t->operands())
      work.push_back(op);
  }
  return {};
}

z3::expr Z3Encoder::inIntRange(const z3::expr &value) {
  if (Mode == EncodingMode::BitVector32)
    return Z3.bool_val(true);
  return Z3.int_val(IntMin) <= value && value <= Z3.int_val(IntMax);
}

// C truncates toward zero; Z3's integer div is Euclidean (remainder >= 0).
// They agree for a non-negative dividend; a negative one is mirrored.
z3::expr Z3Encoder::truncatingDivision(const z3::expr &a, const z3::expr &b) {
  if (Mode == EncodingMode::BitVector32)
    return a / b; // bvsdiv truncates
  return z3::ite(a >= 0, a / b, -((-a) / b));
}

z3::func_decl Z3Encoder::function(const Term *application) {
  std::string key = application->name() + "/" + std::to_string(application->numOperands());
  if (auto it = Functions.find(key); it != Functions.end())
    return it->second;
  z3::sort intSort = Mode == EncodingMode::BitVector32 ? Z3.bv_sort(32) : Z3.int_sort();
  z3::sort_vector domain(Z3);
  for (size_t i = 0; i < application->numOperands(); ++i)
    domain.push_back(intSort);
  z3::func_decl f = Z3.function(key.c_str(), domain, intSort);
  Functions.emplace(key, f);
  return f;
}

z3::expr Z3Encoder::integer(const Term *term) {
  if (auto it = Integers.find(term); it != Integers.end())
    return it->second;
  z3::expr e = encodeInteger(term);
  Integers.emplace(term, e);
  return e;
}

z3::expr Z3Encoder::condition(const Term *term) {
  if (auto it = Conditions.find(term); it != Conditions.end())
    return it->second;
  z3::expr e = encodeCondition(term);
  Conditions.emplace(term, e);
  return e;
}

z3::expr Z3Encoder::definedness(const Term *term) {
  if (auto it = Definedness.find(term); it != Definedness.end())
    return it->second;
  z3::expr e = encodeDefinedness(term);
  Definedness.emplace(term, e);
  return e;
}

z3::expr Z3Encoder::encodeInteger(const Term *t) {
  auto op = [&](size_t i) { return integer(t->operand(i)); };
  bool bv = Mode == EncodingMode::BitVector32;
  switch (t->kind()) {
  case TermKind::Constant:
    return numeral(t->value());
  case TermKind::Symbol: {
    // The id keeps `tx` of two different symbol kinds apart in Z3.
    std::string name = t->name() + "!" + std::to_string(t->id());
    return bv ? Z3.bv_const(name.c_str(), 32) : Z3.int_const(name.c_str());
  }
  case TermKind::Apply: {
    z3::expr_vector args(Z3);
    for (size_t i = 0; i < t->numOperands(); ++i)
      args.push_back(op(i));
    return function(t)(args);
  }
  case TermKind::Add:
    return op(0) + op(1);
  case TermKind::Sub:
    return op(0) - op(1);
  case TermKind::Mul:
    return op(0) * op(1);
  case TermKind::Div:
    return truncatingDivision(op(0), op(1));
  case TermKind::Rem:
    if (bv)
      return z3::srem(op(0), op(1)); // sign of the dividend, like C
    return op(0) - op(1) * truncatingDivision(op(0), op(1));
  case TermKind::Neg:
    return -op(0);
  case TermKind::BitAnd:
  case TermKind::BitOr:
  case TermKind::BitXor:
  case TermKind::Shl:
  case TermKind::Shr:
  case TermKind::BitNot:
    if (!bv) // rejected by unsupported() before encoding
      return Z3.int_val(0);
    switch (t->kind()) {
    case TermKind::BitAnd:
      return op(0) & op(1);
    case TermKind::BitOr:
      return op(0) | op(1);
    case TermKind::BitXor:
      return op(0) ^ op(1);
    case TermKind::Shl:
      return z3::shl(op(0), op(1));
    case TermKind::Shr:
      return z3::ashr(op(0), op(1));
    default:
      return ~op(0);
    }
  case TermKind::Select:
    return z3::ite(condition(t->operand(0)), op(1), op(2));
  default: // comparisons and logic: 0 or 1 as in C
    return z3::ite(condition(t), numeral(1), numeral(0));
  }
}

z3::expr Z3Encoder::encodeCondition(const Term *t) {
  auto op = [&](size_t i) { return integer(t->operand(i)); };
  auto cond = [&](size_t i) { return condition(t->operand(i)); };
  switch (t->kind()) {
  case TermKind::Lt:
    return op(0) < op(1); // signed comparison for bit-vectors in z3++
  case TermKind::Le:
    return op(0) <= op(1);
  case TermKind::Gt:
    return op(0) > op(1);
  case TermKind::Ge:
    return op(0) >= op(1);
  case TermKind::Eq:
    return op(0) == op(1);
  case TermKind::Ne:
    return op(0) != op(1);
  case TermKind::LogicalAnd:
    return cond(0) && cond(1);
  case TermKind::LogicalOr:
    return cond(0) || cond(1);
  case TermKind::LogicalNot:
    return !cond(0);
  case TermKind::Select:
    return z3::ite(cond(0), cond(1), cond(2));
  case TermKind::Constant:
    return Z3.bool_val(t->value() != 0);
  default:
    return integer(t) != numeral(0);
  }
}

z3::expr Z3Encoder::encodeDefinedness(const Term *t) {
  switch (t->kind()) {
  case TermKind::Constant:
    return Z3.bool_val(true);
  case TermKind::Symbol:
    return inIntRange(integer(t));
  // C evaluates the right operand of && / || and one arm of ?: only when
  // the left side / condition says so.
  case TermKind::LogicalAnd:
    return definedness(t->operand(0)) &&
           z3::implies(condition(t->operand(0)), definedness(t->operand(1)));
  case TermKind::LogicalOr:
    return definedness(t->operand(0)) &&
           z3::implies(!condition(t->operand(0)), definedness(t->operand(1)));
  case TermKind::Select:
    return definedness(t->operand(0)) &&
           z3::ite(condition(t->operand(0)), definedness(t->operand(1)),
                   definedness(t->operand(2)));
  default: {
    z3::expr all = operatorDefinedness(t);
    for (const Term *op : t->operands())
      all = definedness(op) && all;
    return all;
  }
  }
}

z3::expr Z3Encoder::operatorDefinedness(const Term *t) {
  bool bv = Mode == EncodingMode::BitVector32;
  auto op = [&](size_t i) { return integer(t->operand(i)); };
  z3::expr yes = Z3.bool_val(true);
  switch (t->kind()) {
  case TermKind::Apply:
    return inIntRange(integer(t)); // a value read from memory is an int
  case TermKind::Add:
    return bv ? z3::bvadd_no_overflow(op(0), op(1), true) && z3::bvadd_no_underflow(op(0), op(1))
              : inIntRange(integer(t));
  case TermKind::Sub:
    return bv ? z3::bvsub_no_overflow(op(0), op(1)) && z3::bvsub_no_underflow(op(0), op(1), true)
              : inIntRange(integer(t));
  case TermKind::Mul:
    return bv ? z3::bvmul_no_overflow(op(0), op(1), true) && z3::bvmul_no_underflow(op(0), op(1))
              : inIntRange(integer(t));
  case TermKind::Neg:
    return bv ? z3::bvneg_no_overflow(op(0)) : inIntRange(integer(t));
  case TermKind::Div:
    return op(1) != numeral(0) &&
           (bv ? z3::bvsdiv_no_overflow(op(0), op(1)) : inIntRange(integer(t)));
  case TermKind::Rem:
    return op(1) != numeral(0) && !(op(0) == numeral(IntMin) && op(1) == numeral(-1));
  case TermKind::Shl:
    if (!bv)
      return yes; // rejected by unsupported()
    return numeral(0) <= op(1) && op(1) < numeral(32) && numeral(0) <= op(0) &&
           z3::ashr(z3::shl(op(0), op(1)), op(1)) == op(0);
  case TermKind::Shr:
    if (!bv)
      return yes;
    return numeral(0) <= op(1) && op(1) < numeral(32);
  default:
    return yes;
  }
}

std::optional<int64_t> Z3Encoder::valueIn(const z3::model &model, const Term *term) {
  z3::expr v = model.eval(integer(term), true);
  if (Mode == EncodingMode::BitVector32) {
    uint64_t bits = 0;
    if (!v.is_numeral_u64(bits))
      return std::nullopt;
    return static_cast<int64_t>(static_cast<int32_t>(static_cast<uint32_t>(bits)));
  }
  int64_t value = 0;
  if (!v.is_numeral_i64(value))
    return std::nullopt;
  return value;
}

} // namespace ave::inv
