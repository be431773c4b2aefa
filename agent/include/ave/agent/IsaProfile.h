// What one kernel's hot loop does per iteration, read from its gfx9 (CDNA)
// assembly: the static cost model of `optimize --evaluate static` needs
// instruction counts, not source lines, because what the compiler made of a
// rewrite (unrolled, vectorized, fused into v_pk_fma or MFMA, spilled) is
// what the hardware runs. LLVM marks each loop header in the `-S` output
// (`; =>This Inner Loop Header: Depth=N`) and each block inside a loop
// (`; in Loop: Header=BB0_2 Depth=1`); the hot loop is the innermost loop
// doing the most arithmetic (or, without any, moving the most bytes). A
// kernel without loops is profiled whole.
#pragma once

#include <string>
#include <string_view>

namespace ave::agent {

struct IsaLoopProfile {
  bool found = false; // a kernel body was read
  bool loop = false;  // a loop (false: the whole body, straight-line)
  std::string header; // the loop header's label, e.g. ".LBB0_2"
  unsigned depth = 0; // LLVM's loop depth of the header
  unsigned instructions = 0;
  // Per wave (64 lanes) and iteration.
  double flops = 0;      // floating-point operations (an FMA counts 2)
  double valuCycles = 0; // VALU issue cycles (4 per wave64 instruction, more for transcendental)
  double mfmaCycles = 0; // matrix-core pipeline cycles
  double ldsReadBytes = 0, ldsWriteBytes = 0;
  double globalLoadBytes = 0, globalStoreBytes = 0;
  double scratchBytes = 0;  // spills and private arrays in scratch
  unsigned memoryWaits = 0; // s_waitcnt vmcnt(0): a wait for every outstanding global access
  unsigned ldsWaits = 0;    // s_waitcnt lgkmcnt(0)
  unsigned barriers = 0;    // s_barrier
};

// The text between Symbol's label and its .Lfunc_end (empty when absent).
std::string_view kernelAssembly(std::string_view Asm, std::string_view Symbol);

// The hot loop of one kernel's assembly (kernelAssembly's text).
IsaLoopProfile profileHotLoop(std::string_view KernelAsm);

} // namespace ave::agent
