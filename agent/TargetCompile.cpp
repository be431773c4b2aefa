#include "ave/agent/TargetCompile.h"

#include "ave/support/InterruptCleanup.h"
#include "ave/support/Subprocess.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <chrono>
#include <functional>
#include <cstdlib>

namespace ave::agent {

namespace {

struct ProcessOutput {
  int exitCode = -1;
  std::string stderrText;
  std::string error; // could not run
};

std::string readFile(const std::string &Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  return Buffer ? (*Buffer)->getBuffer().str() : std::string();
}

// A compiler in its own process group, which an interrupt of the tool stops
// with its children (cicc, ptxas); its stderr goes through a temporary file
// that is removed then too (support/Subprocess.h). Its own temporary folder (TMPDIR) goes with
// everything in it, for the scratch files nvcc leaves when it is killed.
ProcessOutput runCompiler(const std::string &Program, const std::vector<std::string> &Args) {
  ProcessOutput Out;
  support::TempPath ErrFile = support::createTempFile("ave-compile", "err");
  support::TempPath Scratch = support::createTempTree("ave-compile-tmp");
  if (ErrFile.empty() || Scratch.empty()) {
    Out.error = "cannot create a temporary file";
    return Out;
  }
  support::ProcessOptions Opts;
  Opts.stdoutPath = "/dev/null";
  Opts.stderrPath = ErrFile.path();
  Opts.environment = {"TMPDIR=" + Scratch.path()};
  support::ProcessResult P = support::runProcess(Program, Args, Opts);
  Out.stderrText = readFile(ErrFile.path());
  if (!P.ran())
    Out.error = P.error;
  else if (P.signal)
    Out.error = Program + " was killed by signal " + std::to_string(P.signal);
  Out.exitCode = P.exitCode;
  return Out;
}

std::string joinCommand(const std::string &Program, const std::vector<std::string> &Args) {
  std::string Out = Program;
  for (const std::string &A : Args)
    Out += " " + A;
  return Out;
}

double millisSince(std::chrono::steady_clock::time_point Start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - Start)
      .count();
}

int intValue(llvm::StringRef V) {
  int Out = -1;
  return V.trim().getAsInteger(10, Out) ? -1 : Out;
}

} // namespace

std::string defaultHipOnCudaIncludeDir() {
  if (const char *Env = std::getenv("AVE_HIP_ON_CUDA_DIR"))
    return Env;
  return AVE_HIP_ON_CUDA_INCLUDE_DIR;
}

std::optional<std::string> findProgram(const std::string &Name,
                                       const std::vector<std::string> &Fallbacks) {
  if (auto Found = llvm::sys::findProgramByName(Name))
    return *Found;
  for (const std::string &Path : Fallbacks)
    if (llvm::sys::fs::can_execute(Path))
      return Path;
  return std::nullopt;
}

std::vector<KernelResources> parseAmdAssembly(std::string_view Asm) {
  std::vector<KernelResources> Kernels;
  llvm::SmallVector<llvm::StringRef> Lines;
  llvm::StringRef(Asm).split(Lines, '\n');
  bool InKernels = false;
  for (llvm::StringRef Line : Lines) {
    if (Line.starts_with("amdhsa.kernels:")) {
      InKernels = true;
      continue;
    }
    if (!InKernels)
      continue;
    if (!Line.starts_with(" ")) { // the next top-level key ends the list
      InKernels = false;
      continue;
    }
    // Kernel-level keys sit at indent 4 (the first one after "  - ");
    // deeper ones belong to .args.
    llvm::StringRef Entry;
    if (Line.starts_with("  - ")) {
      Kernels.emplace_back();
      Entry = Line.drop_front(4);
    } else if (Line.starts_with("    .")) {
      Entry = Line.drop_front(4);
    } else {
      continue;
    }
    if (Kernels.empty())
      continue;
    auto [Key, Value] = Entry.split(':');
    KernelResources &K = Kernels.back();
    Value = Value.trim();
    if (Key == ".name")
      K.symbol = Value.str();
    else if (Key == ".vgpr_count")
      K.vgprs = intValue(Value);
    else if (Key == ".sgpr_count")
      K.sgprs = intValue(Value);
    else if (Key == ".agpr_count")
      K.agprs = intValue(Value);
    else if (Key == ".group_segment_fixed_size")
      K.ldsBytes = intValue(Value);
    else if (Key == ".private_segment_fixed_size")
      K.privateBytes = intValue(Value);
    else if (Key == ".vgpr_spill_count")
      K.vgprSpills = intValue(Value);
    else if (Key == ".sgpr_spill_count")
      K.sgprSpills = intValue(Value);
  }
  // v_mfma instructions and the hot loop, between each kernel's label and
  // its .Lfunc_end.
  for (KernelResources &K : Kernels) {
    std::string_view Body = kernelAssembly(Asm, K.symbol);
    for (size_t P = Body.find("v_mfma"); P != std::string_view::npos;
         P = Body.find("v_mfma", P + 1))
      ++K.mfma;
    K.hotLoop = profileHotLoop(Body);
  }
  return Kernels;
}

namespace {

// clang-19 `-S` for Arch with Args adjusted by Adjust, read back.
CompileResult compileAmdAssembly(const CompileInputs &In, std::string_view Arch,
                                 const std::function<void(std::vector<std::string> &)> &Adjust) {
  CompileResult R;
  R.target = std::string(Arch);
  std::optional<std::string> Clang = findProgram("clang++-19", {"/usr/lib/llvm-19/bin/clang++"});
  if (!Clang) {
    R.available = false;
    R.errors = "clang++-19 not found";
    return R;
  }
  support::TempPath AsmFile = support::createTempFile("ave-gfx", "s");
  if (AsmFile.empty()) {
    R.errors = "cannot create a temporary file";
    return R;
  }
  std::vector<std::string> Args = frontend::amdCompileArgs(
      In.flags, In.args, std::string(Arch), In.sourcePath, AsmFile.path(), In.originalDir);
  if (Adjust)
    Adjust(Args);
  R.command = joinCommand(*Clang, Args);
  auto Start = std::chrono::steady_clock::now();
  ProcessOutput P = runCompiler(*Clang, Args);
  R.millis = millisSince(Start);
  R.ok = P.exitCode == 0;
  R.errors = P.error.empty() ? P.stderrText : P.error;
  if (R.ok)
    R.kernels = parseAmdAssembly(readFile(AsmFile.path()));
  return R;
}

// Debian's ROCm device-library folder, when it has a CDNA3 ISA library.
std::optional<std::string> cdna3DeviceLibs(std::string &Arch) {
  const std::string Dir = "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode";
  for (const char *A : {"942", "940"})
    if (llvm::sys::fs::exists(Dir + "/oclc_isa_version_" + A + ".bc") &&
        llvm::sys::fs::exists(Dir + "/ockl.bc")) {
      Arch = std::string("gfx") + A;
      return Dir;
    }
  return std::nullopt;
}

} // namespace

CompileResult compileForAmd(const CompileInputs &In, std::string_view Arch) {
  return compileAmdAssembly(In, Arch, nullptr);
}

CompileResult compileForCostModel(const CompileInputs &In) {
  std::string Arch = "gfx942";
  std::optional<std::string> Libs = cdna3DeviceLibs(Arch);
  return compileAmdAssembly(In, Arch, [&](std::vector<std::string> &Args) {
    if (!Libs)
      return;
    for (std::string &A : Args)
      if (A == "-nogpulib")
        A = "--rocm-device-lib-path=" + *Libs;
  });
}

namespace {

// The PTX nvcc kept in Dir (one architecture: one file), or "".
std::string keptPtx(const std::string &Dir) {
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; !EC && It != End; It.increment(EC))
    if (llvm::StringRef(It->path()).ends_with(".ptx"))
      return It->path();
  return "";
}

} // namespace

CompileResult compileForNvidia(const CompileInputs &In, std::string_view Arch) {
  CompileResult R;
  R.target = std::string(Arch);
  std::optional<std::string> Nvcc = findProgram("nvcc", {"/usr/local/cuda/bin/nvcc"});
  if (!Nvcc) {
    R.available = false;
    R.errors = "nvcc not found";
    return R;
  }
  support::TempPath ObjFile = support::createTempFile("ave-sm", "cubin");
  if (ObjFile.empty()) {
    R.errors = "cannot create a temporary file";
    return R;
  }
  std::vector<std::string> Args =
      frontend::nvccCompileArgs(In.flags, In.args, std::string(Arch), In.hipOnCudaIncludeDir,
                                In.sourcePath, ObjFile.path(), In.originalDir);
  // ptxas's resource report, and the PTX kept for its mma.sync count.
  support::TempPath Kept = support::createTempTree("ave-sm-keep");
  if (!Kept.empty())
    Args.insert(Args.end(), {"-Xptxas", "-v", "--keep", "--keep-dir", Kept.path()});
  R.command = joinCommand(*Nvcc, Args);
  auto Start = std::chrono::steady_clock::now();
  ProcessOutput P = runCompiler(*Nvcc, Args);
  R.millis = millisSince(Start);
  R.ok = P.exitCode == 0;
  R.errors = P.error.empty() ? P.stderrText : P.error;
  if (R.ok && !Kept.empty())
    R.kernels = parsePtxasReport(P.stderrText, readFile(keptPtx(Kept.path())));
  return R;
}

} // namespace ave::agent
