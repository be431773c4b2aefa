// One loop being interpreted: its symbolic counter and what the walk knew
// when it entered. The frames of the loops around the current program point
// form a stack (AnalysisContext::loops). Internal to invariants/.
#pragma once

#include "ave/invariants/Provenance.h"

#include <set>

namespace clang {
class Stmt;
class ValueDecl;
class VarDecl;
} // namespace clang

namespace ave::inv {

struct LoopFrame {
  const clang::Stmt *loop = nullptr;
  const clang::VarDecl *counterVar = nullptr; // a canonical for's variable
  unsigned id = 0;
  ReductionLoop span;         // counter, facts, trip count
  const Term *init = nullptr; // first value of the counter
  const Term *step = nullptr;
  unsigned firstSeq = 0;      // program-order sequence number at loop entry
  unsigned lastSeq = 0;       // ... at loop exit (set when done)
  unsigned firstInterval = 0; // barrier interval at loop entry
  unsigned firstTermId = 0;   // terms created from here on belong to the body
  size_t pathStart = 0;       // path entries from here on are the body's own conditions
  std::set<const clang::ValueDecl *> writesShared; // arrays its body writes
  // The body's pass that only learns its shared-memory writes (its results
  // are dropped); a loop not learned has one pass, which is not this.
  bool learningWrites = false;
  bool canonical = false;
};

} // namespace ave::inv
