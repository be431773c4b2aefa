// `check` says a kernel is correct only if nothing makes it wrong, and a data
// race on shared memory or a barrier that some threads of a block skip makes
// it wrong whatever its tags say (the soundness fuzzer found races proven).
// lint reports these as findings of its own checks; `check` reports them as
// obligations, from the same analyses (SharedMemoryChecks.h):
//  - lds-race-free, one per shared array: violated with the race's two
//    threads, unproven when an access of the array could not be followed;
//  - barrier-uniform, one per barrier under a condition: violated with a
//    thread that arrives and one that does not, unproven when the condition
//    could not be followed.
// Each is asked under every launch of Launches (LaunchContext.h): violated
// when one launch violates it (the failure names that launch), unproven
// when one launch leaves it open. No launches: Opts.launchContext alone.
#pragma once

#include "ave/invariants/KernelAnalysis.h"
#include "ave/invariants/lds/SharedMemoryChecks.h"

#include <span>

namespace clang {
class ASTContext;
class FunctionDecl;
} // namespace clang

namespace ave::inv::lds {

void addSharedMemoryResults(KernelReport &Report, KernelAnalysis &A, clang::ASTContext &Ctx,
                            const SharedCheckOptions &Opts,
                            std::span<const LaunchContext> Launches = {});

} // namespace ave::inv::lds
