// Every shared-memory access and barrier the provenance interpreter walked
// over, with symbolic addresses over the accessing thread's ids. The race,
// barrier, uninitialised-read and bank-conflict checks are built on this log.
#pragma once

#include "ave/invariants/Term.h"

#include "clang/Basic/SourceLocation.h"

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
};

struct BarrierSite {
  unsigned interval = 0; // the barrier interval it starts
  const clang::Expr *call = nullptr;
  std::vector<const Term *> guard; // path condition at the barrier
  std::vector<LoopContext> loops;
};

} // namespace ave::inv
