// What the planner and the static cost model know about one version of the
// kernel being optimized, read from its text: the kernel model (as
// `ave-rewrite kernels` prints it), the knowledge base's precondition
// features that hold, the launch's threads per block, the LDS bank model's
// mean conflict degrees, and how many of its obligations are proven.
#pragma once

#include "ave/frontend/HipArgs.h"
#include "nlohmann/json.hpp"

#include <set>
#include <string>
#include <vector>

namespace ave::opt {

struct KernelFacts {
  std::string kernel;
  bool parsed = false;
  std::string error; // why not parsed, or no such kernel
  nlohmann::json model = nlohmann::json::object();
  // Features, named as the knowledge base's preconditions are:
  //   has-lds, staged-k-loop, constant-trip-loop, fp32-inputs, fp16-inputs,
  //   bf16-inputs, lds-bank-conflict, no-launch-bounds, gemm, copy,
  //   launch-pragma, mfma (already on matrix cores)
  std::set<std::string> features;
  unsigned threadsPerBlock = 0; // 0: the launch does not say
  double ldsReadDegree = 1, ldsWriteDegree = 1;
  unsigned worstDegree = 1;
  unsigned proven = 0, obligations = 0;
  // The kernel class the bandit keys its scores by: "gemm-fp32",
  // "gemm-fp16", "copy", "other".
  std::string kernelClass() const;
};

struct FactsOptions {
  frontend::HipArgsOptions args;
  unsigned z3TimeoutMs = 10000, timeLimitMs = 30000;
};

// Parses Text as the file Path (its neighbours' headers resolve) and reads
// the facts of Kernel.
KernelFacts readKernelFacts(const std::string &Path, const std::string &Text,
                            const std::string &Kernel, const FactsOptions &Opts);

// The names of the kernels Text defines (parsed as the file Path).
std::vector<std::string> listKernels(const std::string &Path, const std::string &Text,
                                     const frontend::HipArgsOptions &Args);

} // namespace ave::opt
