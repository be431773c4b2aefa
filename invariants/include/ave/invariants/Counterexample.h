// A model from Z3 is only a counterexample if the kernel's own semantics
// agree. Re-evaluating the facts and the violated obligation with evaluate()
// (exact C int semantics, independent of the encoding) catches encoder bugs
// and models that lean on undefined behaviour; a model that does not confirm
// is reported as "unproven", never as a violation.
#pragma once

#include "ave/invariants/Term.h"

#include <span>
#include <string>

namespace ave::inv {

struct CounterexampleCheck {
  bool confirmed = false;
  std::string reason; // why not, when !confirmed
};

/// Checks that every fact holds and `violation` holds under `values`, each
/// evaluated with C semantics and defined.
CounterexampleCheck confirmCounterexample(const Term *Violation, std::span<const Term *const> Facts,
                                          const Assignment &Values);

/// Shorthand for confirmCounterexample(...).confirmed.
bool confirmsViolation(const Term *Violation, std::span<const Term *const> Facts,
                       const Assignment &Values);

} // namespace ave::inv
