// ave-global-race: two threads of the grid touch one element of a global
// buffer (a kernel's pointer parameter or a `__device__` variable), at
// least one writing, with nothing ordering them: two threads of one block
// in one barrier interval, or two threads of different blocks anywhere in
// the kernel (no barrier orders blocks). Atomics do not conflict with each
// other; a buffer the kernel only reads never conflicts. Distinct
// parameters (and `__restrict__` ones) are assumed not to alias.
//
// Built on the interpreter's log of global loads and stores and the same
// two-thread encoding as the shared-memory race check (ThreadPair.h). An
// integer read from a buffer the kernel never writes (`hist[in[i]]`) is
// input data: a witness may choose it, and prints the values it chose.
#pragma once

#include "ave/invariants/lds/SharedMemoryChecks.h"

namespace ave::inv::lds {

struct GlobalRace {
  const LdsAccess *first = nullptr;  // earlier in program order
  const LdsAccess *second = nullptr; // the one reported
  int64_t firstThread[3] = {}, secondThread[3] = {};
  int64_t firstBlock[3] = {}, secondBlock[3] = {};
  bool sameBlock = true;
  int64_t element = 0;
  std::string elementText; // `out[17]`
  std::string interval;    // why nothing orders them
  std::string launch;      // the launch site's label; empty without one
  WitnessValues values;
  bool sameValue = false;
};

std::vector<GlobalRace> findGlobalRaces(KernelAnalysis &A, const SharedCheckOptions &Opts,
                                        std::vector<SkippedAccess> *Skipped = nullptr);

} // namespace ave::inv::lds
