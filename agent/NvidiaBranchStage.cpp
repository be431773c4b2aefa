// The NVIDIA branch of a patch. A rewrite may add code that only nvcc
// compiles (`#if defined(__HIP_PLATFORM_NVIDIA__)`: the pipeline's cp.async
// variant), which the gfx942 analysis of the other stages never sees. Here
// the original and the patched text are analysed as sm_90 selects them
// (frontend/PlatformView.h), and compared as the invariants and races
// stages compare the gfx942 analyses: every obligation of the original
// proven there stays proven, and no race is new.

#include "VerificationStages.h"
#include "ave/agent/InMemoryParse.h"
#include "ave/frontend/PlatformView.h"

namespace ave::agent::stages {

namespace {

StageResult renamed(StageResult S) {
  S.name += "-sm_90";
  S.message = "NVIDIA branch: " + S.message;
  return S;
}

} // namespace

std::vector<StageResult> verifyNvidiaBranch(const frontend::FileFlags &Flags,
                                            const NvidiaBranchRequest &R) {
  if (R.opts.args.target == frontend::Target::Sm90 ||
      frontend::platformView(R.patched, frontend::Target::Sm90) == R.patched)
    return {}; // the other stages analysed this very text
  auto Start = std::chrono::steady_clock::now();
  frontend::HipArgsOptions Args = R.opts.args;
  Args.target = frontend::Target::Sm90;
  SnapshotOptions Snap;
  Snap.target = frontend::Target::Sm90;
  Snap.z3TimeoutMs = R.opts.z3TimeoutMs;
  Snap.timeLimitMs = R.opts.timeLimitMs;
  Snap.kernel = R.opts.kernel;
  std::vector<KernelSnapshot> Before, After;
  for (auto [Text, Out] : {std::pair{&R.original, &Before}, std::pair{&R.patched, &After}}) {
    InMemoryParseResult P =
        parseHipSource(Flags, *Text, Args, [&, Out = Out](frontend::ParsedUnit &U) {
          *Out = snapshotKernels(U, Snap);
        });
    if (!P.parsed) {
      StageResult Failed{"parse-sm_90",
                         StageStatus::Failed,
                         millisSince(Start),
                         std::string("the ") + (Out == &Before ? "original" : "patched") +
                             " file does not parse as sm_90 selects it",
                         {},
                         {},
                         {}};
      Failed.evidence.push_back(P.diagnostics);
      return {Failed};
    }
  }
  StageResult Inv = renamed(
      compareInvariants(Before, After, R.paired, R.opts.allowUnproven, R.positions, R.changed));
  Inv.millis += millisSince(Start);
  return {Inv, renamed(compareRaces(Before, After))};
}

} // namespace ave::agent::stages
