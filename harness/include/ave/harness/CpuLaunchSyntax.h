// A kernel file's host launches `k<<<grid, block, shared, stream>>>(args)`
// are CUDA/HIP syntax a host C++ compiler cannot parse, so a file that
// launches its kernel (a host launcher beside it) did not build on the CPU
// executor at all. This spells each one as a call the executor provides
// (runtime/include/ave/hip_on_cpu/ave_cpu/launch.h):
//
//   k<<<g, b>>>(x, y)   ->   ::ave::cpu::chevron("k", k, g, b)(x, y)
//
// Only the launch's own tokens change (the callee gets a prefix, `<<<`
// becomes `, ` and `>>>` becomes `)`), so every line keeps its number and
// the executor's diagnostics still point into the user's file. For the
// CPU executor's copies only: GPU compilers take the original text.
#pragma once

#include <string>

namespace ave::harness {

struct CpuLaunchText {
  std::string text;
  unsigned launches = 0; // rewritten
  std::string error;     // a `<<<` whose callee or `>>>` was not found (text unchanged there)
};

CpuLaunchText withCpuLaunchSyntax(const std::string &Source);

} // namespace ave::harness
