// Hands the OS thread to the other GPU threads of the block (fibers.h) and
// comes back with this GPU thread's own values in place.
//
// Why this is needed: threadIdx, blockIdx, blockDim, gridDim, warpSize and
// the executor's ThreadContext are thread_locals of the worker thread, which
// every fiber of the block shares. A GPU thread that waits keeps its values
// here, on its own stack, while the others overwrite them, and puts them
// back before kernel code reads them again. Kernel code sees them change
// only across this call, which the compiler cannot see through (swapcontext).
#pragma once

#include "fibers.h"
#include "platform.h"
#include "thread_context.h"

namespace ave::cpu {

inline void letOtherGpuThreadsRun() {
  if (!detail::RunningSet)
    return;
  const ThreadContext Context = Current;
  const uint3 Thread = threadIdx, Block = blockIdx;
  const dim3 BlockSize = blockDim, GridSize = gridDim;
  const int Wave = warpSize;
  FiberSet::yield();
  Current = Context;
  threadIdx = Thread;
  blockIdx = Block;
  blockDim = BlockSize;
  gridDim = GridSize;
  warpSize = Wave;
}

} // namespace ave::cpu
