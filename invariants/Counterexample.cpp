#include "ave/invariants/Counterexample.h"

namespace ave::inv {

CounterexampleCheck confirmCounterexample(const Term *violation, std::span<const Term *const> facts,
                                          const Assignment &values) {
  CounterexampleCheck check;
  for (const Term *fact : facts) {
    std::optional<int64_t> v = evaluate(fact, values);
    if (!v) {
      check.reason = "fact " + print(fact) + " is undefined under the model";
      return check;
    }
    if (*v == 0) {
      check.reason = "fact " + print(fact) + " is false under the model";
      return check;
    }
  }
  std::optional<int64_t> v = evaluate(violation, values);
  if (!v) {
    check.reason = "obligation " + print(violation) + " is undefined under the model";
    return check;
  }
  if (*v == 0) {
    check.reason = "the model does not violate " + print(violation);
    return check;
  }
  check.confirmed = true;
  return check;
}

bool confirmsViolation(const Term *violation, std::span<const Term *const> facts,
                       const Assignment &values) {
  return confirmCounterexample(violation, facts, values).confirmed;
}

} // namespace ave::inv
