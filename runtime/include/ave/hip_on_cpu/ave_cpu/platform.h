// The CPU executor's platform layer: the macros that identify it, the HIP
// function and variable qualifiers spelled for a host compiler, dim3, and the
// per-thread values a kernel reads (threadIdx, blockIdx, blockDim, gridDim,
// warpSize).
//
// Why thread_local: the GPU threads of a block run as fibers on one worker
// thread, and only one of them runs at a time; the executor sets these before
// the kernel body runs (executor.h), and a fiber that hands over puts its own
// back when it resumes (gpu_thread_switch.h).
//
// Why __shared__ is a static in one ELF section: a static local is one object
// shared by every thread that runs the function, which is what a block's
// threads need, and blocks run one after another, so one copy serves them
// all. The section (ave_shared) lets the executor find every such variable of
// every kernel, template instantiation and helper at once through the
// linker's __start_/__stop_ symbols and fill it with poison (0xFF bytes, a
// NaN in every float type) before each block. `used` keeps the optimiser from
// folding a never-written variable into its zero initialiser.
#pragma once

#if defined(__CUDACC__) || defined(__HIP__)
#error                                                                                             \
    "ave hip_on_cpu: compile with a host compiler as C++ (-x c++); this header set runs HIP kernels on the CPU"
#endif

#define __HIP_PLATFORM_AVE_CPU__ 1
#define __HIP_CPU_EXECUTOR__ 1

// The optional AMD device personality (-DAVE_CPU_ARCH_GFX942): the macros of
// an amdgcn device pass, for kernels written only for AMD (__builtin_amdgcn_*
// matrix cores). It fixes the wave size at 64.
#if defined(AVE_CPU_ARCH_GFX942)
#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__ 1
#endif
#ifndef __AMDGCN__
#define __AMDGCN__ 1
#endif
#ifndef __gfx942__
#define __gfx942__ 1
#endif
#ifndef __AMDGCN_WAVEFRONT_SIZE
#define __AMDGCN_WAVEFRONT_SIZE 64
#endif
#endif

#define __global__
#define __device__
#define __host__
#define __constant__
#define __managed__
#define __forceinline__ inline __attribute__((always_inline))
#define __launch_bounds__(...)
#define __align__(n) __attribute__((aligned(n)))
#define AVE_CPU_SHARED static __attribute__((section("ave_shared"), aligned(16), used))
#if defined(AVE_CPU_MARK_SHARED)
// ave-cpu-c++ preprocesses first and needs to see `extern __shared__` whole.
#define __shared__ __ave_cpu_shared__
#else
#define __shared__ AVE_CPU_SHARED
#endif

// Dynamically sized LDS, HIP's spelling of `extern __shared__ T name[]`: a
// pointer to the launch's dynamic block (poisoned, its size the launch's).
// The raw `extern __shared__` spelling goes through ave-cpu-c++ (README).
#define HIP_DYNAMIC_SHARED(type, name) type *const name = ::ave::cpu::dynamicShared<type>();
#define HIP_DYNAMIC_SHARED_ATTRIBUTE

// HIP kernels carry tool pragmas (`#pragma ave ...`) and `#pragma unroll`;
// a host compiler warns about pragmas it does not know.
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wunknown-pragmas"
#pragma clang diagnostic ignored "-Wduplicate-decl-specifier"
#elif defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#endif

struct uint3 {
  unsigned x, y, z;
};

struct dim3 {
  unsigned x = 1, y = 1, z = 1;
  constexpr dim3(unsigned X = 1, unsigned Y = 1, unsigned Z = 1) : x(X), y(Y), z(Z) {}
  constexpr dim3(uint3 V) : x(V.x), y(V.y), z(V.z) {}
  constexpr operator uint3() const { return {x, y, z}; }
};

// Per GPU thread; the executor writes them, the kernel reads them.
inline thread_local uint3 threadIdx{0, 0, 0};
inline thread_local uint3 blockIdx{0, 0, 0};
inline thread_local dim3 blockDim{1, 1, 1};
inline thread_local dim3 gridDim{1, 1, 1};
inline thread_local int warpSize = 64;

// Pre-HIP-3 spellings of the coordinates.
#define hipThreadIdx_x (threadIdx.x)
#define hipThreadIdx_y (threadIdx.y)
#define hipThreadIdx_z (threadIdx.z)
#define hipBlockIdx_x (blockIdx.x)
#define hipBlockIdx_y (blockIdx.y)
#define hipBlockIdx_z (blockIdx.z)
#define hipBlockDim_x (blockDim.x)
#define hipBlockDim_y (blockDim.y)
#define hipBlockDim_z (blockDim.z)
#define hipGridDim_x (gridDim.x)
#define hipGridDim_y (gridDim.y)
#define hipGridDim_z (gridDim.z)
