// The messages the optimizer sends an external planner
// (docs/planner-protocol.md): start, propose, results.
#pragma once

#include "ave/optimize/KernelFacts.h"
#include "ave/optimize/KnowledgeBase.h"
#include "ave/optimize/Lineage.h"
#include "ave/optimize/Optimizer.h"
#include "nlohmann/json.hpp"

namespace ave::opt {

nlohmann::json startMessage(const OptimizeOptions &O, const std::string &Kernel, const Member &Root,
                            const KernelFacts &Facts, const KnowledgeBase &Kb);

nlohmann::json proposeMessage(const Lineage &L, const Member &Parent, unsigned Generation,
                              unsigned Wanted, const std::vector<Attempt> &LastResults);

nlohmann::json resultsMessage(unsigned Generation, const std::vector<Attempt> &Results);

} // namespace ave::opt
