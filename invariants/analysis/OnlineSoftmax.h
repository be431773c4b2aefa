// The online softmax's rescaling, followed (docs/analysis.md, "Online
// softmax"). Attention keeps a running max m and rescales its running sums
// as the max grows:
//
//   m_old = m; m = fmaxf(m, s);
//   acc = acc * expf(m_old - m) + expf(s - m) * v;
//
// The provenance alone cannot tell this from `m_old` read after the update
// (the factor is then 1 and the sum mixes shifts: the soundness fuzzer's
// attention mutant #163 was proven), from a decay `expf(m - m_old)`, or from
// a weight `expf(s - m_old)`. So the values involved carry a MaxShift, and a
// rescaled running value must be `head * exp(m_prev - m)` plus contributions
// `exp(s - m) * v` with the same m, base and scale. Any other data-dependent
// factor on a running value, and a shifted weight added to a running value
// of the same loop that was not rescaled, make the value unknown: the
// obligations that read it are unproven with the reason. Internal to
// invariants/.
#pragma once

#include "ave/invariants/Provenance.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace ave::inv {

// The marker of `A Op B` that is not an accumulation into a running value
// (Op: '+', '-', '*', '/', 'M', 'n'), from the operands.
std::optional<MaxShift> shiftOfCombination(const DataValue &A, const DataValue &B, char Op);

// The marker of an elementwise function of Arg: the exponential family
// exponentiates an exponent, a conversion keeps it, anything else drops it.
std::optional<MaxShift> shiftAfterFunction(const DataValue &Arg, llvm::StringRef Name);

// Why `Head * Factor` (a running value's loop-head value scaled by a
// tagged factor) is not followed; empty when Factor is exp(m_prev - m).
std::string rescaleReason(const DataValue &Head, const DataValue &Factor, char Op);

// Why adding Add to the running value Acc is not followed; empty when it
// is. SameLoop: whether Acc and the running max of Add's weight are carried
// by one loop.
std::string contributionReason(const DataValue &Acc, const DataValue &Add, bool SameLoop);

// The marker of a running value after Add is added to Acc (a partial sum of
// weights shifted by one max keeps that shift).
std::optional<MaxShift> shiftAfterContribution(const DataValue &Acc, const DataValue &Add);

} // namespace ave::inv
