// `ave-rewrite lint ARGS...`: clang-tidy with the ave-* module, HIP device
// flags and ave-rewrite's conventions (exit codes, summary, -j, json/sarif).
#pragma once

#include "ave/frontend/Target.h"

#include <string>
#include <vector>

namespace ave::lint {

struct LintInvocation {
  std::vector<std::string> args;                      // everything after `lint`
  frontend::Target target = frontend::Target::Gfx942; // global --target
  std::string buildDir;                               // global -p
  std::vector<std::string> extraArgs;                 // global --extra-arg
};

int runLint(const LintInvocation &Inv);

} // namespace ave::lint
