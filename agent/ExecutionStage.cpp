#include "ExecutionStage.h"

#include "ave/harness/BundleGenerator.h"
#include "ave/harness/ShapeBinding.h"
#include "ave/support/AtomicWrite.h"
#include "ave/support/CacheDir.h"
#include "ave/support/InterruptCleanup.h"
#include "ave/support/Subprocess.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"

#include <cstdlib>
#include <unistd.h>

namespace ave::agent::stages {

namespace {

// Builds ./equivalence (only the units whose files changed: the shared
// runtime object once per cache, the original's launcher and the driver once
// per prepared bundle) and runs it with the given arguments.
const char *const BuildScript = R"SH(#!/usr/bin/env bash
# Written by ave-rewrite's execution stage: builds ./equivalence for the CPU
# executor from this bundle and runs it. $1: the shared runtime object.
set -uo pipefail
cd "$(dirname "$0")"
runtime=$1
shift
cxx=include/hip_on_cpu/ave-cpu-c++
flags=(-O1 -fno-strict-aliasing -I include -I . ${AVE_EQ_FLAGS:-})
# The race check on shared memory (ave_cpu/race_check.h): on whenever the
# executor's compiler can build it (clang), unless AVE_CPU_RACES says.
# Threads here run one at a time and hand over only at barriers, so a patch
# that loses a barrier often gives the same values: the race is what shows it.
[ -n "${AVE_CPU_RACES:-}" ] || AVE_CPU_RACES=$("$cxx" --races-supported)
export AVE_CPU_RACES
runtime=${runtime%.o}-races$AVE_CPU_RACES.o
if [ ! -f "$runtime" ]; then
  (
    flock 9
    if [ ! -f "$runtime" ]; then
      "$cxx" "${flags[@]}" -c include/hip_on_cpu/ave_cpu_runtime.cpp -o "$runtime.$$" &&
        mv "$runtime.$$" "$runtime"
    fi
  ) 9>"$runtime.lock" || exit 5
fi
mkdir -p eq-obj
# Objects built with other flags (the race check on or off) are not reused.
record="${flags[*]} races=$AVE_CPU_RACES"
if [ "$(cat eq-obj/flags 2>/dev/null)" != "$record" ]; then
  rm -f eq-obj/*.o eq-obj/*.d eq-obj/*.pch
  echo "$record" >eq-obj/flags
fi
# What every unit parses first, precompiled once per bundle (with clang; the
# candidate's launcher, the one unit rebuilt per patch, then takes ~1 s less).
printf '%s\n' '#include <hip/hip_runtime.h>' '#include <ave/annotations.h>' '#include "problem.h"' \
  >eq-obj/common.h.new
cmp -s eq-obj/common.h.new eq-obj/common.h || mv eq-obj/common.h.new eq-obj/common.h
rm -f eq-obj/common.h.new
"$cxx" "${flags[@]}" -DAVE_CPU_DECLARATIONS_ONLY --make-pch eq-obj/common.h || exit 5
# 5: the original (or the driver) does not build for the CPU; 4: the patched
# kernel does not.
build_unit() { # unit
  local stem
  stem=$(basename "${1%.*}")
  "$cxx" "${flags[@]}" -DAVE_CPU_DECLARATIONS_ONLY --pch eq-obj/common.h --incremental \
    -MMD -MF "eq-obj/$stem.d" -c "$1" -o "eq-obj/$stem.o"
}
build_unit ave_equivalence.cpp &
driver=$!
build_unit launch_reference.hip &
reference=$!
build_unit launch_candidate.hip &
candidate=$!
wait "$driver"
d=$?
wait "$reference"
r=$?
wait "$candidate"
c=$?
[ "$d" = 0 ] && [ "$r" = 0 ] || exit 5
[ "$c" = 0 ] || exit 4
# Both launchers include a kernel file: a helper it defines (a __device__
# function, a global) is defined in both objects. Such symbols (strong in
# both) become local to each; shared inline ones stay as they are.
strong() { nm --defined-only -g "$1" | awk '$2 ~ /^[TDBRC]$/ {print $3}' | LC_ALL=C sort; }
LC_ALL=C comm -12 <(strong eq-obj/launch_reference.o) <(strong eq-obj/launch_candidate.o) \
  >eq-obj/twice.syms
echo ave_no_such_symbol >>eq-obj/twice.syms # objcopy fails on an empty list
objcopy --localize-symbols=eq-obj/twice.syms eq-obj/launch_reference.o eq-obj/reference.o || exit 5
objcopy --localize-symbols=eq-obj/twice.syms eq-obj/launch_candidate.o eq-obj/candidate.o || exit 4
"$cxx" eq-obj/ave_equivalence.o eq-obj/reference.o eq-obj/candidate.o "$runtime" \
  -o equivalence || exit 4
exec ./equivalence "$@"
)SH";

std::string hashText(const std::string &Text) {
  uint64_t H = llvm::xxh3_64bits(llvm::arrayRefFromStringRef(Text));
  char Buffer[17];
  std::snprintf(Buffer, sizeof Buffer, "%016llx", static_cast<unsigned long long>(H));
  return Buffer;
}

// Writes a file unless it already holds `Text` (an unchanged file keeps its
// time, so the incremental build skips what depends only on it).
std::string writeIfChanged(const std::string &Path, const std::string &Text, bool Executable) {
  if (auto Old = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false);
      Old && (*Old)->getBuffer() == Text)
    return "";
  llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Path));
  if (std::error_code EC = support::writeFileAtomically(Path, Text))
    return "cannot write " + Path + ": " + EC.message();
  if (Executable)
    llvm::sys::fs::setPermissions(Path, llvm::sys::fs::all_read | llvm::sys::fs::all_exe |
                                            llvm::sys::fs::owner_write);
  return "";
}

struct Prepared {
  std::string directory, runtimeObject, error;
  std::vector<harness::BundleFile> files;
};

// The bundle for one kernel: generated by the harness with the original as
// its reference and the patched text as its candidate, plus the driver.
Prepared prepareBundle(const ExecutionRequest &R, const harness::BenchSpec &Spec,
                       const ExecutionShapes &Shapes, const std::string &Flags) {
  Prepared Out;
  harness::BundleRequest B;
  B.candidate = Spec;
  for (const ExecutionSubject &P : R.patchedSubjects)
    if (P.kernel == Spec.kernel && P.spec)
      B.candidate = *P.spec;
  B.candidateSource = {R.file, R.patched};
  B.reference = Spec;
  B.referenceSource = harness::KernelSource{R.file, R.original};
  B.shape = Shapes.given;
  B.oddShape = Shapes.odd;
  for (const harness::FloatParam &F : Spec.floats)
    B.scalars.push_back({F.name, F.type, 1.25, harness::ScalarRole::OutputScale});
  harness::BundleResult Bundle = harness::generateBundle(B);
  if (Bundle.files.empty()) {
    Out.error = "the harness cannot make a bundle: " + Bundle.error;
    return Out;
  }
  std::string Static;
  for (const harness::BundleFile &F : harness::staticBundleFiles())
    Static += F.path + "\n" + F.contents;
  const std::string Root = R.cacheDir.empty() ? support::userCacheDir() : R.cacheDir;
  Out.runtimeObject = Root + "/runtime-" + hashText(Static + Flags) + ".o";
  Out.directory = Root + "/bundle-" +
                  hashText(R.original + "\n" + Spec.kernel + "\n" + Shapes.given.text() + "\n" +
                           Shapes.odd.text() + "\n" + Flags + "\n" + Static);
  Out.files = std::move(Bundle.files);
  Out.files.push_back({"ave_equivalence.cpp", equivalenceDriverSource(), false});
  Out.files.push_back({"equivalence.sh", BuildScript, true});
  return Out;
}

std::string writeBundleFiles(const Prepared &P) {
  for (const harness::BundleFile &F : P.files)
    if (std::string E = writeIfChanged(P.directory + "/" + F.path, F.contents, F.executable);
        !E.empty())
      return E;
  return "";
}

// Holds an exclusive lock on a file while alive (another ave-rewrite may
// use the same prepared bundle).
class FileLock {
public:
  explicit FileLock(const std::string &Path) {
    if (Path.empty())
      return;
    llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Path));
    if (!llvm::sys::fs::openFileForReadWrite(Path, FD, llvm::sys::fs::CD_OpenAlways,
                                             llvm::sys::fs::OF_None))
      Locked = !llvm::sys::fs::lockFile(FD);
  }
  ~FileLock() {
    if (Locked)
      llvm::sys::fs::unlockFile(FD);
    if (FD >= 0)
      ::close(FD);
  }
  bool locked() const { return Locked; }

private:
  int FD = -1;
  bool Locked = false;
};

struct Ran {
  int code = -1;
  std::string output;
};

// The script runs in its own process group with a guarded output file: an
// interrupt stops the compilers and the executable it started and removes
// the file (InterruptCleanup.h), and 120 s end it.
Ran runScript(const Prepared &P, const ExecutionRequest &R) {
  Ran Out;
  support::TempPath OutFile = support::createTempFile("ave-equivalence", "out");
  if (OutFile.empty()) {
    Out.output = "cannot create a temporary file";
    return Out;
  }
  const frontend::TargetInfo &Info = frontend::targetInfo(R.target);
  support::ProcessOptions Opts;
  Opts.stdoutPath = Opts.stderrPath = OutFile.path();
  Opts.timeoutSeconds = 120;
  Opts.environment = {"AVE_CPU_WAVE_SIZE=" + std::to_string(Info.waveSize), "AVE_CPU_QUIET=1",
                      "AVE_CPU_TIMEOUT=30"};
  if (R.target != frontend::Target::Sm90)
    Opts.environment.push_back("AVE_EQ_FLAGS=-DAVE_CPU_ARCH_GFX942");
  std::vector<std::string> Args = {P.directory + "/equivalence.sh", P.runtimeObject, "20261130"};
  if (R.reassociates)
    Args.push_back("--reassociates");
  support::ProcessResult Done = support::runProcess("/bin/bash", Args, Opts);
  Out.code = Done.ran() && !Done.signal ? Done.exitCode : -1;
  if (auto Buffer = llvm::MemoryBuffer::getFile(OutFile.path()))
    Out.output = (*Buffer)->getBuffer().str();
  if (!Done.ran())
    Out.output += Done.error;
  else if (Done.timedOut)
    Out.output += "the equivalence run took more than 120 s";
  else if (Done.signal)
    Out.output += "the equivalence run ended with signal " + std::to_string(Done.signal);
  return Out;
}

// Appends the last lines of `Text` (at most `Count`).
void tail(const std::string &Text, size_t Count, std::vector<std::string> &Out) {
  llvm::SmallVector<llvm::StringRef> Lines;
  llvm::StringRef(Text).split(Lines, '\n', -1, false);
  for (size_t I = Lines.size() > Count ? Lines.size() - Count : 0; I < Lines.size(); ++I)
    Out.push_back(Lines[I].str());
}

// Runs one kernel; false when it could not be run (Why says why).
bool executeKernel(const ExecutionRequest &R, const ExecutionSubject &Subject, StageResult &S,
                   std::string &Why) {
  if (!Subject.spec) {
    Why = "kernel '" + Subject.kernel + "' cannot be executed: " + Subject.error;
    return false;
  }
  ExecutionShapes Shapes = chooseExecutionShapes(*Subject.spec);
  if (!Shapes.error.empty()) {
    Why = "kernel '" + Subject.kernel + "': no shape to execute it at: " + Shapes.error;
    return false;
  }
  const std::string Flags = R.target != frontend::Target::Sm90 ? "gfx942" : "generic";
  Prepared P = prepareBundle(R, *Subject.spec, Shapes, Flags);
  FileLock Lock(P.error.empty() ? P.directory + ".lock" : "");
  if (P.error.empty() && !Lock.locked())
    P.error = "cannot lock " + P.directory;
  if (P.error.empty())
    P.error = writeBundleFiles(P);
  if (!P.error.empty()) {
    Why = "kernel '" + Subject.kernel + "': " + P.error;
    return false;
  }
  Ran Result = runScript(P, R);
  S.data["kernels"].push_back({{"kernel", Subject.kernel},
                               {"shapes", {Shapes.given.text(), Shapes.odd.text()}},
                               {"exit_code", Result.code},
                               {"bundle", P.directory}});
  if (Result.code == 0) {
    tail(Result.output, 2, S.evidence);
    return true;
  }
  if (Result.code == 3 || Result.code == 5) {
    // The original itself does not build or run on the CPU executor: there
    // is nothing to compare with.
    std::vector<std::string> Lines;
    tail(Result.output, 1, Lines);
    Why = "kernel '" + Subject.kernel + "': the original " +
          (Result.code == 3 ? "fails" : "does not build") + " on the CPU executor" +
          (Lines.empty() ? "" : " (" + Lines.back() + ")");
    return false;
  }
  S.status = StageStatus::Failed;
  S.failedKernels.insert(Subject.kernel);
  // What the failure shows: a difference, or only that no verdict came.
  if (S.data.value("failure", std::string()) != "differs")
    S.data["failure"] = Result.code == 1 ? "differs" : Result.code == 4 ? "build" : "run";
  if (Result.code == 1) {
    S.evidence.push_back(Subject.kernel + ": the patched kernel computes something else:");
    tail(Result.output, 3, S.evidence);
  } else {
    S.evidence.push_back(Subject.kernel + ": " +
                         (Result.code == 4
                              ? "the patched kernel does not build for the CPU:"
                              : "the run failed (exit " + std::to_string(Result.code) + "):"));
    tail(Result.output, 12, S.evidence);
  }
  return true;
}

} // namespace

ExecutionShapes chooseExecutionShapes(const harness::BenchSpec &Spec) {
  ExecutionShapes Out;
  std::optional<ExecutionShapes> Fallback;
  std::string Last = "no size of 32..512 meets the kernel's assumptions";
  for (int64_t V : {32, 64, 96, 128, 192, 256, 512}) {
    harness::Bindings Given;
    for (const harness::SizeParam &P : Spec.sizes)
      Given[P.name] = V;
    std::string Error;
    std::optional<harness::Shape> Shape = harness::shapeForSpec(Spec, Given, Error);
    if (!Shape) {
      Out.error = Error;
      return Out;
    }
    std::string Violated = harness::violatedAssumption(Spec, *Shape, Error);
    if (!Error.empty() || !Violated.empty())
      continue;
    std::optional<harness::Shape> Odd = harness::oddMultipleShape(Spec, *Shape, Error);
    if (!Odd || Odd->values == Shape->values) {
      Last = Odd ? "no odd multiple of the granule differs from " + Shape->text() : Error;
      continue;
    }
    Out.given = *Shape;
    Out.odd = *Odd;
    // Prefer an odd shape whose sizes all differ: swapped dimensions show.
    if (std::set<int64_t>(Odd->values.begin(), Odd->values.end()).size() == Odd->values.size())
      return Out;
    if (!Fallback)
      Fallback = Out;
  }
  if (Fallback)
    return *Fallback;
  Out.error = Last;
  return Out;
}

StageResult executeEquivalence(const ExecutionRequest &R) {
  auto Start = std::chrono::steady_clock::now();
  StageResult S;
  S.name = "execution";
  S.status = StageStatus::Passed;
  S.data["kernels"] = nlohmann::json::array();
  std::set<std::string> Kernels;
  for (const auto &KA : R.rewritten)
    Kernels.insert(KA.first);
  std::vector<std::string> NotRun;
  unsigned Ran = 0;
  for (const std::string &Kernel : Kernels) {
    const ExecutionSubject *Subject = nullptr;
    for (const ExecutionSubject &E : R.subjects)
      if (E.kernel == Kernel)
        Subject = &E;
    std::string Why = "kernel '" + Kernel + "' was not found in the original";
    if (Subject && executeKernel(R, *Subject, S, Why))
      ++Ran;
    else
      NotRun.push_back(Why);
  }
  S.millis = millisSince(Start);
  for (const std::string &W : NotRun)
    S.evidence.push_back("not executed: " + W);
  if (S.status == StageStatus::Failed) {
    const std::string Failure = S.data.value("failure", std::string("differs"));
    S.message = Failure == "differs" ? "the patched kernel differs from the original on the CPU "
                                       "executor"
                : Failure == "build"
                    ? "the patched kernel does not build for the CPU executor"
                    : "the equivalence run gave no verdict (it timed out or crashed): the "
                      "patch is not shown to compute the same";
    return S;
  }
  if (!NotRun.empty() && (R.required || Ran == 0)) {
    S.status = R.required ? StageStatus::Failed : StageStatus::Skipped;
    if (R.required)
      S.failedKernels = Kernels;
    S.message = NotRun.front();
    return S;
  }
  S.message = std::to_string(Ran) + " kernel(s) give the same " +
              (R.reassociates ? "values (within the harness tolerance)" : "bits") +
              " as the original at two shapes on the CPU executor";
  return S;
}

} // namespace ave::agent::stages
