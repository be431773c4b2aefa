// The meaning of each operator on C `int` (32-bit, two's complement, signed
// overflow undefined). Shared by constant folding and by evaluate(), so a
// folded term and an evaluated one can never disagree.
#pragma once

#include "ave/invariants/Term.h"

#include <cstdint>
#include <optional>
#include <span>

namespace ave::inv {

inline constexpr int64_t IntMin = -2147483648LL;
inline constexpr int64_t IntMax = 2147483647LL;

inline bool fitsInInt(int64_t V) { return V >= IntMin && V <= IntMax; }

/// Applies an operator (not Constant/Symbol/Apply) to operand values. All
/// operands are taken as evaluated (no short-circuit). nullopt when C leaves
/// the result undefined: division or remainder by zero, INT_MIN / -1,
/// overflow of + - * and unary -, shift counts outside [0, 32), left shift
/// of a negative value or one whose result does not fit.
std::optional<int64_t> applyCOperator(TermKind Kind, std::span<const int64_t> Values);

} // namespace ave::inv
