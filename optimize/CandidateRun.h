// One candidate: an action on a lineage member becomes a patch (through its
// rewriters, or a raw patch applied to the member's text), is verified by
// every stage of the rewrite pipeline, and, when verified, is rated. The
// outcome is an Attempt for the lineage and, when verified, the new text
// with its facts and rating, from which the optimizer makes a member.
#pragma once

#include "ave/optimize/Evaluation.h"
#include "ave/optimize/Lineage.h"
#include "ave/optimize/Optimizer.h"

#include <optional>
#include <vector>

namespace ave::opt {

// How far a candidate got, for the generation's funnel.
struct CandidateProgress {
  bool rewritten = false, proven = false, compiled = false, tested = false;
};

struct CandidateOutcome {
  Attempt attempt;
  CandidateProgress progress;
  std::string text; // the verified version (empty unless verified)
  std::optional<KernelFacts> facts;
  Evaluation evaluation;
};

// Line: the parent's ancestry, the original first and the parent last. When
// every step on it is a recipe, the candidate is verified as the whole chain
// applied to the original (as `rewrite --apply a,b,c` would be): the
// obligations it must keep are the user's, not those a rewrite wrote into
// an intermediate version. When a proof stage rejects the chain, or a raw
// patch is on the line, it is verified against the parent instead (itself
// verified against its parent, back to the original).
CandidateOutcome runCandidate(const OptimizeOptions &O, const std::string &Kernel,
                              const std::vector<const Member *> &Line, const Action &A);

// The patched text of a raw unified-diff patch on Text, or the reason not.
std::optional<std::string> applyRawPatch(const std::string &Text, const std::string &Patch,
                                         std::string &Error);

} // namespace ave::opt
