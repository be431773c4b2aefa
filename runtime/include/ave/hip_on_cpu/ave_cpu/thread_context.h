// What the executor knows about the GPU thread running on this OS thread now:
// its block, its linear index, warp and lane, and the jump target that turns
// a hardware fault in kernel code into a failed launch. Host threads have no
// block (Block == nullptr).
#pragma once

#include <csetjmp>

namespace ave::cpu {

class BlockSync;

struct ThreadContext {
  BlockSync *Block = nullptr;
  unsigned Linear = 0;
  unsigned Warp = 0;
  unsigned Lane = 0;
  unsigned WaveSize = 64;
  // Armed while kernel code runs: the signal handler records the fault and
  // jumps back to the executor instead of killing the process.
  sigjmp_buf FaultJump;
  volatile bool FaultArmed = false;
  volatile int FaultSignal = 0;
  void *volatile FaultAddress = nullptr;
};

inline thread_local ThreadContext Current;

} // namespace ave::cpu
