#include "ave/optimize/StaticCost.h"

#include <algorithm>
#include <cmath>

namespace ave::opt {

namespace {

// CDNA3 (gfx942, MI300X): per CU.
constexpr double Simds = 4;
constexpr double MaxWavesPerSimd = 8;
constexpr double VgprsPerSimdLane = 512; // VGPRs + AGPRs, wave64
constexpr double VgprGranule = 8;
constexpr double LdsBytesPerCu = 65536;
constexpr double LdsBytesPerClock = 128;
constexpr double MemoryBytesPerClock = 32;
constexpr double MemoryLatency = 500, LdsLatency = 64, BarrierCost = 32;
constexpr double Cus = 304, ClockGhz = 2.1;

struct Occupancy {
  double waves = 0; // per CU
  std::string limit;
};

Occupancy occupancy(const CostInputs &In) {
  const double WavesPerBlock = std::ceil(In.threadsPerBlock / 64.0);
  Occupancy O{Simds * MaxWavesPerSimd, "waves"};
  const int Regs = std::max(1, In.vgprs) + std::max(0, In.agprs);
  const double Granules = std::ceil(Regs / VgprGranule) * VgprGranule;
  const double ByRegs = Simds * std::floor(VgprsPerSimdLane / Granules);
  if (ByRegs < O.waves)
    O = {ByRegs, "vgprs"};
  // Whole blocks only: the waves of as many blocks as fit.
  double Blocks = std::floor(O.waves / WavesPerBlock);
  std::string Limit = O.limit;
  if (In.ldsBytes > 0) {
    double ByLds = std::floor(LdsBytesPerCu / In.ldsBytes);
    if (ByLds < Blocks)
      Blocks = ByLds, Limit = "lds";
  }
  if (Blocks < 1)
    Blocks = 1, Limit = "block size";
  return {Blocks * WavesPerBlock, Limit};
}

} // namespace

CostEstimate estimateCost(const CostInputs &In) {
  CostEstimate E;
  const agent::IsaLoopProfile &L = In.loop;
  if (!L.found || L.instructions == 0) {
    E.reason = "no kernel code in the gfx942 assembly";
    return E;
  }
  E.flopsWork = L.flops > 0;
  const double Work = E.flopsWork ? L.flops : L.globalLoadBytes + L.globalStoreBytes;
  if (Work <= 0) {
    E.reason = "the hot loop neither computes nor moves global memory";
    return E;
  }
  Occupancy O = occupancy(In);
  E.wavesPerCu = O.waves;
  E.occupancyLimit = O.limit;
  const double W = O.waves;
  const double OneWave = L.valuCycles + L.mfmaCycles;
  E.issueCycles = W / Simds * OneWave;
  E.ldsCycles = W *
                (L.ldsReadBytes * std::max(1.0, In.ldsReadDegree) +
                 L.ldsWriteBytes * std::max(1.0, In.ldsWriteDegree)) /
                LdsBytesPerClock;
  E.memoryCycles =
      W * (L.globalLoadBytes + L.globalStoreBytes + L.scratchBytes) / MemoryBytesPerClock;
  E.latencyCycles =
      OneWave + L.memoryWaits * MemoryLatency + L.ldsWaits * LdsLatency + L.barriers * BarrierCost;
  double Time = E.issueCycles;
  E.bound = "issue";
  for (auto [Cycles, Name] : {std::pair{E.ldsCycles, "lds"}, std::pair{E.memoryCycles, "memory"},
                              std::pair{E.latencyCycles, "latency"}})
    if (Cycles > Time)
      Time = Cycles, E.bound = Name;
  E.workPerClockPerCu = W * Work / Time;
  E.modeledGflops = E.workPerClockPerCu * Cus * ClockGhz;
  E.valid = true;
  return E;
}

} // namespace ave::opt
