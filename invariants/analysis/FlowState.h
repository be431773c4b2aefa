// The per-path state of the provenance analysis, as clang's FlowSensitive
// framework has it: an environment (what each variable holds) and the path
// condition (the facts that hold on this path: branch conditions, loop
// bounds, assumptions). Transfer functions take it by reference; a branch
// copies it; a merge joins the incoming states. Internal to invariants/.
// docs/analysis.md, "Values and provenance" and "Control flow".
#pragma once

#include "AbstractValue.h"

#include <map>
#include <vector>

namespace clang {
class CFGBlock;
class ValueDecl;
} // namespace clang

namespace ave::inv {

using Environment = std::map<const clang::ValueDecl *, AbstractValue>;

struct FlowState {
  Environment env;
  std::vector<const Term *> path;
  const clang::CFGBlock *from = nullptr; // the block the edge leaves, once sent
};

// The join at a merge point. Facts every path has in common stay facts; the
// rest is each path's own condition, under which its values survive. A
// variable declared on only some paths is out of scope after the merge.
FlowState joinStates(TermContext &T, std::vector<FlowState> &States);

} // namespace ave::inv
