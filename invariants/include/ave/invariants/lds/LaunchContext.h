// The launch a check assumes, as facts over the kernel's symbols. lint's
// race and barrier checks and `check`'s lds-race-free / barrier-uniform
// obligations take them from one place: the launch sites the kernel model
// finds in the translation unit (`<<<...>>>`, hipLaunchKernelGGL), one
// context per site, with blockDim, gridDim, the dynamic LDS size and the
// integer arguments that fold to constants. A kernel that no site launches
// gets one context without a site: its `#pragma ave launch` (already among
// the kernel's facts), else `__launch_bounds__` (blockDim <= N), else
// nothing. Template arguments need no facts: each instantiation is its own
// analysed kernel, and a site launches one instantiation.
#pragma once

#include "ave/invariants/Term.h"
#include "ave/model/KernelModel.h"

#include "clang/Basic/SourceLocation.h"

#include <span>
#include <string>
#include <vector>

namespace clang {
class FunctionDecl;
}
namespace ave::inv {
class KernelAnalysis;
}

namespace ave::inv::lds {

struct LaunchContext {
  // "main.hip:124" for a launch site; empty for the kernel's own launch
  // facts (pragma, launch bounds, none).
  std::string label;
  clang::SourceLocation location; // the launch site
  std::vector<const Term *> facts;
  bool blockFixed[3] = {}; // blockDim.d is a constant of this launch
  bool gridFixed[3] = {};  // gridDim.d is a constant of this launch
  // Non-empty: this launch's facts contradict the kernel's own (its
  // `#pragma ave launch`, assumptions or launch bounds); no check uses it.
  std::string unusable;
};

// The name of the dynamic LDS size symbol (bytes), a launch parameter.
inline constexpr const char *DynamicSharedBytesName = "dynamicSharedBytes";

// One context per launch site of Kernel among Sites (its instantiation's,
// for a template), in source order; one siteless context when there is none.
std::vector<LaunchContext> launchContexts(KernelAnalysis &A, const clang::FunctionDecl &Kernel,
                                          std::span<const model::LaunchSite> Sites);

} // namespace ave::inv::lds
