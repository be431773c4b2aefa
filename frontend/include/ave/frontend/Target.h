// The GPU targets ave-rewrite knows. Each one fixes what the analysis and
// the bank/capacity models assume about the hardware.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace ave::frontend {

enum class Target { Gfx942, Gfx90a, Sm90 };

struct TargetInfo {
  Target target;
  std::string_view name;        // as spelled on the command line
  std::string_view offloadArch; // the --offload-arch used to parse device code
  unsigned waveSize;            // lanes per wavefront / warp
  unsigned ldsBanks;            // shared-memory banks
  unsigned ldsBankBytes;        // bytes per bank
  unsigned ldsBytesPerBlock;    // static shared memory limit per workgroup
  // AMD wavefronts execute in lockstep; NVIDIA threads are independent
  // (volatile warp-synchronous code is only race-free on the former).
  bool lockstepWavefronts;
};

const TargetInfo &targetInfo(Target T);
std::optional<Target> parseTarget(std::string_view Name);

} // namespace ave::frontend
