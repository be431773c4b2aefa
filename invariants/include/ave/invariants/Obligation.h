// A proof obligation: one question for the solver, "is there an execution
// where this fails?". The analysis produces them; the checker answers them.
#pragma once

#include "ave/invariants/Provenance.h"
#include "ave/invariants/Term.h"

#include "clang/Basic/SourceLocation.h"

#include <string>
#include <utility>
#include <vector>

namespace ave::inv {

enum class ObligationKind {
  Assertion,          // #pragma ave assert
  Contraction,        // implicit 1: shared names agree at a combination
  StoreCoordinates,   // implicit 2: free coordinates of a store into an output
  ReductionFreeName,  // implicit 3: an accumulation sums away a free coordinate
  ReductionInjective, // implicit 3: an index is reduced twice
  ReductionComplete,  // implicit 3: an index is never reduced
  OutputStored,       // a tagged output receives tagged values at all
  SharedReadWritten,  // a shared-memory read sees an element some thread wrote
  Specification,      // the assumptions and launch admit a launch at all
  InBounds,           // a global access lies in its tensor's tag domain
  SharedRaceFree,     // no data race on a shared array (check only)
  BarrierUniform,     // a guarded barrier is reached by all threads or none
  OutputWritten,      // every element of a tagged output is written by some thread
  IndexOverflow,      // no signed-int operator of a global access's index overflows
  LoopEnds,           // a loop whose condition nothing in it changes is not entered
  VectorAligned,      // a float4-style access starts on its vector's alignment
};

const char *obligationKindName(ObligationKind K);

// A subscript after the first of a multi-dimensional array access
// (`tx + 16` of `tile[ty][tx + 16]`) and the extent of its dimension.
struct SubscriptExtent {
  const Term *index = nullptr;
  int64_t extent = 0;
};

struct Obligation {
  ObligationKind kind = ObligationKind::Assertion;
  clang::SourceRange range;
  std::string summary;     // what must hold, e.g. "tag(Bs[k][tx]).k == k0 + k"
  std::string sharedArray; // lds-read-written: the shared array read
  // Failure message prefix when violated, e.g. "tag mismatch".
  std::string failure;
  // Facts that hold where the obligation is checked (path, constraints of
  // the values involved, validity of their cases).
  std::vector<const Term *> context;
  const Term *violation = nullptr; // sat together with context: a failure
  // Labelled terms whose values the counterexample shows.
  std::vector<std::pair<std::string, const Term *>> observe;
  std::vector<ValueOrigin> origins;
  // Set when the analysis could not state the question (layout did not
  // match, value unknown): the obligation is reported unproven as is.
  std::string unprovenReason;
  // Set when the specification itself is wrong (assumptions that no launch
  // satisfies): reported violated with this message and no counterexample.
  std::string specificationError;
  // Set when a model of the violation is not known to be a real execution
  // (the question is only as complete as the analysis' solution of it): a
  // Violated answer is reported unproven with this reason.
  std::string unconfirmedViolation;
  // Set when the question leaves out a test a model must also pass to be a
  // violation (nonlinear: evaluated on the model, not solved): a Violated
  // answer whose model does not make it true is reported unproven.
  const Term *confirmation = nullptr;
  // Set when the question rests on an assumption the analysis does not
  // check (an LDS tree combining each thread's partial once): a Proven
  // answer is reported unproven with this reason. (Where a violation found
  // under the assumption is not a real one either, unconfirmedViolation is
  // set too.)
  std::string provenOnlyUnderAssumption;
  // In-bounds: subscripts that must each lie in [0, extent) as well (past
  // a row is out of bounds even inside the array). They join the violation
  // when the obligation is solved, not while the kernel is interpreted:
  // made then, their terms renumbered the interpretation's later questions
  // (a matrix-core kernel's "k moves with kk" then ran out of time).
  std::vector<SubscriptExtent> subscriptExtents;
};

} // namespace ave::inv
