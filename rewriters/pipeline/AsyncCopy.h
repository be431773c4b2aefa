// The sm_90 variant of the pipeline rewrite (`async=1`): the prefetch of
// tile t + S - 1 is a cp.async from global into its stage, issued before
// the compute on tile t and waited for (`cp.async.wait_all`) before the
// iteration's barrier, instead of a load into registers stored after the
// compute. The copy skips the registers and the stall of the store on the
// load. The variant sits behind `#if defined(__HIP_PLATFORM_NVIDIA__)`,
// the register round trip in the `#else`, so one source serves both; the
// verification analyses each branch (`--target sm_90` takes the NVIDIA one,
// where the analysis models the two helpers below: CallTransfer.cpp and
// AsyncCopies.cpp). Internal to rewriters/pipeline.
#pragma once

#include "clang/Basic/SourceLocation.h"

#include <string>
#include <vector>

namespace clang {
class ASTContext;
} // namespace clang

namespace ave::rw {

struct StagedLoop;

// How one staged store is issued in the async branch.
enum class AsyncForm {
  Copy,    // `S[..] = G[..]`: ave_cp_async(&S[stage][..], &G[..])
  Constant // `S[..] = 0.0f` (a guarded load's else): stored as it is
};

struct AsyncPlan {
  std::vector<AsyncForm> forms; // per store of the loop
  clang::SourceLocation refusedAt;
  std::string refusal; // empty: every store can be issued
};

// Whether each store of Loop copies an element of a global array as it is
// (same type, 4, 8 or 16 bytes: what cp.async copies) or stores a constant.
AsyncPlan planAsyncCopies(const clang::ASTContext &Ctx, const StagedLoop &Loop);

// The helpers' definitions, guarded so that a second pipelined kernel of
// the file does not define them again; inserted before the kernel.
const std::string &asyncCopyHelpers();

} // namespace ave::rw
