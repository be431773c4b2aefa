// `optimize --evaluate static`: how fast a kernel version would run on a
// gfx942 (MI300X) CU, from its hot loop's instructions (agent/IsaProfile.h),
// its occupancy (VGPRs, AGPRs, LDS, threads per block) and the LDS bank
// model's conflict degrees. No GPU, no timing noise: the same text always
// gets the same number, which is what a reproducible search needs.
//
// The model, per CU and per iteration of the hot loop run by every resident
// wave (W waves, W / 4 per SIMD):
//   issue    W/4 x (VALU + MFMA cycles of one wave)      the four SIMDs
//   lds      W x LDS bytes x conflict degree / 128 B/clk  one LDS per CU
//   memory   W x global bytes / 32 B/clk                 an L2-resident share
//   latency  one wave's own cycles + its full waits (500 clk for vmcnt(0),
//            64 for lgkmcnt(0), 32 per barrier): with few waves nothing
//            hides them
// The iteration takes the longest of the four; the rate is W x the
// iteration's work / that time. Work is flops (a kernel without
// floating-point arithmetic in its hot loop: bytes moved). Versions of one
// kernel are compared by this rate: they do the same total work.
#pragma once

#include "ave/agent/IsaProfile.h"

#include <string>

namespace ave::opt {

struct CostInputs {
  agent::IsaLoopProfile loop;
  int vgprs = 0, agprs = 0; // per lane (AMDGPU metadata)
  int ldsBytes = 0;         // per workgroup
  unsigned threadsPerBlock = 256;
  double ldsReadDegree = 1, ldsWriteDegree = 1; // mean n-way conflict
};

struct CostEstimate {
  bool valid = false;
  std::string reason;    // why not valid
  bool flopsWork = true; // work counted in flops (false: bytes)
  double wavesPerCu = 0; // resident waves (occupancy)
  double workPerClockPerCu = 0;
  double modeledGflops = 0; // or GB/s when !flopsWork, at 304 CUs x 2.1 GHz
  std::string bound;        // "issue", "lds", "memory" or "latency"
  double issueCycles = 0, ldsCycles = 0, memoryCycles = 0, latencyCycles = 0;
  std::string occupancyLimit; // "vgprs", "lds", "waves" or "block size"
};

CostEstimate estimateCost(const CostInputs &In);

} // namespace ave::opt
