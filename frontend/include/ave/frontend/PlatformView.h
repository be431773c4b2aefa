// A kernel file as nvcc's preprocessor selects it. The analysis parses
// device code for amdgcn (the HIP headers need it), where
// __HIP_PLATFORM_AMD__ and __AMDGCN__ are defined; a file written for both
// platforms (`#if defined(__HIP_PLATFORM_NVIDIA__)`: cp.async on sm_90, the
// register round trip elsewhere) would then always be analysed in its AMD
// branch, whatever --target says. For --target sm_90 the file's own
// conditional directives decide the platform macros as nvcc does, and the
// rest of the text, its line structure included, is unchanged.
#pragma once

#include "ave/frontend/Target.h"

#include <string>
#include <string_view>

namespace ave::frontend {

// Text with the platform macros in its #if, #elif, #ifdef and #ifndef lines
// decided for Target: for sm_90 __HIP_PLATFORM_NVIDIA__, __HIP_PLATFORM_NVCC__,
// __CUDACC__, __NVCC__ and __CUDA_ARCH__ (900) are defined, and
// __HIP_PLATFORM_AMD__, __HIP_PLATFORM_HCC__, __AMDGCN__ and __HIP_PLATFORM_AVE_CPU__
// are not. For an AMD target, Text as it is (clang defines those itself).
std::string platformView(std::string_view Text, Target T);

} // namespace ave::frontend
