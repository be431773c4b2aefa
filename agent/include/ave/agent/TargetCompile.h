// The compile stage: the patched file must build for every enabled target.
// gfx942 goes through clang-19 (`-S`, device only) and its AMDGPU metadata
// gives each kernel's resource use; sm_90 goes through nvcc with the
// project's HIP-on-CUDA header when nvcc is installed, with ptxas's
// resource report (`-Xptxas -v`) and the kept PTX read for each kernel's
// registers, spills and mma.sync count. Both take the file's flags from the
// front end's one source of device flags (HipArgs.h).
#pragma once

#include "ave/agent/IsaProfile.h"
#include "ave/frontend/HipArgs.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ave::agent {

struct KernelResources {
  std::string symbol; // mangled name
  int vgprs = -1, sgprs = -1, agprs = -1;
  int ldsBytes = -1;     // .group_segment_fixed_size
  int privateBytes = -1; // scratch per lane
  int vgprSpills = -1, sgprSpills = -1;
  unsigned mfma = 0;      // v_mfma instructions in the kernel body
  IsaLoopProfile hotLoop; // AMD: the hot loop's instruction mix (IsaProfile.h)
  // NVIDIA (ptxas -v): registers a thread, spill bytes, static shared
  // memory, and mma.sync instructions in the kernel's PTX. -1: not read.
  int registers = -1, spillStoreBytes = -1, spillLoadBytes = -1, sharedBytes = -1;
  unsigned mmaSync = 0;
  unsigned ldmatrix = 0; // ldmatrix.sync in the PTX
};

struct CompileResult {
  std::string target;    // "gfx942", "sm_90"
  bool available = true; // false: the compiler is not installed (skipped)
  bool ok = false;
  std::string command;
  std::string errors; // the compiler's stderr when it failed
  double millis = 0;
  std::vector<KernelResources> kernels;
};

struct CompileInputs {
  std::string sourcePath;          // the file to compile (the patched text on disk)
  std::string originalDir;         // the folder of the file it is a copy of
  frontend::UserFlags flags;       // the file's own flags and --extra-arg
  frontend::HipArgsOptions args;   // the tool's include dirs (ave/annotations.h)
  std::string hipOnCudaIncludeDir; // runtime/include/ave/hip_on_cuda
};

CompileResult compileForAmd(const CompileInputs &In, std::string_view Arch = "gfx942");
// The compile the static cost model reads: as compileForAmd, but linked
// with the ROCm device libraries when they are installed, so that thread
// ids and fences are instructions rather than calls (with -nogpulib each is
// a call, and a loop's code is mostly call set-up). Debian's
// rocm-device-libs has no gfx942 ISA-version library; gfx940 is the same
// CDNA3 instruction set and stands in for it then.
CompileResult compileForCostModel(const CompileInputs &In);

CompileResult compileForNvidia(const CompileInputs &In, std::string_view Arch = "sm_90");

// Kernel resource use read from a gfx9 `-S` output (metadata + v_mfma count).
std::vector<KernelResources> parseAmdAssembly(std::string_view Asm);

// Kernel resource use read from ptxas's `-v` report (nvcc's stderr) and the
// PTX nvcc kept (mma.sync count of each `.entry`).
std::vector<KernelResources> parsePtxasReport(std::string_view Report, std::string_view Ptx);

// runtime/include/ave/hip_on_cuda of this source tree ($AVE_HIP_ON_CUDA_DIR overrides).
std::string defaultHipOnCudaIncludeDir();

// An executable on PATH, or at one of `Fallbacks`.
std::optional<std::string> findProgram(const std::string &Name,
                                       const std::vector<std::string> &Fallbacks = {});

} // namespace ave::agent
