// The rewrite report, as text (for people) and JSON (for tools and the
// planner): what was applied, what was refused and why, the bank-conflict
// degree of each access before -> after, and every verification stage.
#pragma once

#include "ave/agent/RewritePipeline.h"
#include "nlohmann/json.hpp"

namespace llvm {
class raw_ostream;
}

namespace ave::agent {

void printReport(llvm::raw_ostream &OS, const RewriteOutcome &Outcome);
nlohmann::json reportJson(const RewriteOutcome &Outcome);

} // namespace ave::agent
