#include "ave/agent/TargetCompile.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <chrono>
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

ProcessOutput runProcess(const std::string &Program, const std::vector<std::string> &Args) {
  ProcessOutput Out;
  llvm::SmallString<128> ErrFile;
  if (llvm::sys::fs::createTemporaryFile("ave-compile", "err", ErrFile)) {
    Out.error = "cannot create a temporary file";
    return Out;
  }
  std::vector<llvm::StringRef> Argv;
  Argv.push_back(Program);
  for (const std::string &A : Args)
    Argv.push_back(A);
  std::optional<llvm::StringRef> Redirects[] = {llvm::StringRef(""), llvm::StringRef(""),
                                                llvm::StringRef(ErrFile)};
  std::string Message;
  Out.exitCode = llvm::sys::ExecuteAndWait(Program, Argv, std::nullopt, Redirects, 0, 0, &Message);
  Out.stderrText = readFile(std::string(ErrFile));
  llvm::sys::fs::remove(ErrFile);
  if (Out.exitCode < 0)
    Out.error = Message.empty() ? "could not run " + Program : Message;
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
  // v_mfma instructions between each kernel's label and its .Lfunc_end.
  for (KernelResources &K : Kernels) {
    if (K.symbol.empty())
      continue;
    const std::string Label = K.symbol + ":";
    size_t Begin = Asm.starts_with(Label) ? 0 : Asm.find("\n" + Label);
    if (Begin == std::string_view::npos)
      continue;
    size_t End = Asm.find(".Lfunc_end", Begin);
    std::string_view Body =
        Asm.substr(Begin, End == std::string_view::npos ? Asm.npos : End - Begin);
    for (size_t P = Body.find("v_mfma"); P != std::string_view::npos;
         P = Body.find("v_mfma", P + 1))
      ++K.mfma;
  }
  return Kernels;
}

CompileResult compileForAmd(const CompileInputs &In, std::string_view Arch) {
  CompileResult R;
  R.target = std::string(Arch);
  std::optional<std::string> Clang = findProgram("clang++-19", {"/usr/lib/llvm-19/bin/clang++"});
  if (!Clang) {
    R.available = false;
    R.errors = "clang++-19 not found";
    return R;
  }
  llvm::SmallString<128> AsmFile;
  if (llvm::sys::fs::createTemporaryFile("ave-gfx", "s", AsmFile)) {
    R.errors = "cannot create a temporary file";
    return R;
  }
  std::vector<std::string> Args = frontend::amdCompileArgs(
      In.flags, In.args, std::string(Arch), In.sourcePath, std::string(AsmFile), In.originalDir);
  R.command = joinCommand(*Clang, Args);
  auto Start = std::chrono::steady_clock::now();
  ProcessOutput P = runProcess(*Clang, Args);
  R.millis = millisSince(Start);
  R.ok = P.exitCode == 0;
  R.errors = P.error.empty() ? P.stderrText : P.error;
  if (R.ok)
    R.kernels = parseAmdAssembly(readFile(std::string(AsmFile)));
  llvm::sys::fs::remove(AsmFile);
  return R;
}

CompileResult compileForNvidia(const CompileInputs &In, std::string_view Arch) {
  CompileResult R;
  R.target = std::string(Arch);
  std::optional<std::string> Nvcc = findProgram("nvcc", {"/usr/local/cuda/bin/nvcc"});
  if (!Nvcc) {
    R.available = false;
    R.errors = "nvcc not found";
    return R;
  }
  llvm::SmallString<128> ObjFile;
  if (llvm::sys::fs::createTemporaryFile("ave-sm", "o", ObjFile)) {
    R.errors = "cannot create a temporary file";
    return R;
  }
  std::vector<std::string> Args =
      frontend::nvccCompileArgs(In.flags, In.args, std::string(Arch), In.hipOnCudaIncludeDir,
                                In.sourcePath, std::string(ObjFile), In.originalDir);
  R.command = joinCommand(*Nvcc, Args);
  auto Start = std::chrono::steady_clock::now();
  ProcessOutput P = runProcess(*Nvcc, Args);
  R.millis = millisSince(Start);
  R.ok = P.exitCode == 0;
  R.errors = P.error.empty() ? P.stderrText : P.error;
  llvm::sys::fs::remove(ObjFile);
  return R;
}

} // namespace ave::agent
