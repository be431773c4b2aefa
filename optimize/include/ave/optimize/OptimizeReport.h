// The optimizer's final report, written into the lineage folder and printed:
// the funnel of each generation (proposed, rewritten, proven, compiled,
// tested, faster), the lineage as a table, the winning version's line of
// descent, the combined patch against the user's file, and a chart of the
// best speed per generation (SVG) with every member as a point.
#pragma once

#include "ave/optimize/Optimizer.h"
#include "nlohmann/json.hpp"

#include <string>

namespace ave::opt {

nlohmann::json reportJson(const OptimizeOptions &O, const OptimizeResult &R);
std::string reportMarkdown(const OptimizeOptions &O, const OptimizeResult &R);
std::string performanceSvg(const OptimizeResult &R);

// report.md, report.json, performance.svg and final.patch in the lineage
// folder; "" or the first error.
std::string writeReports(const OptimizeOptions &O, const OptimizeResult &R);

} // namespace ave::opt
