#include "OnlineSoftmax.h"

#include <algorithm>
#include <cmath>

namespace ave::inv {

namespace {

// The running max after its update in this iteration (`fmaxf(m, s)`).
bool isUpdatedMax(const DataValue &V) {
  return V.accumulates() && V.accumulatedBy == 'M' && V.isTagged() && !V.maxShift && !V.rescaledBy;
}

// The loop-head value of running value Id, untouched in this iteration.
bool isHeadOf(const DataValue &V, AccumulatorId Id) {
  return V.accumulator == Id && V.kind == DataValue::Kind::Neutral && V.cases.empty() &&
         !V.maxShift && !V.rescaledBy;
}

// An exponent scaled by a number: its constant or the parameters it is
// made of; nothing when the number is neither (a value computed from an
// integer).
std::optional<MaxShift> scaled(MaxShift Shift, const DataValue &By, char Op) {
  if (By.constants.size() == 1 && By.parameters.empty()) {
    double C = By.constants.front();
    if (C == 0)
      return std::nullopt;
    Shift.factor = Op == '/' ? Shift.factor / C : Shift.factor * C;
    return Shift;
  }
  if (By.constants.empty() && !By.parameters.empty()) {
    for (const std::string &P : By.parameters)
      Shift.scale.insert(Op == '/' ? "/" + P : P);
    return Shift;
  }
  return std::nullopt;
}

int exponentialBase(llvm::StringRef Name) {
  if (Name.contains("exp10"))
    return 10;
  if (Name.contains("exp2"))
    return 2;
  if (Name == "exp" || Name == "expf" || Name == "__expf" || Name == "hexp" || Name == "h2exp")
    return 'e';
  return 0;
}

bool isConversion(llvm::StringRef Name) {
  return Name.starts_with("__float2") || Name.starts_with("__half2") ||
         Name.starts_with("__bfloat162") || Name == "float" || Name == "half";
}

// The same max, scale and (base-e) factor; factors come from float
// literals (`1.44269504f`), so they agree to float precision.
bool sameShift(const MaxShift &A, const MaxShift &B) {
  return A.max == B.max && A.base == B.base && A.scale == B.scale &&
         std::fabs(A.factor - B.factor) <=
             1e-6 * std::max(std::fabs(A.factor), std::fabs(B.factor));
}

} // namespace

std::optional<MaxShift> shiftOfCombination(const DataValue &A, const DataValue &B, char Op) {
  if (Op == '-' && isUpdatedMax(B)) {
    MaxShift Out;
    Out.max = B.accumulator;
    if (isHeadOf(A, B.accumulator)) {
      Out.form = MaxShift::Form::Decay;
      return Out;
    }
    if (A.isTagged() && A.accumulator != B.accumulator && !A.maxShift && !A.rescaledBy)
      return Out;
    return std::nullopt;
  }
  if (Op != '*' && Op != '/')
    return std::nullopt;
  if (A.maxShift.has_value() == B.maxShift.has_value())
    return std::nullopt; // neither, or both (a weight squared)
  const DataValue &Marked = A.maxShift ? A : B;
  const DataValue &Other = A.maxShift ? B : A;
  const MaxShift &Shift = *Marked.maxShift;
  if (Shift.base == 0) // the exponent scaled: `(s - m) * log2e`
    return Other.kind == DataValue::Kind::Neutral && (Op == '*' || A.maxShift)
               ? scaled(Shift, Other, Op)
               : std::nullopt;
  // A weight times a value (`p * v`), or times a number.
  if (Op == '*' && Shift.form == MaxShift::Form::Shift && Other.kind != DataValue::Kind::Unknown &&
      !Other.rescaledBy)
    return Shift;
  return std::nullopt;
}

std::optional<MaxShift> shiftAfterFunction(const DataValue &Arg, llvm::StringRef Name) {
  Name.consume_front("__builtin_");
  if (!Arg.maxShift)
    return std::nullopt;
  if (int Base = exponentialBase(Name)) {
    if (Arg.maxShift->base != 0)
      return std::nullopt; // exp of a weight
    // In base e: exp2f(x * log2(e)) is expf(x).
    MaxShift Out = *Arg.maxShift;
    Out.base = 'e';
    Out.factor *= Base == 'e' ? 1.0 : std::log(double(Base));
    return Out;
  }
  return isConversion(Name) ? Arg.maxShift : std::nullopt;
}

std::string rescaleReason(const DataValue &Head, const DataValue &Factor, char Op) {
  if (Factor.kind != DataValue::Kind::Tagged)
    return "";
  if (Head.rescaledBy)
    return "a running value is rescaled twice in one iteration (online softmax)";
  if (Op == '*' && Factor.maxShift && Factor.maxShift->form == MaxShift::Form::Decay &&
      Factor.maxShift->base != 0)
    return "";
  return "a running value is multiplied by a factor computed from the data that is not "
         "exp(m_prev - m) of a running max m (online softmax: m_prev its value before this "
         "iteration's update, m after it); no other rescaling is followed";
}

std::string contributionReason(const DataValue &Acc, const DataValue &Add, bool SameLoop) {
  const std::optional<MaxShift> &Weight = Add.maxShift;
  bool Shifted = Weight && Weight->form == MaxShift::Form::Shift && Weight->base != 0;
  if (Acc.rescaledBy) {
    if (Shifted && sameShift(*Weight, *Acc.rescaledBy))
      return "";
    return "a contribution to a running value rescaled by exp(m_prev - m) is not exp(s - m) "
           "times a value with the same running max m, base and scale (online softmax): the sum "
           "would mix two shifts";
  }
  if (Shifted && SameLoop)
    return "a weight exp(s - m), m a running max of this loop, is added to a running value that "
           "was not rescaled by exp(m_prev - m) (online softmax): the sum would mix shifts";
  return "";
}

std::optional<MaxShift> shiftAfterContribution(const DataValue &Acc, const DataValue &Add) {
  if (Acc.rescaledBy || !Add.maxShift || Add.maxShift->form != MaxShift::Form::Shift ||
      Add.maxShift->base == 0)
    return std::nullopt;
  if (Acc.kind == DataValue::Kind::Neutral && Acc.cases.empty() && !Acc.maxShift)
    return Add.maxShift;
  if (Acc.maxShift && sameShift(*Acc.maxShift, *Add.maxShift))
    return Acc.maxShift;
  return std::nullopt;
}

} // namespace ave::inv
