#include "ave/invariants/Counterexample.h"

namespace ave::inv {

CounterexampleCheck confirmCounterexample(const Term *Violation, std::span<const Term *const> Facts,
                                          const Assignment &Values) {
  CounterexampleCheck Check;
  for (const Term *Fact : Facts) {
    std::optional<int64_t> V = evaluate(Fact, Values);
    if (!V) {
      Check.reason = "fact " + print(Fact) + " is undefined under the model";
      return Check;
    }
    if (*V == 0) {
      Check.reason = "fact " + print(Fact) + " is false under the model";
      return Check;
    }
  }
  std::optional<int64_t> V = evaluate(Violation, Values);
  if (!V) {
    Check.reason = "obligation " + print(Violation) + " is undefined under the model";
    return Check;
  }
  if (*V == 0) {
    Check.reason = "the model does not violate " + print(Violation);
    return Check;
  }
  Check.confirmed = true;
  return Check;
}

bool confirmsViolation(const Term *Violation, std::span<const Term *const> Facts,
                       const Assignment &Values) {
  return confirmCounterexample(Violation, Facts, Values).confirmed;
}

} // namespace ave::inv
