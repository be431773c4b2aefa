// How a kernel file becomes a device-side Clang invocation. A ClangTool takes
// the first driver job of an offload compile, so `-x hip` alone would give
// the host AST: every command is forced to `--cuda-device-only`.
#pragma once

#include "ave/frontend/Target.h"

#include <string>
#include <vector>

namespace ave::frontend {

struct HipArgsOptions {
  Target target = Target::Gfx942;
  std::string resourceDir;  // clang-19 -print-resource-dir
  std::vector<std::string> includeDirs; // always added (ave/annotations.h)
  std::vector<std::string> extraArgs;   // --extra-arg, appended last
};

// Arguments for a file that has no compile command (no -p given).
std::vector<std::string> defaultHipArgs(const HipArgsOptions &Opts);

// Rewrites a compile command (from compile_commands.json, as hipcc or clang
// wrote it) into a device-only syntax check for the chosen target: drops
// outputs, dependency files and other offload arches, adds -x hip when the
// file is not already HIP, and the flags defaultHipArgs adds.
std::vector<std::string> adjustCompileCommand(const std::vector<std::string> &Args,
                                              const HipArgsOptions &Opts);

// The resource dir of the clang-19 installation the tool was built against.
std::string defaultResourceDir();
// The directory holding ave/annotations.h.
std::string annotationsIncludeDir();

} // namespace ave::frontend
