// <hip/hip_runtime.h> for the CPU executor: plain HIP kernel files compile
// with a host compiler and run on the CPU.
//
//   clang++-19 -std=c++20 -O1 -pthread -x c++ -I runtime/include/ave/hip_on_cpu
//     -I annotations/include kernel_and_driver.hip
//
// Each block's threads run as fibers on one worker thread (ave_cpu/fibers.h);
// blocks run one after another. What is modelled and what is not: runtime/README.md, "CPU
// executor". Launch with hipLaunchKernelGGL (a `<<<...>>>` launch needs a GPU
// compiler). Define AVE_CPU_DECLARATIONS_ONLY in all translation units but
// one of a program to compile them faster (ave_cpu/runtime_api.h).
#pragma once

#include "../ave_cpu/amdgcn_mfma.h"
#include "../ave_cpu/atomics.h"
#include "../ave_cpu/device_math.h"
#include "../ave_cpu/launch.h"
#include "../ave_cpu/matrix_core.h"
#include "../ave_cpu/platform.h"
#include "../ave_cpu/runtime_api.h"
#include "../ave_cpu/sync.h"
#include "../ave_cpu/vector_types.h"
#include "../ave_cpu/warp.h"
#include "hip_bf16.h"
#include "hip_fp16.h"
#include "hip_runtime_api.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <math.h>

// hipLaunchKernelGGL(kernel, grid, block, dynamicSharedBytes, stream, args...)
// runs the kernel to completion; a template kernel with commas in its name
// needs HIP_KERNEL_NAME(...) or parentheses, exactly as with HIP on AMD.
#define hipLaunchKernelGGL(kernel, grid, block, sharedBytes, stream, ...)                          \
  ::ave::cpu::launchKernel(#kernel, kernel, dim3(grid), dim3(block), (sharedBytes),                \
                           (stream)__VA_OPT__(, ) __VA_ARGS__)
#define HIP_KERNEL_NAME(...) __VA_ARGS__

// __noinline__ is not defined: glibc and libstdc++ spell
// __attribute__((__noinline__)) in headers a program may include after this
// one, and a macro would break them. Write __attribute__((noinline)).
