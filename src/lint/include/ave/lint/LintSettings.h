// What `ave-rewrite lint` tells its clang-tidy checks beyond clang-tidy's own
// options, and what the checks tell it back about the kernels they saw.
// One process runs one lint (children of `-j` are processes), so this is
// process-wide state.
#pragma once

#include "ave/frontend/Target.h"

#include <string>
#include <vector>

namespace ave::lint {

struct LintSettings {
  frontend::Target target = frontend::Target::Gfx942;
  // Lower than check's 10 s: lint runs in editors and CI on every file, and a
  // timeout is "unproven" (never a finding it cannot show), --z3-timeout-ms
  // raises it.
  unsigned z3TimeoutMs = 1000;
  // Per kernel, interpretation and solving (check's --time-limit-ms).
  unsigned timeLimitMs = 10000;
};

struct KernelSeen {
  std::string file;
  std::string name;
  bool annotated = false;
};

struct LintStats {
  std::vector<KernelSeen> kernels;
  unsigned inputErrors = 0; // malformed annotations
};

LintSettings &lintSettings();
LintStats &lintStats();
void noteKernel(const std::string &File, const std::string &Name, bool Annotated);

} // namespace ave::lint
