#include "ave/frontend/HipArgs.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"

#include <cstdlib>

#ifndef AVE_RESOURCE_DIR
#error "AVE_RESOURCE_DIR must be defined by the build"
#endif
#ifndef AVE_ANNOTATIONS_INCLUDE_DIR
#error "AVE_ANNOTATIONS_INCLUDE_DIR must be defined by the build"
#endif

namespace ave::frontend {

std::string defaultResourceDir() {
  if (const char *Env = std::getenv("AVE_RESOURCE_DIR"))
    return Env;
  return AVE_RESOURCE_DIR;
}

std::string annotationsIncludeDir() {
  if (const char *Env = std::getenv("AVE_INCLUDE_DIR"))
    return Env;
  return AVE_ANNOTATIONS_INCLUDE_DIR;
}

namespace {

void appendDeviceFlags(std::vector<std::string> &Out, const HipArgsOptions &Opts) {
  Out.push_back("--cuda-device-only");
  Out.push_back(std::string("--offload-arch=") + std::string(targetInfo(Opts.target).offloadArch));
  Out.push_back("-nogpulib");
  Out.push_back("-fsyntax-only");
  // Compiler warnings belong to the compiler; the tool reports its own.
  Out.push_back("-w");
  if (!Opts.resourceDir.empty())
    Out.push_back("-resource-dir=" + Opts.resourceDir);
  for (const std::string &Dir : Opts.includeDirs)
    Out.push_back("-I" + Dir);
  for (const std::string &Extra : Opts.extraArgs)
    Out.push_back(Extra);
}

// Flags that name an output or another offload target: they would either
// write files or pick a different device job.
bool dropsWithValue(llvm::StringRef Arg) {
  return Arg == "-o" || Arg == "-MF" || Arg == "-MT" || Arg == "-MQ" || Arg == "-x" ||
         Arg == "--offload-arch" || Arg == "--cuda-gpu-arch" || Arg == "-Xarch_host";
}

bool dropsAlone(llvm::StringRef Arg) {
  return Arg == "-c" || Arg == "-S" || Arg == "-E" || Arg == "-M" || Arg == "-MD" ||
         Arg == "-MMD" || Arg == "-fsyntax-only" || Arg == "--cuda-device-only" ||
         Arg == "--cuda-host-only" || Arg == "-nogpulib" || Arg == "-w" || Arg.starts_with("-o") ||
         Arg.starts_with("--offload-arch=") || Arg.starts_with("--cuda-gpu-arch=") ||
         Arg.starts_with("-resource-dir") || Arg.starts_with("-Werror") ||
         Arg.starts_with("-fgpu-rdc") || Arg.starts_with("-x");
}

} // namespace

std::vector<std::string> defaultHipArgs(const HipArgsOptions &Opts) {
  return adjustCompileCommand({"clang++"}, Opts);
}

std::vector<std::string> adjustCompileCommand(const std::vector<std::string> &Args,
                                              const HipArgsOptions &Opts) {
  std::vector<std::string> Out;
  if (Args.empty())
    return Out;
  Out.push_back(Args.front());
  std::vector<std::string> Inputs;
  for (size_t I = 1; I < Args.size(); ++I) {
    llvm::StringRef Arg = Args[I];
    if (dropsWithValue(Arg)) {
      ++I;
      continue;
    }
    if (dropsAlone(Arg))
      continue;
    if (!Arg.starts_with("-")) {
      Inputs.push_back(Args[I]);
      continue;
    }
    Out.push_back(Args[I]);
  }
  Out.push_back("-x");
  Out.push_back("hip");
  appendDeviceFlags(Out, Opts);
  for (const std::string &Input : Inputs)
    Out.push_back(Input);
  return Out;
}

} // namespace ave::frontend
