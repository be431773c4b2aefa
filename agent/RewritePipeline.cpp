#include "ave/agent/RewritePipeline.h"

#include "ExecutionStage.h"
#include "VerificationStages.h"
#include "ave/agent/BankConflicts.h"
#include "ave/agent/InMemoryParse.h"
#include "ave/agent/UnifiedDiff.h"
#include "ave/annotations/KernelAnnotations.h"
#include "ave/harness/BenchSpec.h"
#include "ave/invariants/Term.h"
#include "ave/model/ModelBuilder.h"
#include "ave/rewriters/TestHooks.h"
#include "ave/support/InterruptCleanup.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <future>
#include <set>

namespace ave::agent {

const char *stageStatusName(StageStatus S) {
  switch (S) {
  case StageStatus::Passed:
    return "passed";
  case StageStatus::Failed:
    return "failed";
  case StageStatus::Skipped:
    return "skipped";
  }
  return "skipped";
}

namespace {

using stages::millisSince;

SnapshotOptions snapshotOptions(const PipelineOptions &Opts,
                                std::shared_ptr<inv::TermContext> Terms) {
  SnapshotOptions S;
  S.target = Opts.args.target;
  S.z3TimeoutMs = Opts.z3TimeoutMs;
  S.timeLimitMs = Opts.timeLimitMs;
  S.kernel = Opts.kernel;
  S.pairingTerms = std::move(Terms);
  return S;
}

// What the first rewrite step learns about the original, besides the text.
struct OriginalFacts {
  std::vector<KernelSnapshot> snapshots;
  std::vector<stages::ExecutionSubject> subjects;
};

stages::ExecutionSubject executionSubject(frontend::ParsedUnit &U, const clang::FunctionDecl &K) {
  stages::ExecutionSubject S;
  S.kernel = K.getNameAsString();
  model::KernelModel Model = model::buildKernelModel(U.context, K);
  ann::KernelAnnotations A = ann::collectKernelAnnotations(U.context, K, U.pragmas);
  harness::BenchSpecResult Built = harness::buildBenchSpec(Model, A);
  S.spec = std::move(Built.spec);
  S.error = Built.error;
  if (S.spec)
    S.loops = stages::sizedLoops(Model, *S.spec);
  return S;
}

// Runs one rewrite over every selected kernel of `Text` and applies the
// candidates. Facts about `Text` come back in `Original` when asked for.
struct RewriteStep {
  std::string text;
  clang::tooling::Replacements edits; // what made `text`
  std::string error;
  bool parsed = false;
};

void addCandidates(rw::RewriteResult &R, clang::tooling::Replacements &All,
                   RewriteOutcome &Outcome) {
  Outcome.notes.insert(Outcome.notes.end(), R.notes.begin(), R.notes.end());
  for (rw::Candidate &C : R.candidates) {
    bool Fits = true;
    for (const clang::tooling::Replacement &Edit : C.replacements)
      if (llvm::Error Err = All.add(Edit)) {
        Outcome.notes.push_back(
            {{},
             "not applicable: " + C.summary +
                 " conflicts with an earlier edit: " + llvm::toString(std::move(Err))});
        Fits = false;
        break;
      }
    if (Fits)
      Outcome.applied.push_back(
          {C.rewrite, C.parameters, C.kernel, C.array, C.summary, C.obligations, C.changesLaunch});
  }
}

RewriteStep applyOne(const frontend::FileFlags &Flags, const std::string &Text,
                     const rw::RewriteSpec &Spec, const PipelineOptions &Opts,
                     std::shared_ptr<inv::TermContext> Terms, RewriteOutcome &Outcome,
                     OriginalFacts *Original) {
  const std::string &File = Outcome.file;
  RewriteStep Step;
  clang::tooling::Replacements All;
  std::vector<KernelSnapshot> Snaps;
  bool SawKernel = false;
  InMemoryParseResult Parse = parseHipSource(Flags, Text, Opts.args, [&](frontend::ParsedUnit &U) {
    Snaps = snapshotKernels(U, snapshotOptions(Opts, Terms),
                            [&](const clang::FunctionDecl &K, inv::KernelAnalysis *Analysis) {
                              SawKernel = true;
                              if (Original)
                                Original->subjects.push_back(executionSubject(U, K));
                              std::optional<BankModelAdvisor> Advisor;
                              if (Analysis)
                                Advisor.emplace(*Analysis, U.context, Opts.args.target);
                              rw::RewriteRequest Request{U.context, K, Spec.parameters,
                                                         Advisor ? &*Advisor : nullptr, &U.pragmas};
                              rw::RewriteResult R = Spec.rewriter->run(Request);
                              rw::testing::applyInjectedEdits(Request, R);
                              if (!R.error.empty()) {
                                Step.error = R.error;
                                return;
                              }
                              addCandidates(R, All, Outcome);
                            });
  });
  Step.parsed = Parse.parsed;
  if (!Parse.parsed) {
    Step.error = "cannot parse " + File + " as HIP device code:\n" + Parse.diagnostics;
    return Step;
  }
  // A file without kernels is not an error (as for check and lint): there
  // is nothing to apply. A --kernel that names none is.
  if (!SawKernel && Step.error.empty() && !Opts.kernel.empty())
    Step.error = File + " has no kernel named '" + Opts.kernel + "'";
  else if (!SawKernel && Step.error.empty() && Original)
    Outcome.notes.push_back({{}, "no kernels in " + File + "; nothing to rewrite"});
  if (Original)
    Original->snapshots = std::move(Snaps);
  AppliedText Applied = applyToText(Text, All);
  if (!Applied.error.empty() && Step.error.empty())
    Step.error = "cannot apply the edits: " + Applied.error;
  Step.text = Applied.error.empty() ? Applied.text : Text;
  if (Applied.error.empty())
    Step.edits = std::move(All);
  return Step;
}

std::set<std::pair<std::string, std::string>> changedArrays(const RewriteOutcome &Outcome) {
  std::set<std::pair<std::string, std::string>> Out;
  for (const AppliedRewrite &A : Outcome.applied)
    Out.insert({A.kernel, A.array});
  return Out;
}

// The arrays only layout rewrites changed: their accesses keep their program
// order and must keep meeting where they met. A rewrite without that
// obligation on an array (a pipeline moves and copies the staged stores)
// takes the array out: the original's accesses are no longer the patched
// kernel's, and the invariants, races and execution stages check it.
std::set<std::pair<std::string, std::string>> pairedArrays(const RewriteOutcome &Outcome) {
  std::set<std::pair<std::string, std::string>> Paired, Moved;
  for (const AppliedRewrite &A : Outcome.applied) {
    bool Pairs = false;
    for (const rw::KeptObligation &O : A.obligations)
      Pairs |= O.kind == rw::KeptObligationKind::LdsElementPairing;
    for (const rw::KeptObligation &O : A.obligations)
      if (!O.subject.empty())
        (Pairs ? Paired : Moved).insert({A.kernel, O.subject});
  }
  for (const auto &M : Moved)
    Paired.erase(M);
  return Paired;
}

// Accesses keep their program order under a layout rewrite, so the i-th
// access of an array before is the i-th after.
void pairBankDegrees(const std::vector<KernelSnapshot> &Before,
                     const std::vector<KernelSnapshot> &After, RewriteOutcome &Outcome) {
  auto Changed = pairedArrays(Outcome);
  for (const KernelSnapshot &Old : Before) {
    const KernelSnapshot *New = nullptr;
    for (const KernelSnapshot &K : After)
      if (K.kernel == Old.kernel)
        New = &K;
    std::map<std::string, std::vector<const LdsAccessRating *>> NewByArray;
    if (New)
      for (const LdsAccessRating &A : New->accesses)
        NewByArray[A.array].push_back(&A);
    std::map<std::string, size_t> Seen;
    for (const LdsAccessRating &A : Old.accesses) {
      if (!Changed.count({Old.kernel, A.array}))
        continue;
      BankChange C;
      C.kernel = Old.kernel;
      C.array = A.array;
      C.before = A.text;
      C.location = A.location;
      C.isWrite = A.isWrite;
      C.degreeBefore = A.conflictDegree;
      C.note = A.note;
      size_t I = Seen[A.array]++;
      auto &List = NewByArray[A.array];
      if (I < List.size()) {
        C.after = List[I]->text;
        C.degreeAfter = List[I]->conflictDegree;
        if (C.note.empty())
          C.note = List[I]->note;
      }
      Outcome.banks.push_back(std::move(C));
    }
  }
}

std::string readWholeFile(const std::string &Path, std::string &Error) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false);
  if (!Buffer) {
    Error = Path + ": error: cannot read the file: " + Buffer.getError().message();
    return "";
  }
  return (*Buffer)->getBuffer().str();
}

// The patched text on disk, beside nothing the user owns, for the compilers
// and the user's commands. Both paths are removed when the copy goes, and
// when the tool is interrupted (support/InterruptCleanup.h).
struct PatchedCopy {
  support::TempPath dir, file; // destroyed in reverse: the file, then its folder
};

bool writePatchedCopy(const std::string &File, const std::string &Text, PatchedCopy &Copy) {
  Copy.dir = support::createTempDirectory("ave-rewrite");
  if (Copy.dir.empty())
    return false;
  llvm::SmallString<128> Path(Copy.dir.path());
  llvm::sys::path::append(Path, llvm::sys::path::filename(File));
  Copy.file = support::TempPath(std::string(Path));
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC);
  if (EC)
    return false;
  OS << Text;
  OS.close();
  bool Written = !OS.has_error();
  OS.clear_error();
  return Written;
}

// Adds a stage; false when the pipeline stops here.
struct StageSink {
  RewriteOutcome &outcome;
  bool keepGoing;
  bool add(StageResult S) {
    bool Failed = S.status == StageStatus::Failed;
    outcome.stages.push_back(std::move(S));
    return !Failed || keepGoing;
  }
};

// Parses the patched text once for the snapshots and the assumptions that
// depend on a rewritten array.
StageResult parseStage(const frontend::FileFlags &Flags, const PipelineOptions &Opts,
                       std::shared_ptr<inv::TermContext> Terms, RewriteOutcome &Outcome,
                       std::vector<KernelSnapshot> &After,
                       std::vector<stages::DependentAssume> &Assumes) {
  auto Start = std::chrono::steady_clock::now();
  InMemoryParseResult Parse =
      parseHipSource(Flags, Outcome.patched, Opts.args, [&](frontend::ParsedUnit &U) {
        After = snapshotKernels(U, snapshotOptions(Opts, Terms));
        stages::findDependentAssumes(U, changedArrays(Outcome), Assumes);
      });
  StageResult S;
  S.name = "parse";
  S.status = Parse.parsed ? StageStatus::Passed : StageStatus::Failed;
  S.message = Parse.parsed ? "the patched file parses" : "the patched file does not parse";
  S.millis = millisSince(Start);
  if (!Parse.parsed) {
    llvm::SmallVector<llvm::StringRef> Lines;
    llvm::StringRef(Parse.diagnostics).split(Lines, '\n', -1, false);
    for (llvm::StringRef L : Lines)
      S.evidence.push_back(L.str());
  }
  return S;
}

// The stages over the two snapshots; false when the pipeline stops.
bool verifyStatic(const frontend::FileFlags &Flags, const OriginalFacts &Original,
                  const std::vector<KernelSnapshot> &After,
                  const std::vector<stages::DependentAssume> &Assumes, inv::TermContext &Terms,
                  const PatchPositions &Positions, const PipelineOptions &Opts, StageSink &Sink) {
  RewriteOutcome &Outcome = Sink.outcome;
  const std::vector<KernelSnapshot> &Before = Original.snapshots;
  const stages::KernelArrays Rewritten = changedArrays(Outcome);
  const stages::KernelArrays Paired = pairedArrays(Outcome);
  std::set<std::string> Changed;
  for (const AppliedRewrite &A : Outcome.applied)
    Changed.insert(A.kernel);
  StageResult Inv =
      stages::compareInvariants(Before, After, Paired, Opts.allowUnproven, Positions, Changed);
  for (const KernelSnapshot &K : After)
    Inv.millis += K.analysisMillis;
  Outcome.provenAfter = Inv.data.value("proven_after", 0u);
  pairBankDegrees(Before, After, Outcome);
  if (!Sink.add(std::move(Inv)))
    return false;
  for (StageResult &S : stages::verifyNvidiaBranch(
           Flags, {Outcome.original, Outcome.patched, Opts, Paired, Positions, Changed}))
    if (!Sink.add(std::move(S)))
      return false;
  return Sink.add(stages::reproveAssumptions(Flags, Outcome.patched, Assumes, Opts)) &&
         Sink.add(stages::proveElementPairing(Before, After, Paired, Terms, Opts.z3TimeoutMs)) &&
         Sink.add(stages::compareRaces(Before, After)) &&
         Sink.add(stages::checkLdsFootprint(Before, After, Rewritten, Opts.args.target,
                                            Opts.dynamicLdsBytes));
}

// The patched kernels whose launch a rewrite changed, with their bench
// specs (a parse of the patched text; none when no rewrite changes one).
std::vector<stages::ExecutionSubject> relaunchedSubjects(const frontend::FileFlags &Flags,
                                                         const PipelineOptions &Opts,
                                                         const RewriteOutcome &Outcome) {
  std::set<std::string> Kernels;
  for (const AppliedRewrite &A : Outcome.applied)
    if (A.changesLaunch)
      Kernels.insert(A.kernel);
  std::vector<stages::ExecutionSubject> Out;
  if (Kernels.empty())
    return Out;
  parseHipSource(Flags, Outcome.patched, Opts.args, [&](frontend::ParsedUnit &U) {
    for (const clang::FunctionDecl *K : ann::findKernels(U.context))
      if (Kernels.count(K->getNameAsString()) && !K->isTemplated())
        Out.push_back(executionSubject(U, *K));
  });
  return Out;
}

stages::ExecutionRequest executionRequest(const OriginalFacts &Original,
                                          const PipelineOptions &Opts, bool Reassociates,
                                          const RewriteOutcome &Outcome,
                                          const frontend::FileFlags &Flags) {
  stages::ExecutionRequest R;
  if (Opts.execute)
    R.patchedSubjects = relaunchedSubjects(Flags, Opts, Outcome);
  R.file = Outcome.file;
  R.original = Outcome.original;
  R.patched = Outcome.patched;
  R.subjects = Original.subjects;
  R.rewritten = changedArrays(Outcome);
  R.target = Opts.args.target;
  R.reassociates = Reassociates;
  R.required = Opts.requireExecution;
  R.cacheDir = Opts.executionCacheDir;
  // A pipeline of S stages prefetches S - 1 tiles ahead: S + 1 tiles run
  // its prologue, its steady state and its epilogue.
  for (const AppliedRewrite &A : Outcome.applied)
    if (auto It = A.parameters.find("stages"); A.rewrite == "pipeline" && It != A.parameters.end())
      R.minTrips = std::max(R.minTrips, rw::parseUnsigned(It->second).value_or(2) + 1);
  return R;
}

// The builds: the compilers and the execution stage, separate processes that
// need only the patched text. They start before the static stages and run
// beside them (and beside each other); their results are reported after the
// static stages, in order. When a static stage stops the pipeline, they are
// awaited and dropped (the futures wait as they go, before the copy goes).
struct PendingBuilds {
  PatchedCopy copy;
  bool written = false;
  std::future<std::optional<CompileResult>> amd, nvidia;
  std::future<StageResult> execution;
};

std::unique_ptr<PendingBuilds> startBuilds(const frontend::FileFlags &Flags,
                                           const OriginalFacts &Original,
                                           const PipelineOptions &Opts, bool Reassociates,
                                           const RewriteOutcome &Outcome) {
  auto P = std::make_unique<PendingBuilds>();
  P->written = writePatchedCopy(Outcome.file, Outcome.patched, P->copy);
  if (!P->written)
    return P;
  CompileInputs In;
  In.sourcePath = P->copy.file.path();
  In.originalDir = std::string(llvm::sys::path::parent_path(Flags.file));
  In.flags = Flags.user;
  In.args = Opts.args;
  In.hipOnCudaIncludeDir = Opts.hipOnCudaIncludeDir;
  P->execution = std::async(
      std::launch::async,
      [R = executionRequest(Original, Opts, Reassociates, Outcome, Flags), Run = Opts.execute] {
        if (!Run)
          return StageResult{
              "execution", StageStatus::Skipped, 0, "disabled (--no-execute)", {}, {}, {}};
        return stages::executeEquivalence(R);
      });
  P->nvidia = std::async(std::launch::async, [In, Run = Opts.compileNvidia] {
    return Run ? std::optional<CompileResult>(compileForNvidia(In, "sm_90")) : std::nullopt;
  });
  P->amd = std::async(std::launch::async, [In, Run = Opts.compileAmd] {
    return Run ? std::optional<CompileResult>(compileForAmd(In, "gfx942")) : std::nullopt;
  });
  return P;
}

void finishBuilds(PendingBuilds &P, const PipelineOptions &Opts, StageSink &Sink) {
  const std::string &File = Sink.outcome.file;
  if (!P.written) {
    Sink.add({"compile",
              StageStatus::Failed,
              0,
              "cannot write the patched copy to a temporary directory",
              {},
              {},
              {}});
    return;
  }
  std::optional<CompileResult> Amd = P.amd.get();
  std::optional<CompileResult> Cuda = P.nvidia.get();
  StageResult Executed = P.execution.get();
  bool Go = true;
  if (!Amd)
    Sink.add({"compile-gfx942", StageStatus::Skipped, 0, "disabled", {}, {}, {}});
  else
    Go = Sink.add(stages::compile(*Amd, frontend::Target::Gfx942));
  if (Go && !Cuda)
    Sink.add({"compile-sm_90", StageStatus::Skipped, 0, "disabled", {}, {}, {}});
  else if (Go)
    Go = Sink.add(stages::compile(*Cuda, frontend::Target::Sm90));
  if (!Go || !Sink.add(std::move(Executed)) ||
      !Sink.add(stages::runCommand("test", Opts.testCommand, P.copy.file.path(), File)))
    return;
  Sink.add(stages::runCommand("bench", Opts.benchCommand, P.copy.file.path(), File));
}

void verify(const frontend::FileFlags &Flags, const OriginalFacts &Original,
            std::shared_ptr<inv::TermContext> Terms, const PatchPositions &Positions,
            const PipelineOptions &Opts, bool Reassociates, RewriteOutcome &Outcome) {
  StageSink Sink{Outcome, Opts.keepGoing};
  std::unique_ptr<PendingBuilds> Builds = startBuilds(Flags, Original, Opts, Reassociates, Outcome);
  std::vector<KernelSnapshot> After;
  std::vector<stages::DependentAssume> Assumes;
  if (!Sink.add(parseStage(Flags, Opts, Terms, Outcome, After, Assumes)) ||
      Outcome.stages.back().status == StageStatus::Failed)
    return;
  if (!verifyStatic(Flags, Original, After, Assumes, *Terms, Positions, Opts, Sink))
    return;
  finishBuilds(*Builds, Opts, Sink);
}

// A kernel is rejected by a failed stage about it or about the whole patch.
void judgeKernels(RewriteOutcome &Outcome) {
  for (const AppliedRewrite &A : Outcome.applied) {
    bool Rejected = false;
    for (const StageResult &S : Outcome.stages)
      Rejected = Rejected || (S.status == StageStatus::Failed &&
                              (S.failedKernels.empty() || S.failedKernels.count(A.kernel)));
    Outcome.kernelResults[A.kernel] = Rejected ? "rejected" : "accepted";
  }
}

std::string diffLabel(const std::string &File) {
  llvm::SmallString<256> Absolute(File), Cwd;
  llvm::sys::fs::make_absolute(Absolute);
  llvm::sys::path::remove_dots(Absolute, true);
  if (llvm::sys::fs::current_path(Cwd))
    return File;
  llvm::StringRef Rel(Absolute);
  if (!Rel.consume_front(Cwd) || !Rel.consume_front("/"))
    return std::string(Absolute);
  return Rel.str();
}

} // namespace

RewriteOutcome rewriteAndVerify(const std::string &File, const std::vector<rw::RewriteSpec> &Specs,
                                const PipelineOptions &Opts) {
  auto Start = std::chrono::steady_clock::now();
  RewriteOutcome Outcome;
  Outcome.file = File;
  Outcome.original = Opts.text ? *Opts.text : readWholeFile(File, Outcome.error);
  if (!Outcome.error.empty())
    return Outcome;
  frontend::CompileCommands Commands(Opts.buildDir);
  std::optional<frontend::FileFlags> Flags =
      Commands.flagsFor(File, Opts.args.extraArgs, Outcome.error);
  if (!Flags)
    return Outcome;
  // Both snapshots copy their LDS address terms here (the pairing proof).
  auto Terms = std::make_shared<inv::TermContext>();
  OriginalFacts Original;
  std::string Text = Outcome.original;
  bool Reassociates = false;
  std::vector<clang::tooling::Replacements> StepEdits;
  for (size_t I = 0; I < Specs.size(); ++I) {
    RewriteStep Step =
        applyOne(*Flags, Text, Specs[I], Opts, Terms, Outcome, I == 0 ? &Original : nullptr);
    if (!Step.error.empty()) {
      Outcome.error = Step.error;
      return Outcome;
    }
    Text = Step.text;
    StepEdits.push_back(std::move(Step.edits));
    Reassociates = Reassociates || Specs[I].rewriter->info().reassociatesSums;
  }
  for (const KernelSnapshot &K : Original.snapshots)
    Outcome.provenBefore += K.count(inv::SolverResult::Proven);
  Outcome.patched = Text;
  std::string Label = diffLabel(File);
  Outcome.diff = unifiedDiff(Outcome.original, Outcome.patched,
                             llvm::sys::path::is_absolute(Label) ? Label : "a/" + Label,
                             llvm::sys::path::is_absolute(Label) ? Label : "b/" + Label);
  if (Outcome.changed() && Opts.verify) {
    PatchPositions Positions(File, Outcome.original, Outcome.patched, std::move(StepEdits));
    verify(*Flags, Original, Terms, Positions, Opts, Reassociates, Outcome);
    Outcome.verified =
        std::none_of(Outcome.stages.begin(), Outcome.stages.end(),
                     [](const StageResult &S) { return S.status == StageStatus::Failed; });
    judgeKernels(Outcome);
  }
  Outcome.totalMillis = millisSince(Start);
  return Outcome;
}

} // namespace ave::agent
