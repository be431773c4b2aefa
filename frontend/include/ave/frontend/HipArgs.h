// The one place that knows how a kernel file is compiled for the device.
// Every stage that runs a compiler on a kernel takes its flags from here:
// the in-process parse (every command), the gfx942 compile check
// (clang++-19 -S), the sm_90 compile check (nvcc through the HIP-on-CUDA
// header) and the harness bundles. The user's flags (a compile_commands.json
// entry, `--` flags, --extra-arg) are read once, with clang's own driver
// option table, into UserFlags; each stage renders them for its compiler.
// Two copies of this policy drifted apart once (the parse saw --extra-arg,
// the compile checks did not): keep it here.
//
// A ClangTool takes the first driver job of an offload compile, so `-x hip`
// alone would give the host AST: the parse is always `--cuda-device-only`.
#pragma once

#include "ave/frontend/Target.h"

#include <string>
#include <vector>

namespace ave::frontend {

struct HipArgsOptions {
  Target target = Target::Gfx942;
  std::string resourceDir;              // clang-19 -print-resource-dir
  std::vector<std::string> includeDirs; // always added (ave/annotations.h)
  std::vector<std::string> extraArgs;   // --extra-arg, after the file's own flags
};

// A file's own flags as clang's driver reads them. Kept: macro definitions,
// include paths, the language standard, forced includes and every other
// flag that changes what the source means. Left out: the compiler, inputs,
// outputs, dependency files, other offload targets, -x, -c/-S/-E,
// warnings-as-errors and flags clang does not know. Include paths and
// forced includes are absolute, so the flags work from any directory.
struct SourceFlag {
  enum class Kind {
    Define,
    Undefine,
    IncludeDir,
    SystemDir,
    QuoteDir,
    AfterDir,
    Include,
    Macros,
    Standard
  };
  Kind kind;
  std::string value; // NAME[=VALUE], an absolute directory or file, c++17
};

struct UserFlags {
  std::string directory;         // where the compile command ran (absolute)
  std::vector<std::string> args; // for clang, in command-line order
  // The flags of args that change what the source means and that every
  // compiler has (macros, include paths, forced includes, -std), in order.
  std::vector<SourceFlag> source;
};

// Reads CommandLine (argv[0] is the compiler; everything after `--` is an
// input), as a build system wrote it: two-token forms (`-I dir`, `-D X=1`,
// `-isystem dir`) and joined forms alike. Relative paths are taken from
// Directory (the current directory when empty).
UserFlags readUserFlags(const std::vector<std::string> &CommandLine, const std::string &Directory);

// The flags of a file that has no compile command: only --extra-arg.
UserFlags defaultUserFlags(const HipArgsOptions &Opts);

// clang++ argv for the in-process parse of File (device only, syntax only,
// compiler warnings off: the tool reports its own findings).
std::vector<std::string> parseCommandLine(const UserFlags &Flags, const HipArgsOptions &Opts,
                                          const std::string &File);

// clang++-19 arguments (without the program) that compile Source to AMDGPU
// assembly at Output for Arch. OriginalDir is where the file really lives
// (Source may be a patched copy elsewhere): its quoted includes resolve
// there, as they would beside the original.
std::vector<std::string> amdCompileArgs(const UserFlags &Flags, const HipArgsOptions &Opts,
                                        const std::string &Arch, const std::string &Source,
                                        const std::string &Output, const std::string &OriginalDir);

// nvcc arguments (without the program) that compile Source's device code for
// Arch through the HIP-on-CUDA header, to a cubin (ptxas runs; the host pass,
// which the patch does not change, is skipped: a third of the time). Of the
// user's flags, nvcc gets the ones that mean the same to it: -D, -U, -I (and
// -iquote), -isystem, -include, -std.
std::vector<std::string> nvccCompileArgs(const UserFlags &Flags, const HipArgsOptions &Opts,
                                         const std::string &Arch, const std::string &HipOnCudaDir,
                                         const std::string &Source, const std::string &Output,
                                         const std::string &OriginalDir);

// The flags that keep their meaning on another machine (-D, -U, -std), for a
// bundle that is built elsewhere with nvcc or hipcc. Include paths are not
// among them: they name this machine's directories.
std::vector<std::string> portableFlags(const UserFlags &Flags);

// The resource dir of the clang-19 installation the tool was built against.
std::string defaultResourceDir();
// The directory holding ave/annotations.h.
std::string annotationsIncludeDir();

} // namespace ave::frontend
