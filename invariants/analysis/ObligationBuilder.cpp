// Implicit invariant 1: at every combination of two tagged values the names
// they share agree, except the names one of them already reduced; and the
// accumulation into a loop-carried value (`acc += p`, `m = fmaxf(m, s)`,
// `acc * correction`).

#include "OnlineSoftmax.h"
#include "ProvenanceInterpreter.h"

#include <cmath>

namespace ave::inv {

bool ProvenanceInterpreter::contradicts(const Term *A, const Term *B) {
  std::vector<const Term *> CA, CB;
  collectConjuncts(A, CA);
  collectConjuncts(B, CB);
  for (const Term *X : CA)
    for (const Term *Y : CB)
      if (Y == T.logicalNot(X) || X == T.logicalNot(Y))
        return true;
  return false;
}

ProvenanceCase ProvenanceInterpreter::mergeCases(const ProvenanceCase &A, const ProvenanceCase &B) {
  ProvenanceCase C = A;
  C.validity = T.logicalAnd(A.validity, B.validity);
  C.constraints.insert(C.constraints.end(), B.constraints.begin(), B.constraints.end());
  for (const auto &[Name, Coordinate] : B.coords)
    C.coords.emplace(Name, Coordinate); // A's term wins; agreement is an obligation
  C.tensors.insert(B.tensors.begin(), B.tensors.end());
  C.origins.insert(C.origins.end(), B.origins.begin(), B.origins.end());
  return C;
}

void ProvenanceInterpreter::requireAgreement(const ProvenanceCase &A, const ProvenanceCase &B,
                                             const std::set<std::string> &Except,
                                             const clang::Expr *Site, llvm::StringRef What,
                                             const FlowState &State) {
  if (!Ctx.opts.implicitInvariants)
    return;
  for (const auto &[Name, TA] : A.coords) {
    auto It = B.coords.find(Name);
    if (It == B.coords.end() || Except.count(Name))
      continue;
    const Term *TB = It->second;
    Obligation O = Ctx.makeObligation(ObligationKind::Contraction, Site, State);
    O.summary = What.str() + ": both operands have the same '" + Name + "' (" + print(TA) +
                " == " + print(TB) + ")";
    O.failure = "tag mismatch: operands of " + What.str() + " disagree on '" + Name +
                "': " + print(TA) + " vs " + print(TB);
    O.context.push_back(A.validity);
    O.context.push_back(B.validity);
    O.context.insert(O.context.end(), A.constraints.begin(), A.constraints.end());
    O.context.insert(O.context.end(), B.constraints.begin(), B.constraints.end());
    O.violation = T.ne(TA, TB);
    O.observe = {{"left " + Name, TA}, {"right " + Name, TB}};
    // A coordinate built from a value the analysis approximates (a widened
    // loop's counter) may be one a loop it did not follow reduces: the
    // operands then need not agree, even where the approximation cancels
    // out of the question (the soundness fuzzer's block_reduce#23, a short
    // counter: violated, and correct).
    for (const Term *Side : {TA, TB})
      for (const Term *S : collectSymbols(Side))
        if (S->isApproximation() && O.unprovenReason.empty())
          O.unprovenReason = "'" + Name + "' comes from a value the analysis approximates (" +
                             print(S) +
                             "): a loop it does not follow may reduce it, so the operands "
                             "need not agree";
    O.origins = A.origins;
    O.origins.insert(O.origins.end(), B.origins.begin(), B.origins.end());
    Ctx.log.addObligation(std::move(O));
  }
}

namespace {

// Why adding Other to a tagged value leaves what the tags describe, or "".
std::string offsetReason(const DataValue &Other) {
  if (Other.kind != DataValue::Kind::Neutral || Other.accumulates())
    return "";
  bool NonZero = std::any_of(Other.constants.begin(), Other.constants.end(),
                             [](double C) { return C != 0.0; });
  // A number computed from integers (`x + (float)K`) has no constant, and
  // need not be 0.
  if (!Other.fromParameter() && !NonZero && !Other.constants.empty())
    return "";
  if (!Other.fromParameter() && !NonZero)
    return "a tagged value is offset by a number the analysis does not know to be 0 (`x + "
           "(float)k`), which the tags' einsum (sums of products) does not describe";
  return "a tagged value is offset by " +
         std::string(Other.fromParameter() ? "a parameter" : "a non-zero constant") +
         ", which the tags' einsum (sums of products) does not describe";
}

// Why multiplying or dividing a tagged value by Other leaves no value the
// tags describe (Other may be 0), or "".
std::string factorReason(const DataValue &Other) {
  if (Other.kind != DataValue::Kind::Neutral || Other.accumulates())
    return "";
  for (double C : Other.constants)
    if (C == 0.0)
      return "a tagged value is multiplied or divided by 0 (a value that was never accumulated "
             "into, or a zero constant)";
  if (Other.constants.empty() && !Other.fromParameter())
    return "a tagged value is multiplied or divided by a number computed from integers (`x * "
           "(float)K`), whose value the analysis does not follow";
  return "";
}

// Why combining the loop-carried value Head with Other by Op ('+', 'M',
// 'n') is no step of one running sum, max or min, or "": another running
// value added in, the head added to itself (`s += s + x`), scaled before
// it is combined, or combined by two operations in one iteration
// (`fmaxf(s, 0.0f) + x`). A subtraction is asked by the caller.
std::string carriedValueReason(const DataValue &Head, const DataValue &Other, char Op) {
  auto RunningSum = [](const DataValue &V) {
    return V.accumulates() && !V.maxShift && V.accumulatedBy != 'M' && V.accumulatedBy != 'n';
  };
  if (Op == '-') // `s - m` of online softmax: a shift, not a step
    return "";
  // Another running value of the loop added in (`t += s`, `s += x + last`):
  // the earlier iterations' terms are added again.
  if (Other.accumulates() && Other.accumulator != Head.accumulator && RunningSum(Other) &&
      RunningSum(Head))
    return "two running values are added in one loop (`t += s`, `s += x + last`), which adds "
           "earlier iterations' terms again";
  if (Other.accumulates() && Other.accumulator == Head.accumulator)
    return "the running value is combined with itself (`s + s`, `s += s + x`), which the tags' "
           "einsum does not have";
  if (!Head.scaleIsOne())
    return "the running value is scaled or negated before it is combined (`-s + x`, `0.5f * s "
           "+ x`), which the tags' einsum does not have";
  if (Head.accumulatedBy && Head.accumulatedBy != Op)
    return "the running value is combined by a sum and by a max or min in one iteration "
           "(`fmaxf(s, 0.0f) + x`), which the tags' einsum does not have";
  return "";
}

// Why multiplying the loop-carried value by Factor, a number, is no step
// of a running sum (`s = s * 0.5f + x` decays the earlier terms), or "".
std::string constantRescaleReason(const DataValue &Factor) {
  if (Factor.kind != DataValue::Kind::Neutral || Factor.accumulates())
    return "";
  bool One = !Factor.fromParameter() && !Factor.constants.empty() &&
             std::all_of(Factor.constants.begin(), Factor.constants.end(),
                         [](double C) { return C == 1.0; });
  if (One)
    return "";
  return "the running value is multiplied or divided by a number in its loop (`s = s * 0.5f + "
         "x`), which the tags' einsum does not have";
}

// Why a max or min ('M', 'n') of a tagged value with Other leaves no value
// the tags describe (`fmaxf(x, 0.0f)`, a clamp), or "": Other is the op's
// neutral element (-infinity for a max) or a running value.
std::string clampReason(const DataValue &Other, char Op) {
  if (Other.kind != DataValue::Kind::Neutral || Other.accumulates())
    return "";
  constexpr double FloatMax = 3.4028234663852886e38;
  bool Neutral = !Other.fromParameter() && !Other.constants.empty() &&
                 std::all_of(Other.constants.begin(), Other.constants.end(),
                             [&](double C) { return Op == 'M' ? C <= -FloatMax : C >= FloatMax; });
  if (Neutral)
    return "";
  return "a tagged value's max or min with a constant or parameter (`fmaxf(x, 0.0f)`), which "
         "the tags' einsum does not describe";
}

// Scales V (a tagged value) by Other's constant for `V * Other` or `V /
// Other` ('*' or '/'). A parameter is followed by its power
// (setParameters); a factor with no known constant leaves the scale as it
// is (factorReason has made such a value unknown already); one of several
// constants (a factor that depends on the path) leaves the factor
// unknown (NaN: reported where the value is stored).
void applyConstantFactor(DataValue &V, const DataValue &Other, char Op) {
  if (Other.kind != DataValue::Kind::Neutral || Other.accumulates() || Other.fromParameter() ||
      Other.constants.empty())
    return;
  double C = Other.constants.front();
  for (double D : Other.constants)
    if (!DataValue::sameScale(D, C))
      C = std::nan("");
  V.scale = Op == '*' ? V.scale * C : V.scale / C;
}

// The factor of `A Op B` for two tagged values: a sum, difference or max of
// values scaled differently (`x + 2.0f * y`) has none (NaN).
double combinedScale(const DataValue &A, const DataValue &B, char Op) {
  if (Op == '*')
    return A.scale * B.scale;
  if (Op == '/')
    return A.scale / B.scale;
  return DataValue::sameScale(A.scale, B.scale) ? A.scale : std::nan("");
}

} // namespace

DataValue ProvenanceInterpreter::accumulate(DataValue Acc, DataValue Add, const clang::Expr *Site,
                                            const FlowState &State) {
  // `acc += 1.0f` in the loop adds a constant per iteration.
  if (std::string Why = offsetReason(Add); !Why.empty())
    return DataValue::unknown(std::move(Why));
  bool SameLoop = Add.maxShift && Ctx.sameLoop(Acc.accumulator, Add.maxShift->max);
  if (std::string Why = contributionReason(Acc, Add, SameLoop); !Why.empty())
    return DataValue::unknown(std::move(Why));
  std::optional<MaxShift> Shifted = shiftAfterContribution(Acc, Add);
  // A contribution made under a condition of the loop body (`if (c)
  // acc += x`, or after `if (c) continue;`) only counts where it holds.
  if (!Ctx.loops.empty() && State.path.size() > Ctx.loops.back().pathStart) {
    std::vector<const Term *> Conds(State.path.begin() + Ctx.loops.back().pathStart,
                                    State.path.end());
    for (ProvenanceCase &C : Add.cases)
      C.validity = T.logicalAnd(C.validity, T.allOf(Conds));
  }
  DataValue Out = Acc;
  setParameters(Out, Out, Add, '+');
  if (Add.isTagged())
    Out.scale = Acc.isTagged() ? combinedScale(Acc, Add, '+') : Add.scale;
  // The running value was rescaled (online softmax): the factor belongs to
  // the rows the contribution does.
  std::set<std::string> RescaleExcept = Ctx.contracted;
  RescaleExcept.insert(Add.reduced.begin(), Add.reduced.end());
  for (const ProvenanceCase &Factor : Acc.rescales)
    for (const ProvenanceCase &Y : Add.cases)
      requireAgreement(Factor, Y, RescaleExcept, Site, "rescaled accumulation", State);
  Out.maxShift = Shifted;
  if (Add.kind != DataValue::Kind::Tagged)
    return Out;
  if (Acc.kind == DataValue::Kind::Tagged) {
    // Several contributions per iteration: free names must agree.
    for (const ProvenanceCase &X : Acc.cases)
      for (const ProvenanceCase &Y : Add.cases)
        requireAgreement(X, Y, Ctx.contracted, Site, "accumulation", State);
    Out.cases.insert(Out.cases.end(), Add.cases.begin(), Add.cases.end());
    Out.severalContributions = true;
  } else {
    Out.cases = Add.cases;
    Out.severalContributions = Add.severalContributions; // `acc += x + y`
  }
  Out.kind = DataValue::Kind::Tagged;
  Out.reduced.insert(Add.reduced.begin(), Add.reduced.end());
  Out.reductions.insert(Out.reductions.end(), Add.reductions.begin(), Add.reductions.end());
  return Out;
}

AbstractValue ProvenanceInterpreter::combineData(const AbstractValue &L, const AbstractValue &R,
                                                 char Op, const clang::Expr *Site,
                                                 const FlowState &State) {
  auto AsData = [](const AbstractValue &V) {
    return V.kind == AbstractValue::Kind::Data ? V.data
                                               : DataValue::neutral(); // an index as a number
  };
  DataValue A = AsData(L), B = AsData(R);
  if (A.kind == DataValue::Kind::Unknown)
    return AbstractValue::ofData(A);
  if (B.kind == DataValue::Kind::Unknown)
    return AbstractValue::ofData(B);
  std::optional<MaxShift> Shift = shiftOfCombination(A, B, Op);
  // `acc + p`, `m = fmaxf(m, s)`: an accumulation into the loop-carried value.
  bool MaxMin = Op == 'M' || Op == 'n';
  bool Accumulating = Op == '+' || Op == '-' || MaxMin;
  if (Accumulating && (A.accumulates() || B.accumulates())) {
    const char By = Op == '-' ? '+' : Op;
    auto MaxOrMin = [&](const DataValue &V) {
      auto It = Ctx.accumulatorOps.find(V.accumulator);
      char Seen = It != Ctx.accumulatorOps.end() ? It->second : V.accumulatedBy;
      return Seen == 'M' || Seen == 'n';
    };
    if (Op == '-' && !A.accumulates() && !B.maxShift && !MaxOrMin(B)) // `s = x - s`
      return AbstractValue::ofData(DataValue::unknown(
          "a running value is subtracted in its loop (`s = x - s`, `s += x - last`), which the "
          "tags' einsum does not have"));
    // `s + x - last` with `last = x` carried: last is a loop-carried value
    // too, the previous iteration's term, and subtracting it telescopes
    // the sum. Only a running max or min (`s - m` of online softmax) is a
    // shift.
    if (Op == '-' && A.accumulates() && B.accumulates() && B.accumulator != A.accumulator &&
        !B.maxShift && !MaxOrMin(B))
      return AbstractValue::ofData(DataValue::unknown(
          "another loop-carried value is subtracted from a running value (`s = s + x - last`), "
          "which the tags' einsum does not have"));
    if (std::string Why = carriedValueReason(A.accumulates() ? A : B, A.accumulates() ? B : A, Op);
        !Why.empty())
      return AbstractValue::ofData(DataValue::unknown(std::move(Why)));
    // `v + 0.0f`, `fmaxf(v, -INFINITY)`: the op's neutral element changes
    // nothing, nor what the value is a running value of.
    const DataValue &Added = A.accumulates() ? B : A;
    bool NoOp =
        Added.kind == DataValue::Kind::Neutral && !Added.accumulates() && !Added.fromParameter() &&
        !Added.constants.empty() &&
        std::all_of(Added.constants.begin(), Added.constants.end(), [&](double C) {
          return By == '+' ? C == 0.0 : By == 'M' ? std::isinf(C) && C < 0 : std::isinf(C) && C > 0;
        });
    DataValue Out = A.accumulates() ? accumulate(std::move(A), std::move(B), Site, State)
                                    : accumulate(std::move(B), std::move(A), Site, State);
    if (NoOp)
      return AbstractValue::ofData(std::move(Out));
    Out.accumulatedBy = By;
    if (Op != '-' && Out.accumulates())
      Ctx.accumulatorOps.emplace(Out.accumulator, By);
    if (Shift && Out.kind != DataValue::Kind::Unknown) // `m_prev - m`, `s - m`
      Out.maxShift = Shift;
    return AbstractValue::ofData(std::move(Out));
  }
  // `acc * correction`: scaling the loop-head value keeps it the running
  // value; the factor is remembered for the contributions to agree with.
  auto PureHead = [](const DataValue &V) {
    return V.accumulates() && V.kind == DataValue::Kind::Neutral && V.cases.empty();
  };
  if ((Op == '*' || Op == '/') && (PureHead(A) || PureHead(B))) {
    DataValue Out = PureHead(A) ? A : B;
    const DataValue &Factor = PureHead(A) ? B : A;
    if (std::string Why = rescaleReason(Out, Factor, Op); !Why.empty())
      return AbstractValue::ofData(DataValue::unknown(std::move(Why)));
    if (std::string Why = constantRescaleReason(Factor); !Why.empty())
      return AbstractValue::ofData(DataValue::unknown(std::move(Why)));
    if (Factor.kind == DataValue::Kind::Tagged) {
      Out.rescales.insert(Out.rescales.end(), Factor.cases.begin(), Factor.cases.end());
      Out.rescaledBy = Factor.maxShift;
    }
    setParameters(Out, A, B, Op);
    return AbstractValue::ofData(std::move(Out));
  }
  AbstractValue Out = combinePlain(std::move(A), std::move(B), Op, Site, State);
  if (Out.kind == AbstractValue::Kind::Data && Out.data.kind != DataValue::Kind::Unknown)
    Out.data.maxShift = Shift;
  return Out;
}

namespace {

// The most terms a sum of tagged values keeps (a K loop unrolled by 16 in
// one expression); a sum of more is unknown, so that repeated sums cannot
// grow without bound.
constexpr size_t MaxSumTerms = 16;

bool sharesTensor(const DataValue &A, const DataValue &B) {
  for (const ProvenanceCase &X : A.cases)
    for (const ProvenanceCase &Y : B.cases)
      for (const std::string &Name : X.tensors)
        if (Y.tensors.count(Name))
          return true;
  return false;
}

// Why a product of a running sum, read in its own loop, with another tagged
// value (`Y[c] = X[c] * s` while `s` still accumulates) gives no term the
// analysis follows, or "": the product holds the earlier iterations' terms
// of the sum too, and the value sees one iteration's. An online softmax's
// rescales and weights are followed elsewhere.
std::string runningSumFactorProblem(const DataValue &A, const DataValue &B,
                                    const std::map<AccumulatorId, char> &Ops) {
  auto RunningSum = [&](const DataValue &V) {
    if (!V.accumulates() || inOnlineSoftmax(V))
      return false;
    auto It = Ops.find(V.accumulator);
    return (It != Ops.end() ? It->second : V.accumulatedBy) == '+';
  };
  for (const auto &[Sum, Other] : {std::pair{&A, &B}, {&B, &A}})
    if (RunningSum(*Sum) && Other->isTagged() && !Other->accumulates() && !inOnlineSoftmax(*Other))
      return "a running sum read in its own loop times another tagged value (`x * s` while `s` "
             "accumulates), whose earlier iterations' terms the analysis does not follow";
  return "";
}

// Why combining two tagged values with Op gives no term of the tags'
// einsum, a sum of products of one element of each input; "" when it may.
// - a sum of values of different inputs (`A[..] + B[..]`, which was merged
//   like a product and proven) or of a value with itself (`p + p`: twice);
// - a difference (`acc - acc`, `even - odd`);
// - a product of a value with itself (`acc * acc`, and `a * a * b`: two
//   unreduced reads of one input), or a quotient (`acc / acc`);
// - a max or min of two values that is no running max's step.
// Partial sums over the same inputs (`even + odd`) and `o * (1.0f / l)` of
// attention (o and l share Q and K, both reduced) are fine.
std::string combinationProblem(const DataValue &A, const DataValue &B, char Op) {
  switch (Op) {
  case '-':
    return "a difference of two tagged values (`x - y`)";
  case '+':
    if (A == B)
      return "a sum of a value with itself (`x + x`)";
    for (const ProvenanceCase &X : A.cases)
      for (const ProvenanceCase &Y : B.cases)
        if (X.tensors != Y.tensors)
          return "a sum of values of different tensors (`a + b`)";
    return "";
  case '*':
    if (A == B || (sharesTensor(A, B) && A.reduced.empty() && B.reduced.empty()))
      return "a product of a value of one tensor with itself (`a * a`)";
    return "";
  case '/':
    if (A == B)
      return "a quotient of a value by itself (`x / x`)";
    // Attention's `o / l` divides by a sum (reduced, or a running value);
    // a quotient by one element (`a / b` in a sum) is no einsum term.
    return B.reduced.empty() && !B.accumulates() && B.reductions.empty()
               ? "a quotient by a tagged element (`a / b`)"
               : "";
  case 'M':
  case 'n':
    // A running max (`m = fmaxf(m, s)`) is an accumulation, not this; an
    // LDS tree combining partial sums with fmaxf was proven a sum. The max
    // of an element with itself is the element (two sums with the same
    // free coordinates are no one element: they may sum different parts).
    {
      const char *Problem =
          "a max or min of two tagged values (`fmaxf(x, y)`) outside a running max";
      if (!A.reduced.empty() || !B.reduced.empty())
        return Problem;
      for (const ProvenanceCase &X : A.cases)
        for (const ProvenanceCase &Y : B.cases)
          if (X.coords != Y.coords || X.tensors != Y.tensors)
            return Problem;
      return "";
    }
  default:
    return "";
  }
}

} // namespace

namespace {

// Two computed numbers combined: the constant, if the result has one, is
// the expression's (eval sets it), except that `0.0f * float(n)` is 0
// whatever n is; a parameter in either stays one.
DataValue combineNumbers(DataValue A, const DataValue &B, char Op) {
  auto Zero = [](const DataValue &V) {
    return !V.constants.empty() && !V.fromParameter() &&
           std::all_of(V.constants.begin(), V.constants.end(), [](double C) { return C == 0; });
  };
  bool ZeroProduct = Op == '*' && (Zero(A) || Zero(B));
  DataValue Left = A;
  A.constants.clear();
  if (ZeroProduct)
    A.constants.push_back(0.0);
  setParameters(A, A, B, Op);
  // `alpha + 1.0f`, `alpha - alpha`, `alpha + alpha`: no longer alpha times
  // a constant (unless one side is 0).
  if ((Op == '+' || Op == '-') && !Zero(Left) && !Zero(B))
    A.misappliedParameters.insert(A.parameters.begin(), A.parameters.end());
  return A;
}

// Why a tagged value combined with a number (one of A, B) by Op is no
// value the tags describe, or "". The tags' einsum has no constant terms:
// `acc + 1.0f`, `x - bias` or `x + (float)k` is not the value the tags
// describe (`acc + 0.0f`, `alpha * acc` are), nor is a product or quotient
// with 0 (`acc / l` where l stayed 0: the soundness fuzzer dropped
// attention's `l = l * correction + p`) or with a number computed from
// integers, a clamp (`fmaxf(x, 0.0f)`) or a reciprocal of an element.
// Constant factors (`2.0f * x`) are the value's scale, checked where it
// is stored.
std::string numberProblem(const DataValue &A, const DataValue &B, char Op) {
  if (!A.isTagged() && !B.isTagged())
    return "";
  const DataValue &Other = A.kind == DataValue::Kind::Neutral ? A : B;
  if (Op == '+' || Op == '-')
    return offsetReason(Other);
  if (Op == 'M' || Op == 'n')
    return clampReason(Other, Op);
  if (std::string Why = factorReason(Other); !Why.empty())
    return Why;
  if (A.kind == DataValue::Kind::Neutral && Op == '/' && B.reduced.empty() && !B.accumulates() &&
      B.reductions.empty())
    return "the reciprocal of a tagged element (`1.0f / x`), which the tags' einsum does not have";
  return "";
}

} // namespace

AbstractValue ProvenanceInterpreter::combinePlain(DataValue A, DataValue B, char Op,
                                                  const clang::Expr *Site, const FlowState &State) {
  bool MaxMin = Op == 'M' || Op == 'n';
  if (A.kind == DataValue::Kind::Neutral && B.kind == DataValue::Kind::Neutral)
    return AbstractValue::ofData(combineNumbers(std::move(A), B, Op));
  if (std::string Why = numberProblem(A, B, Op); !Why.empty())
    return AbstractValue::ofData(DataValue::unknown(std::move(Why)));
  if (A.kind == DataValue::Kind::Neutral) {
    setParameters(B, A, B, Op);
    // `2.0f * x`; `1.0f / l` has the factor 1 / l's (the analysis does not
    // tell a reciprocal from the value: `o * (1.0f / l)` is `o / l`).
    if (Op == '/')
      B.scale = 1.0 / B.scale;
    if (Op == '*' || Op == '/')
      applyConstantFactor(B, A, '*');
    return AbstractValue::ofData(std::move(B));
  }
  if (B.kind == DataValue::Kind::Neutral) {
    setParameters(A, A, B, Op);
    if (Op == '*' || Op == '/')
      applyConstantFactor(A, B, Op);
    return AbstractValue::ofData(std::move(A));
  }
  if (Op == '+') {
    // `acc + A[m * K + K - 1] * ..` after a loop over k < K - 1: the point
    // is one more piece of the loop's reduction (an iteration peeled after
    // or between loops), checked with the others for each index once.
    auto Takes = [](const Reduction &R) { return !R.crossedThreads; };
    takePointPieces(B, A.reductions, Ctx.symbols.tid, Takes);
    takePointPieces(A, B.reductions, Ctx.symbols.tid, Takes);
  }
  // Two tagged values: the names they share must agree, except names one of
  // them has already reduced.
  std::set<std::string> Except = A.reduced;
  Except.insert(B.reduced.begin(), B.reduced.end());
  std::string What = Op == '*' ? "product" : Op == '/' ? "quotient" : MaxMin ? "max/min" : "sum";
  DataValue Out;
  Out.kind = DataValue::Kind::Tagged;
  // A sum is its terms, each checked as any value is where it is stored or
  // accumulated; they must agree on the names they do not sum over (`a0 *
  // b0 + a1 * b1` of a K loop unrolled by hand differs in k only). Merged
  // like a product's, the terms' k disagreed and the correct kernel was
  // violated.
  std::set<std::string> Agree = Except;
  if (Op == '+')
    Agree.insert(Ctx.contracted.begin(), Ctx.contracted.end());
  for (const ProvenanceCase &X : A.cases)
    for (const ProvenanceCase &Y : B.cases) {
      // The prologue's case of one operand never meets the loop's case of
      // the other: their validities exclude each other.
      if (contradicts(X.validity, Y.validity))
        continue;
      requireAgreement(X, Y, Agree, Site, What, State);
      if (Op != '+')
        Out.cases.push_back(mergeCases(X, Y));
    }
  if (Op == '+') {
    // `x + x` keeps x's terms (and is marked below): a tree that adds a
    // slot to itself would double them per level.
    Out.cases = A.cases;
    if (!(A == B))
      Out.cases.insert(Out.cases.end(), B.cases.begin(), B.cases.end());
    Out.severalContributions = true;
    if (Out.cases.size() > MaxSumTerms)
      return AbstractValue::ofData(DataValue::unknown(
          "a sum of more than " + std::to_string(MaxSumTerms) + " tagged terms is not followed"));
  }
  Out.reduced = Except;
  setParameters(Out, A, B, Op);
  Out.scale = combinedScale(A, B, Op);
  Out.shiftedByMax = Op == '-' && B.accumulatedBy == 'M' && !B.accumulates();
  if (Out.nonlinear.empty() && !Out.shiftedByMax)
    Out.nonlinear = combinationProblem(A, B, Op);
  if (Out.nonlinear.empty() && Op == '*')
    Out.nonlinear = runningSumFactorProblem(A, B, Ctx.accumulatorOps);
  if (Op == '+') {
    // `a + b` of two partial sums: each name both reduce is one reduction
    // in pieces (the halves of K in two accumulators).
    Out.reductions = sumReductions(A.reductions, B.reductions, "the sum");
  } else {
    Out.reductions = A.reductions;
    Out.reductions.insert(Out.reductions.end(), B.reductions.begin(), B.reductions.end());
  }
  return AbstractValue::ofData(std::move(Out));
}

} // namespace ave::inv
