#include "ave/frontend/HipArgs.h"

#include "clang/Driver/Options.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Option/Arg.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstdlib>
#include <optional>

#ifndef AVE_RESOURCE_DIR
#error "AVE_RESOURCE_DIR must be defined by the build"
#endif
#ifndef AVE_ANNOTATIONS_INCLUDE_DIR
#error "AVE_ANNOTATIONS_INCLUDE_DIR must be defined by the build"
#endif

namespace ave::frontend {

namespace opts = clang::driver::options;

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

std::string currentDirectory() {
  llvm::SmallString<256> Cwd;
  if (llvm::sys::fs::current_path(Cwd))
    return ".";
  return std::string(Cwd);
}

std::string absoluteIn(const std::string &Directory, llvm::StringRef Path) {
  if (llvm::sys::path::is_absolute(Path))
    return Path.str();
  llvm::SmallString<256> Out(Directory);
  llvm::sys::path::append(Out, Path);
  llvm::sys::path::remove_dots(Out, /*remove_dot_dot=*/true);
  return std::string(Out);
}

// Flags that name an output, an input, another offload target or a way of
// compiling that the stages choose for themselves.
bool leftOut(const llvm::opt::Arg &A) {
  const llvm::opt::Option &O = A.getOption();
  if (O.matches(opts::OPT_W_Joined))
    return llvm::StringRef(A.getValue()).starts_with("error");
  static constexpr unsigned Ids[] = {
      opts::OPT_INPUT, opts::OPT_UNKNOWN, opts::OPT__DASH_DASH, opts::OPT_o, opts::OPT_c,
      opts::OPT_S, opts::OPT_E, opts::OPT_fsyntax_only, opts::OPT_x, opts::OPT_M_Group,
      opts::OPT_offload_arch_EQ, opts::OPT_no_offload_arch_EQ, opts::OPT_cuda_device_only,
      opts::OPT_cuda_host_only, opts::OPT_offload_device_only, opts::OPT_offload_host_only,
      opts::OPT_nogpulib, opts::OPT_w, opts::OPT_resource_dir, opts::OPT_resource_dir_EQ,
      opts::OPT_fgpu_rdc, opts::OPT_fno_gpu_rdc, opts::OPT_Xarch_host, opts::OPT_save_temps,
      opts::OPT_save_temps_EQ, opts::OPT_fcolor_diagnostics,
      // A host build's precompiled header is for
      // another target (CMake's -Xclang forms:
      // hostPrecompiledHeader).
      opts::OPT_include_pch, opts::OPT_fpch_instantiate_templates};
  for (unsigned Id : Ids)
    if (O.matches(Id))
      return true;
  return false;
}

// The flags whose meaning every stage needs, with absolute paths; nothing
// when A is not one of them.
std::optional<SourceFlag> sourceFlag(const llvm::opt::Arg &A, const std::string &Directory) {
  using Kind = SourceFlag::Kind;
  const llvm::opt::Option &O = A.getOption();
  if (!A.getNumValues())
    return std::nullopt;
  llvm::StringRef V = A.getValue();
  static constexpr std::pair<unsigned, Kind> Plain[] = {{opts::OPT_D, Kind::Define},
                                                        {opts::OPT_U, Kind::Undefine},
                                                        {opts::OPT_std_EQ, Kind::Standard}};
  for (auto [Id, K] : Plain)
    if (O.matches(Id))
      return SourceFlag{K, V.str()};
  static constexpr std::pair<unsigned, Kind> Dirs[] = {{opts::OPT_I, Kind::IncludeDir},
                                                       {opts::OPT_isystem, Kind::SystemDir},
                                                       {opts::OPT_iquote, Kind::QuoteDir},
                                                       {opts::OPT_idirafter, Kind::AfterDir}};
  for (auto [Id, K] : Dirs)
    if (O.matches(Id))
      return SourceFlag{K, absoluteIn(Directory, V)};
  // A forced include is looked up like #include "..." from the working
  // directory first, then the include path: only the first is made absolute.
  static constexpr std::pair<unsigned, Kind> Files[] = {{opts::OPT_include, Kind::Include},
                                                        {opts::OPT_imacros, Kind::Macros}};
  for (auto [Id, K] : Files)
    if (O.matches(Id)) {
      std::string Here = absoluteIn(Directory, V);
      return SourceFlag{K, llvm::sys::fs::exists(Here) ? Here : V.str()};
    }
  return std::nullopt;
}

// clang's spelling of a source flag.
void renderForClang(const SourceFlag &F, std::vector<std::string> &Out) {
  using Kind = SourceFlag::Kind;
  switch (F.kind) {
  case Kind::Define:
    Out.push_back("-D" + F.value);
    return;
  case Kind::Undefine:
    Out.push_back("-U" + F.value);
    return;
  case Kind::Standard:
    Out.push_back("-std=" + F.value);
    return;
  case Kind::IncludeDir:
    Out.push_back("-I" + F.value);
    return;
  case Kind::SystemDir:
    Out.insert(Out.end(), {"-isystem", F.value});
    return;
  case Kind::QuoteDir:
    Out.insert(Out.end(), {"-iquote", F.value});
    return;
  case Kind::AfterDir:
    Out.insert(Out.end(), {"-idirafter", F.value});
    return;
  case Kind::Include:
    Out.insert(Out.end(), {"-include", F.value});
    return;
  case Kind::Macros:
    Out.insert(Out.end(), {"-imacros", F.value});
    return;
  }
}

void appendDeviceFlags(std::vector<std::string> &Out, llvm::StringRef Arch) {
  Out.insert(Out.end(),
             {"-x", "hip", "--cuda-device-only", "--offload-arch=" + Arch.str(), "-nogpulib"});
}

void appendIncludeDirs(std::vector<std::string> &Out, const HipArgsOptions &Opts) {
  for (const std::string &Dir : Opts.includeDirs)
    Out.push_back("-I" + Dir);
}

// nvcc spells the language standards it knows as c++NN only.
std::string nvccStandard(llvm::StringRef Std) {
  Std.consume_front("gnu");
  Std.consume_front("c");
  if (!Std.consume_front("++"))
    return "";
  static constexpr std::pair<const char *, const char *> Names[] = {
      {"11", "c++11"}, {"0x", "c++11"}, {"14", "c++14"}, {"1y", "c++14"},
      {"17", "c++17"}, {"1z", "c++17"}, {"20", "c++20"}, {"2a", "c++20"}};
  for (auto [Suffix, Name] : Names)
    if (Std == Suffix)
      return Name;
  return "";
}

} // namespace

UserFlags readUserFlags(const std::vector<std::string> &CommandLine, const std::string &Directory) {
  UserFlags Flags;
  Flags.directory =
      Directory.empty() ? currentDirectory() : absoluteIn(currentDirectory(), Directory);
  std::vector<const char *> Argv;
  for (size_t I = 1; I < CommandLine.size(); ++I)
    Argv.push_back(CommandLine[I].c_str());
  unsigned MissingIndex = 0, MissingCount = 0;
  llvm::opt::InputArgList Args = clang::driver::getDriverOptTable().ParseArgs(
      Argv, MissingIndex, MissingCount, llvm::opt::Visibility(opts::ClangOption));
  bool SkipXclangValue = false;
  for (const llvm::opt::Arg *A : Args) {
    if (leftOut(*A))
      continue;
    // CMake's `-Xclang -include-pch -Xclang <pch> -Xclang -include -Xclang
    // <hxx>`: a host build's precompiled header, for another target.
    if (A->getOption().matches(opts::OPT_Xclang)) {
      llvm::StringRef V = A->getValue();
      bool Skip = SkipXclangValue || V == "-include-pch" || V == "-include";
      SkipXclangValue = !SkipXclangValue && Skip;
      if (Skip)
        continue;
    }
    if (std::optional<SourceFlag> F = sourceFlag(*A, Flags.directory)) {
      renderForClang(*F, Flags.args);
      Flags.source.push_back(std::move(*F));
      continue;
    }
    llvm::opt::ArgStringList Rendered;
    A->render(Args, Rendered);
    for (const char *R : Rendered)
      Flags.args.push_back(R);
  }
  return Flags;
}

UserFlags defaultUserFlags(const HipArgsOptions &Opts) {
  std::vector<std::string> CommandLine{"clang++"};
  CommandLine.insert(CommandLine.end(), Opts.extraArgs.begin(), Opts.extraArgs.end());
  return readUserFlags(CommandLine, "");
}

std::vector<std::string> parseCommandLine(const UserFlags &Flags, const HipArgsOptions &Opts,
                                          const std::string &File) {
  std::vector<std::string> Out{"clang++"};
  Out.insert(Out.end(), Flags.args.begin(), Flags.args.end());
  appendDeviceFlags(Out, targetInfo(Opts.target).offloadArch);
  Out.push_back("-fsyntax-only");
  // Code may tell the analysis from a compiler, as it tells the Clang static
  // analyzer by __clang_analyzer__ (the pipeline's cp.async helpers give it
  // declarations: it models the calls, and their inline PTX is nvcc's).
  Out.push_back("-D__AVE_ANALYSIS__=1");
  // Compiler warnings belong to the compiler; the tool reports its own.
  Out.push_back("-w");
  if (!Opts.resourceDir.empty())
    Out.push_back("-resource-dir=" + Opts.resourceDir);
  appendIncludeDirs(Out, Opts);
  Out.push_back(File);
  return Out;
}

std::vector<std::string> amdCompileArgs(const UserFlags &Flags, const HipArgsOptions &Opts,
                                        const std::string &Arch, const std::string &Source,
                                        const std::string &Output, const std::string &OriginalDir) {
  std::vector<std::string> Out{"-O3"};
  Out.insert(Out.end(), Flags.args.begin(), Flags.args.end());
  appendDeviceFlags(Out, Arch);
  Out.push_back("-S");
  if (!OriginalDir.empty())
    Out.insert(Out.end(), {"-iquote", OriginalDir});
  appendIncludeDirs(Out, Opts);
  Out.insert(Out.end(), {Source, "-o", Output});
  return Out;
}

std::vector<std::string> nvccCompileArgs(const UserFlags &Flags, const HipArgsOptions &Opts,
                                         const std::string &Arch, const std::string &HipOnCudaDir,
                                         const std::string &Source, const std::string &Output,
                                         const std::string &OriginalDir) {
  std::vector<std::string> Out{"-x", "cu", "-arch=" + Arch, "-cubin"};
  if (!HipOnCudaDir.empty())
    Out.push_back("-I" + HipOnCudaDir);
  // nvcc has no -iquote: the original's folder comes first on the -I path.
  if (!OriginalDir.empty())
    Out.push_back("-I" + OriginalDir);
  using Kind = SourceFlag::Kind;
  for (const SourceFlag &F : Flags.source) {
    switch (F.kind) {
    case Kind::Define:
    case Kind::Undefine:
    case Kind::IncludeDir:
    case Kind::SystemDir:
    case Kind::Include:
      renderForClang(F, Out);
      break;
    case Kind::QuoteDir:
      Out.push_back("-I" + F.value);
      break;
    case Kind::Standard:
      if (std::string Std = nvccStandard(F.value); !Std.empty())
        Out.push_back("-std=" + Std);
      break;
    case Kind::AfterDir:
    case Kind::Macros:
      break; // nvcc has no such flag
    }
  }
  appendIncludeDirs(Out, Opts);
  Out.insert(Out.end(), {Source, "-o", Output});
  return Out;
}

std::vector<std::string> portableFlags(const UserFlags &Flags) {
  using Kind = SourceFlag::Kind;
  std::vector<std::string> Out;
  for (const SourceFlag &F : Flags.source)
    if (F.kind == Kind::Define || F.kind == Kind::Undefine || F.kind == Kind::Standard)
      renderForClang(F, Out);
  return Out;
}

} // namespace ave::frontend
