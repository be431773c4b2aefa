// The block-level shared-memory checks built on the interpreter's access log
// (LdsAccess.h) and the two-thread encoding (ThreadPair.h): data races,
// barriers under thread-dependent control flow, and reads no write can have
// produced. Each finding carries the solver's witness in concrete values.
#pragma once

#include "ave/invariants/LdsAccess.h"
#include "ave/invariants/lds/ThreadPair.h"

#include <cstdint>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
} // namespace clang
namespace ave::inv {
class KernelAnalysis;
}

namespace ave::inv::lds {

struct SharedCheckOptions {
  unsigned waveSize = 64;
  // AMD wavefronts execute in lockstep: two lanes of one wavefront touching
  // a `volatile` shared array in program order do not race (the classic
  // warp-synchronous reduction tail). Off for NVIDIA (independent threads).
  bool lockstepWavefronts = true;
  // What the kernel text says about the launch (inferLaunchShape).
  LaunchShape launch;
};

struct LdsRace {
  const LdsAccess *first = nullptr;  // earlier in program order
  const LdsAccess *second = nullptr; // the one reported
  int64_t firstThread[3] = {};
  int64_t secondThread[3] = {};
  int64_t element = 0;     // flat index into the array
  std::string elementText; // `As[1][3]`
  std::string interval;    // which barrier-interval rule put them together
  std::string context;     // blockIdx and loop counters of the witness
};

struct BarrierDivergence {
  const BarrierSite *barrier = nullptr;
  int64_t arrivingThread[3] = {}; // reaches the barrier
  int64_t missingThread[3] = {};  // does not
  std::string context;
};

struct UninitializedRead {
  const LdsAccess *read = nullptr;
  int64_t thread[3] = {};
  int64_t element = 0;
  std::string elementText;
};

// Accesses a check could not follow (address or guard holds a value the
// interpreter did not model); the checks say nothing about them.
struct SkippedAccess {
  const LdsAccess *access = nullptr;
  std::string reason;
};

// The one way lint and the rewrite pipeline configure the checks: the
// target's wave and lockstep behaviour, and the launch the kernel text states.
SharedCheckOptions sharedCheckOptions(const clang::FunctionDecl &Kernel, clang::ASTContext &Ctx,
                                      unsigned WaveSize, bool LockstepWavefronts);

struct SharedMemoryFindings {
  std::vector<LdsRace> races;
  std::vector<BarrierDivergence> divergentBarriers;
  std::vector<UninitializedRead> uninitializedReads;
  std::vector<SkippedAccess> skipped;
};

std::vector<LdsRace> findLdsRaces(KernelAnalysis &A, clang::ASTContext &Ctx,
                                  const SharedCheckOptions &Opts,
                                  std::vector<SkippedAccess> *Skipped = nullptr);
// Undecided (optional): the guarded barriers nothing was concluded about (a
// condition the analysis does not follow, or the solver gave up).
std::vector<BarrierDivergence>
findDivergentBarriers(KernelAnalysis &A, const LaunchShape &Shape = {},
                      std::vector<const BarrierSite *> *Undecided = nullptr);
// Kernel: the analysed kernel, whose body shows every use of each array
// (an array passed to a call or written in a construct the interpreter does
// not log is not judged).
std::vector<UninitializedRead> findUninitializedReads(KernelAnalysis &A, clang::ASTContext &Ctx,
                                                      const clang::FunctionDecl &Kernel,
                                                      const LaunchShape &Shape = {});

} // namespace ave::inv::lds
