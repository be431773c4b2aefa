// How good a verified version is. `--evaluate static` compiles it for the
// cost model (agent::compileForCostModel) and rates its hot loop
// (StaticCost.h): deterministic, no GPU. `--evaluate bench` runs its harness
// bundle on this host's GPU (nvcc, or hipcc on AMD) and reads the median
// time. Either gives a rate where higher is faster, so scores compare
// across versions of one kernel.
#pragma once

#include "ave/frontend/HipArgs.h"
#include "ave/optimize/KernelFacts.h"
#include "nlohmann/json.hpp"

#include <string>

namespace ave::opt {

struct Evaluation {
  bool ok = false;
  std::string error;
  double rate = 0; // higher is faster (modeled GFLOP/s, or 1 / measured ms)
  nlohmann::json metrics = nlohmann::json::object();
};

// The static cost model's rating of Text (the file Path after a patch).
Evaluation evaluateStatic(const std::string &Path, const std::string &Text,
                          const KernelFacts &Facts, const frontend::HipArgsOptions &Args);

} // namespace ave::opt
