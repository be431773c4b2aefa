// The stages of the verification pipeline, one function each (private to
// agent/; RewritePipeline.cpp runs them in order).
#pragma once

#include "PatchPositions.h"
#include "ave/agent/RewritePipeline.h"

#include <chrono>
#include <set>

namespace ave::inv {
class TermContext;
}

namespace ave::agent::stages {

using KernelArrays = std::set<std::pair<std::string, std::string>>; // (kernel, array)

// Every obligation of the original must be on the patched kernel (the same
// kind at its position carried through the patch) and proven there when it
// was proven before; a missing one is named. An obligation of a rewritten
// kernel that was not proven on the original refuses the rewrite (nothing
// shows the rewrite keeps it) unless AllowUnproven, which the stage's
// message and data mark. The rewritten kernels are those of Rewritten (the
// arrays layout rewrites changed, which lds-pairing may carry) and Moved
// (kernels other rewrites changed: pipeline, unroll, register-tile).
StageResult compareInvariants(const std::vector<KernelSnapshot> &Before,
                              const std::vector<KernelSnapshot> &After,
                              const KernelArrays &Rewritten, bool AllowUnproven,
                              const PatchPositions &Positions = PatchPositions(),
                              const std::set<std::string> &Moved = {});
// No LDS race (by its pair of accesses) or divergent barrier (by barrier)
// that the original did not have, and no access the race check could follow
// before but not after.
StageResult compareRaces(const std::vector<KernelSnapshot> &Before,
                         const std::vector<KernelSnapshot> &After);
// Proves that each rewritten array pairs the same dynamic accesses at one
// element before and after (PairingProof.cpp).
StageResult proveElementPairing(const std::vector<KernelSnapshot> &Before,
                                const std::vector<KernelSnapshot> &After,
                                const KernelArrays &Arrays, inv::TermContext &Terms,
                                unsigned TimeoutMs);
// Static plus dynamic shared memory of each rewritten kernel within the
// target's capacity; every access of a rewritten array is a whole element
// (a vector access through a cast would need its alignment proven).
StageResult checkLdsFootprint(const std::vector<KernelSnapshot> &Before,
                              const std::vector<KernelSnapshot> &After,
                              const KernelArrays &Rewritten, frontend::Target Target,
                              std::optional<uint64_t> DynamicBytes);
// An `assume` of a rewritten kernel whose predicate depends on a rewritten
// array (names it, or a local assigned from it): where it is in the patched
// text (AssumptionStage.cpp).
struct DependentAssume {
  std::string kernel, text;
  unsigned line = 0;
  unsigned offset = 0; // of the `assume` keyword in the patched text
  std::string refusal; // not empty: cannot be rewritten as an assertion
};
void findDependentAssumes(frontend::ParsedUnit &U, const KernelArrays &Rewritten,
                          std::vector<DependentAssume> &Out);
// Each of them must be proven as an assertion on a copy of the patched text.
StageResult reproveAssumptions(const frontend::FileFlags &Flags, const std::string &Patched,
                               const std::vector<DependentAssume> &Found,
                               const PipelineOptions &Opts);
// The patch's NVIDIA branch (NvidiaBranchStage.cpp): the original and the
// patched text analysed as sm_90 selects them, compared as compareInvariants
// and compareRaces compare; no stage when the patched text reads the same
// on every platform (or the pipeline's target is sm_90 already).
struct NvidiaBranchRequest {
  const std::string &original, &patched;
  const PipelineOptions &opts;
  const KernelArrays &paired;
  const PatchPositions &positions;
  const std::set<std::string> &changed; // every rewritten kernel
};
std::vector<StageResult> verifyNvidiaBranch(const frontend::FileFlags &Flags,
                                            const NvidiaBranchRequest &R);
StageResult compile(const CompileResult &R, frontend::Target Target);
StageResult runCommand(const std::string &Name, const std::string &Command,
                       const std::string &PatchedFile, const std::string &OriginalFile);

double millisSince(std::chrono::steady_clock::time_point Start);
const KernelSnapshot *findKernel(const std::vector<KernelSnapshot> &All, const std::string &Name);
std::string where(const ave::SourcePosition &P);

} // namespace ave::agent::stages
