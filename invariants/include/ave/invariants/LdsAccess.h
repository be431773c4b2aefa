// Every shared-memory access and barrier the provenance interpreter walked
// over, with symbolic addresses over the accessing thread's ids. The race,
// barrier, uninitialised-read and bank-conflict checks are built on this log.
#pragma once

#include "ave/invariants/Term.h"

#include "clang/Basic/SourceLocation.h"

#include <optional>
#include <string>
#include <vector>

namespace clang {
class Expr;
class Stmt;
class ValueDecl;
} // namespace clang

namespace ave::inv {

struct LoopContext {
  unsigned id = 0;
  const clang::Stmt *loop = nullptr;
  const Term *counter = nullptr;   // symbolic iteration counter
  std::vector<const Term *> facts; // its bounds and stride
  const Term *init = nullptr;      // first value (null: non-canonical)
  const Term *step = nullptr;
  unsigned firstInterval = 0; // barrier interval at loop entry
  unsigned lastInterval = 0;  // ... at loop exit
  bool canonical = false;
};

// What a write stores, where threads' writes can be compared: an integer
// term over the writer's symbols, or the bits of a constant (a folded
// floating-point or integer right-hand side). Neither: not comparable.
struct WrittenValue {
  const Term *integer = nullptr;
  std::optional<uint64_t> constantBits;
  bool known() const { return integer || constantBits; }
};

// One access to shared memory, or (in the global log) to a kernel's
// global buffer: `array` is then the pointer parameter or `__device__`
// variable, and `address` the element index from it.
struct LdsAccess {
  const clang::ValueDecl *array = nullptr;
  const Term *address = nullptr; // element index over the accessing thread
  bool isWrite = false;
  unsigned elementBytes = 4;
  std::vector<const Term *> guard; // path condition (if-conditions, loop facts)
  std::vector<LoopContext> loops;  // enclosing loops, outermost first
  // Barrier interval: how many barriers the walk passed before it (program
  // order); accesses in one interval are not ordered by a barrier.
  unsigned interval = 0;
  unsigned seq = 0;                  // program order
  const clang::Expr *expr = nullptr; // the subscript expression
  clang::SourceRange range;
  WrittenValue value;  // writes only
  bool atomic = false; // an atomic read-modify-write through a call
  bool opaque = false; // a call not modelled may write here (not followed)
  // A cp.async copy (`ave_cp_async(&S[i], &G[j])`): logged where it is
  // issued, it lands at some point before the issuing thread's next
  // `ave_cp_async_wait_all()`, so it may meet that thread's own accesses too.
  bool async = false;
  // Non-empty: address and guard are those of the executions where the
  // integer wraps in them keep their values (exactBranches; the conditions
  // are in guard), and this says so. A race found is real; race freedom is
  // not shown for the other executions.
  std::string partial;
};

// `ave_cp_async_wait_all()`: the calling thread's cp.async copies are done.
struct AsyncWaitSite {
  unsigned interval = 0;
  unsigned seq = 0;
  const clang::Expr *call = nullptr;
  std::vector<const Term *> guard; // path condition at the wait
  std::vector<LoopContext> loops;
};

struct BarrierSite {
  unsigned interval = 0; // the barrier interval it starts
  const clang::Expr *call = nullptr;
  std::vector<const Term *> guard; // path condition at the barrier
  std::vector<LoopContext> loops;
  unsigned seq = 0; // program order, beside the accesses'
  // False for a barrier only some iterations reach (`if (k0 + 16 < K)
  // __syncthreads();`): it opens no interval, but orders the accesses
  // around it in the iterations where its guard holds.
  bool opensInterval = true;
};

} // namespace ave::inv
