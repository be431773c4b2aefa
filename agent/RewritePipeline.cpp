#include "ave/agent/RewritePipeline.h"

#include "VerificationStages.h"
#include "ave/agent/BankConflicts.h"
#include "ave/agent/InMemoryParse.h"
#include "ave/agent/UnifiedDiff.h"
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

SnapshotOptions snapshotOptions(const PipelineOptions &Opts) {
  SnapshotOptions S;
  S.target = Opts.args.target;
  S.z3TimeoutMs = Opts.z3TimeoutMs;
  S.kernel = Opts.kernel;
  return S;
}

// Runs one rewrite over every selected kernel of `Text` and applies the
// candidates. Snapshots of `Text` come back in `Snapshots` when asked for.
struct RewriteStep {
  std::string text;
  std::string error;
  bool parsed = false;
};

RewriteStep applyOne(const frontend::FileFlags &Flags, const std::string &Text,
                     const rw::RewriteSpec &Spec, const PipelineOptions &Opts,
                     RewriteOutcome &Outcome, std::vector<KernelSnapshot> *Snapshots) {
  const std::string &File = Outcome.file;
  RewriteStep Step;
  clang::tooling::Replacements All;
  std::vector<KernelSnapshot> Snaps;
  bool SawKernel = false;
  InMemoryParseResult Parse = parseHipSource(Flags, Text, Opts.args, [&](frontend::ParsedUnit &U) {
    Snaps = snapshotKernels(
        U, snapshotOptions(Opts), [&](const clang::FunctionDecl &K, inv::KernelAnalysis *Analysis) {
          SawKernel = true;
          std::optional<BankModelAdvisor> Advisor;
          if (Analysis)
            Advisor.emplace(*Analysis, U.context, Opts.args.target);
          rw::RewriteRequest Request{U.context, K, Spec.parameters, Advisor ? &*Advisor : nullptr,
                                     &U.pragmas};
          rw::RewriteResult R = Spec.rewriter->run(Request);
          if (!R.error.empty()) {
            Step.error = R.error;
            return;
          }
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
                  {C.rewrite, C.parameters, C.kernel, C.array, C.summary, C.obligations});
          }
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
  else if (!SawKernel && Step.error.empty() && Snapshots)
    Outcome.notes.push_back({{}, "no kernels in " + File + "; nothing to rewrite"});
  if (Snapshots)
    *Snapshots = std::move(Snaps);
  AppliedText Applied = applyToText(Text, All);
  if (!Applied.error.empty() && Step.error.empty())
    Step.error = "cannot apply the edits: " + Applied.error;
  Step.text = Applied.error.empty() ? Applied.text : Text;
  return Step;
}

std::set<std::pair<std::string, std::string>> changedArrays(const RewriteOutcome &Outcome) {
  std::set<std::pair<std::string, std::string>> Out;
  for (const AppliedRewrite &A : Outcome.applied)
    Out.insert({A.kernel, A.array});
  return Out;
}

// Accesses keep their program order under a layout rewrite, so the i-th
// access of an array before is the i-th after.
void pairBankDegrees(const std::vector<KernelSnapshot> &Before,
                     const std::vector<KernelSnapshot> &After, RewriteOutcome &Outcome) {
  auto Changed = changedArrays(Outcome);
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

void verify(const frontend::FileFlags &Flags, const std::vector<KernelSnapshot> &Before,
            const PipelineOptions &Opts, RewriteOutcome &Outcome) {
  const std::string &File = Outcome.file;
  auto Add = [&](StageResult S) {
    bool Failed = S.status == StageStatus::Failed;
    Outcome.stages.push_back(std::move(S));
    return !Failed;
  };
  auto Start = std::chrono::steady_clock::now();
  std::vector<KernelSnapshot> After;
  InMemoryParseResult Parse =
      parseHipSource(Flags, Outcome.patched, Opts.args, [&](frontend::ParsedUnit &U) {
        After = snapshotKernels(U, snapshotOptions(Opts));
      });
  StageResult ParseStage;
  ParseStage.name = "parse";
  ParseStage.status = Parse.parsed ? StageStatus::Passed : StageStatus::Failed;
  ParseStage.message = Parse.parsed ? "the patched file parses" : "the patched file does not parse";
  ParseStage.millis = millisSince(Start);
  if (!Parse.parsed) {
    llvm::SmallVector<llvm::StringRef> Lines;
    llvm::StringRef(Parse.diagnostics).split(Lines, '\n', -1, false);
    for (llvm::StringRef L : Lines)
      ParseStage.evidence.push_back(L.str());
  }
  if (!Add(std::move(ParseStage)))
    return;

  StageResult Inv = stages::compareInvariants(Before, After);
  Inv.millis = 0;
  for (const KernelSnapshot &K : After)
    Inv.millis += K.analysisMillis;
  Outcome.provenAfter = Inv.data.value("proven_after", 0u);
  pairBankDegrees(Before, After, Outcome);
  if (!Add(std::move(Inv)))
    return;
  if (!Add(stages::compareElementPairing(Before, After, changedArrays(Outcome))))
    return;
  if (!Add(stages::compareRaces(Before, After)))
    return;

  PatchedCopy Copy;
  if (!writePatchedCopy(File, Outcome.patched, Copy)) {
    StageResult S;
    S.name = "compile";
    S.status = StageStatus::Failed;
    S.message = "cannot write the patched copy to a temporary directory";
    Add(std::move(S));
    return;
  }
  CompileInputs In;
  In.sourcePath = Copy.file.path();
  In.originalDir = std::string(llvm::sys::path::parent_path(Flags.file));
  In.flags = Flags.user;
  In.args = Opts.args;
  In.hipOnCudaIncludeDir = Opts.hipOnCudaIncludeDir;
  // The compilers are independent processes: run them side by side and
  // report them in order.
  auto Nvidia = std::async(std::launch::async, [&] {
    return Opts.compileNvidia ? std::optional<CompileResult>(compileForNvidia(In, "sm_90"))
                              : std::nullopt;
  });
  std::optional<CompileResult> Amd;
  if (Opts.compileAmd)
    Amd = compileForAmd(In, "gfx942");
  std::optional<CompileResult> Cuda = Nvidia.get();
  if (!Amd)
    Add({"compile-gfx942", StageStatus::Skipped, 0, "disabled", {}, nlohmann::json::object()});
  else if (!Add(stages::compile(*Amd, frontend::Target::Gfx942)))
    return;
  if (!Cuda)
    Add({"compile-sm_90", StageStatus::Skipped, 0, "disabled", {}, nlohmann::json::object()});
  else if (!Add(stages::compile(*Cuda, frontend::Target::Sm90)))
    return;
  if (!Add(stages::runCommand("test", Opts.testCommand, Copy.file.path(), File)))
    return;
  Add(stages::runCommand("bench", Opts.benchCommand, Copy.file.path(), File));
}

// Paths under the working directory are shown relative to it, so the diff
// applies with `git apply` / `patch -p1` from there.
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
  std::vector<KernelSnapshot> Before;
  std::string Text = Outcome.original;
  for (size_t I = 0; I < Specs.size(); ++I) {
    RewriteStep Step = applyOne(*Flags, Text, Specs[I], Opts, Outcome, I == 0 ? &Before : nullptr);
    if (!Step.error.empty()) {
      Outcome.error = Step.error;
      return Outcome;
    }
    Text = Step.text;
  }
  for (const KernelSnapshot &K : Before)
    Outcome.provenBefore += K.count(inv::SolverResult::Proven);
  Outcome.patched = Text;
  std::string Label = diffLabel(File);
  Outcome.diff = unifiedDiff(Outcome.original, Outcome.patched,
                             llvm::sys::path::is_absolute(Label) ? Label : "a/" + Label,
                             llvm::sys::path::is_absolute(Label) ? Label : "b/" + Label);
  if (Outcome.changed() && Opts.verify) {
    verify(*Flags, Before, Opts, Outcome);
    Outcome.verified =
        std::none_of(Outcome.stages.begin(), Outcome.stages.end(),
                     [](const StageResult &S) { return S.status == StageStatus::Failed; });
  }
  Outcome.totalMillis = millisSince(Start);
  return Outcome;
}

} // namespace ave::agent
