// The built-in planner: which (recipe, parameters) to try next on a lineage
// member, with no language model. It works from the knowledge base, the
// member's facts (features, bottleneck from the static cost model), the
// bandit's learned scores, and the attempts so far:
//   - repairs first: an attempt on this member that was rejected is
//     answered by its recipe's repair rule for that stage or reason (a
//     counterexample from pipeline: another stage count; an LDS capacity
//     refusal: smaller tiles), or by another recipe family;
//   - then recipes whose preconditions hold, ranked by the bandit's upper
//     bound (prior: the recipe's expected speedup), with a bonus when the
//     recipe targets the member's bottleneck; each gives its first untried
//     parameter set (defaults first, then one parameter changed at a time,
//     then the rest of the space), round robin down the ranking;
//   - a parameter set already tried on this member is never proposed again.
// Ties are broken by a generator seeded from --seed, and the chosen actions
// come out sorted by their --apply text: the same inputs give the same
// actions in the same order.
#pragma once

#include "ave/optimize/BanditState.h"
#include "ave/optimize/KernelFacts.h"
#include "ave/optimize/KnowledgeBase.h"
#include "ave/optimize/Lineage.h"

#include <random>
#include <set>
#include <string>
#include <vector>

namespace ave::opt {

struct PlanRequest {
  const KnowledgeBase &kb;
  const Lineage &lineage;
  const Member &parent;
  const KernelFacts &facts; // of the parent
  const BanditState &bandit;
  std::string bottleneck;              // the parent's, from the cost model
  std::set<std::string> avoidFamilies; // after stagnation
  unsigned wanted = 4;
  std::mt19937_64 *rng = nullptr;
};

std::vector<Action> planActions(const PlanRequest &R);

// The parameter sets of a recipe in search order: the first values, then
// one parameter changed at a time, then the rest of the space (at most
// Limit sets).
std::vector<rw::ParameterValues> parameterSets(const Recipe &R, size_t Limit = 256);

// Why a recipe does not apply to a kernel with these features ("" if it does).
std::string preconditionFailure(const Recipe &R, const std::set<std::string> &Features);

} // namespace ave::opt
