// A model from Z3 is only a counterexample if the kernel's own semantics
// agree. Re-evaluating the facts and the violated obligation with evaluate()
// (exact C int semantics, independent of the encoding) catches encoder bugs
// and models that lean on undefined behaviour; a model that does not confirm
// is reported as "unproven", never as a violation. A confirmed model is then
// decoded into what the user reads: block and thread, loop counters and
// parameters, the observed values, and which thread wrote each shared
// element involved.
// docs/analysis.md, "Obligations and counterexamples".
#pragma once

#include "ave/invariants/Obligation.h"
#include "ave/invariants/Term.h"

#include "clang/Basic/SourceLocation.h"

#include <map>
#include <span>
#include <string>
#include <vector>

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

// One line of a counterexample note, with where it points.
struct CounterexampleLine {
  clang::SourceLocation location; // invalid: no location of its own
  std::string text;
};

struct DecodedCounterexample {
  std::vector<CounterexampleLine> lines;
  std::map<std::string, int64_t> values; // every symbol of the query by name
};

/// The thread coordinates a counterexample line starts with.
struct ThreadSymbols {
  const Term *threadIdx[3] = {};
  const Term *blockIdx[3] = {};
  // The launch's shape, printed after the thread when set.
  const Term *blockDim[3] = {};
  const Term *gridDim[3] = {};
};

/// `(x,y,z)`: the values of three id symbols (threadIdx, blockIdx, ...)
/// under an assignment, `?` where one has none.
std::string idTriple(std::span<const Term *const> Dims, const Assignment &Values);

/// Decodes a confirmed model of O's query (its context plus violation).
DecodedCounterexample decodeCounterexample(const Obligation &O, std::span<const Term *const> Query,
                                           const Assignment &Values, const ThreadSymbols &Threads);

} // namespace ave::inv
