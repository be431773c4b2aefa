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
  // The launch checked: a launch site's facts, or (default) only the
  // kernel's own (LaunchContext.h).
  LaunchContext launchContext;
  // Two threads writing provably the same value (the same constant, or the
  // same integer term) race only benignly; reported only when this is set
  // (lint's ave-lds-race.ReportBenign / ave-global-race.ReportBenign).
  bool reportBenign = false;
};

// The free symbols of a witness by name (ThreadPair::witnessValues).
using WitnessValues = std::vector<std::pair<std::string, int64_t>>;

struct LdsRace {
  const LdsAccess *first = nullptr;  // earlier in program order
  const LdsAccess *second = nullptr; // the one reported
  int64_t firstThread[3] = {};
  int64_t secondThread[3] = {};
  int64_t element = 0;     // flat index into the array
  std::string elementText; // `As[1][3]`
  std::string interval;    // which barrier-interval rule put them together
  std::string context;     // blockIdx and loop counters of the witness
  std::string launch;      // the launch site's label; empty without one
  WitnessValues values;    // every free symbol of the witness
  bool sameValue = false;  // both write the same value (reported with reportBenign)
};

struct BarrierDivergence {
  const BarrierSite *barrier = nullptr;
  int64_t arrivingThread[3] = {}; // reaches the barrier
  int64_t missingThread[3] = {};  // does not
  std::string context;
  std::string launch;
  WitnessValues values;
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

// For two writes, A0 by thread 0 and A1 by thread 1 of P: a condition over
// the pair that holds exactly when they store different values (false:
// always the same value), or null when the values cannot be compared.
const Term *valuesDiffer(ThreadPair &P, const LdsAccess &A0, const LdsAccess &A1);

std::vector<LdsRace> findLdsRaces(KernelAnalysis &A, clang::ASTContext &Ctx,
                                  const SharedCheckOptions &Opts,
                                  std::vector<SkippedAccess> *Skipped = nullptr);
// The cp.async copies findLdsRaces takes as stores where they are issued,
// added to Skipped where that is not shown to hold (AsyncCopies.cpp): the
// issuing thread waits for the copy in its barrier interval, and does not
// touch its element meanwhile. findLdsRaces runs it whenever it is given
// Skipped, so that every caller (lint, check, the rewrite stages) has it.
void findAsyncCopyHazards(KernelAnalysis &A, const SharedCheckOptions &Opts,
                          std::vector<SkippedAccess> &Skipped);
// Undecided (optional): the guarded barriers nothing was concluded about (a
// condition the analysis does not follow, or the solver gave up).
std::vector<BarrierDivergence>
findDivergentBarriers(KernelAnalysis &A, const LaunchShape &Shape = {},
                      std::vector<const BarrierSite *> *Undecided = nullptr,
                      const LaunchContext *Launch = nullptr);
// Kernel: the analysed kernel, whose body shows every use of each array
// (an array passed to a call or written in a construct the interpreter does
// not log is not judged).
std::vector<UninitializedRead> findUninitializedReads(KernelAnalysis &A, clang::ASTContext &Ctx,
                                                      const clang::FunctionDecl &Kernel,
                                                      const LaunchShape &Shape = {},
                                                      const LaunchContext *Launch = nullptr);

} // namespace ave::inv::lds
