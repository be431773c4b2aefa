// Translation of terms into Z3 expressions with C `int` meaning.
//
// Two encodings: mathematical integers (linear index arithmetic; fast, and
// exact because signed overflow is undefined behaviour and excluded by the
// definedness condition) and 32-bit bit-vectors (needed as soon as `& | ^ <<
// >> ~` appear, e.g. XOR swizzles). C `/` and `%` truncate toward zero; in
// the integer encoding they are built from Z3's Euclidean div, in the
// bit-vector encoding they are bvsdiv/bvsrem, which already truncate.
//
// Every term also has a definedness condition (no division by zero, no
// signed overflow, shift counts in range, `&&`/`||`/`?:` short-circuit). A
// query asserts it next to the term, so a "counterexample" is never an
// undefined execution the compiler may assume away.
#pragma once

#include "ave/invariants/Term.h"

#include <optional>
#include <string>
#include <unordered_map>
#include <z3++.h>

namespace ave::inv {

enum class EncodingMode { Integer, BitVector32 };

class Z3Encoder {
public:
  Z3Encoder(z3::context &Z3, EncodingMode Mode);

  EncodingMode mode() const { return Mode; }
  /// The term as a C `int` (Int sort or 32-bit bit-vector).
  z3::expr integer(const Term *Term);
  /// The term as a C condition (non-zero).
  z3::expr condition(const Term *Term);
  /// When evaluating `term` is defined; includes the int range of every
  /// symbol and application in it (intrinsic in the bit-vector encoding).
  z3::expr definedness(const Term *Term);
  /// Why `term` cannot be encoded in this mode (a constant that is not a
  /// 32-bit int, which C int arithmetic never produces; a bitwise operator in the integer
  /// encoding), or empty. Callers check before encoding; such queries are not run.
  std::string unsupported(const Term *Term) const;

  /// The value of an encoded integer term in a model, as a C int.
  std::optional<int64_t> valueIn(const z3::model &Model, const Term *Term);

private:
  z3::expr encodeInteger(const Term *Term);
  z3::expr encodeCondition(const Term *Term);
  z3::expr encodeDefinedness(const Term *Term);
  z3::expr operatorDefinedness(const Term *Term);
  z3::expr numeral(int64_t Value);
  z3::expr inIntRange(const z3::expr &Value);
  z3::expr truncatingDivision(const z3::expr &A, const z3::expr &B);
  static std::optional<unsigned> powerOfTwoShift(const z3::expr &Divisor);
  z3::func_decl function(const Term *Application);

  z3::context &Z3;
  EncodingMode Mode;
  std::unordered_map<const Term *, z3::expr> Integers;
  std::unordered_map<const Term *, z3::expr> Conditions;
  std::unordered_map<const Term *, z3::expr> Definedness;
  std::unordered_map<std::string, z3::func_decl> Functions;
};

} // namespace ave::inv
