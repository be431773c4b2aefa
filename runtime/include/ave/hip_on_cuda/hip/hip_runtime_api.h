// HIP host runtime API on top of the CUDA runtime, for nvcc -x cu.
//
// Debian's ROCm 5.2 headers route HIP-on-NVIDIA through nvidia_detail/, which
// no longer compiles with CUDA 12/13. This header maps the small part of the
// HIP runtime that the testdata kernels and the benchmark driver use, one HIP
// name to one CUDA call, so error codes and semantics stay CUDA's. Anything
// not listed here is deliberately absent: a missing name is a compile error,
// never a silent fallback. See runtime/README.md for the full list.
#pragma once

#if !defined(__CUDACC__)
#error "ave hip_on_cuda: compile with nvcc -x cu (this header maps HIP onto the CUDA runtime)"
#endif

#include <cstddef>
#include <cstring>
#include <cuda_runtime.h>

#ifndef __HIP_PLATFORM_NVIDIA__
#define __HIP_PLATFORM_NVIDIA__ 1
#endif
// Spelling used by HIP releases before 4.x; some sources still test it.
#ifndef __HIP_PLATFORM_NVCC__
#define __HIP_PLATFORM_NVCC__ 1
#endif

// ---- errors ---------------------------------------------------------------
using hipError_t = cudaError_t;
inline constexpr hipError_t hipSuccess = cudaSuccess;
inline constexpr hipError_t hipErrorInvalidValue = cudaErrorInvalidValue;
inline constexpr hipError_t hipErrorOutOfMemory = cudaErrorMemoryAllocation;
inline constexpr hipError_t hipErrorInvalidDevice = cudaErrorInvalidDevice;
inline constexpr hipError_t hipErrorNotReady = cudaErrorNotReady;
inline constexpr hipError_t hipErrorLaunchFailure = cudaErrorLaunchFailure;
inline constexpr hipError_t hipErrorInvalidDeviceFunction = cudaErrorInvalidDeviceFunction;
inline constexpr hipError_t hipErrorNoDevice = cudaErrorNoDevice;

inline hipError_t hipGetLastError() { return cudaGetLastError(); }
inline hipError_t hipPeekAtLastError() { return cudaPeekAtLastError(); }
inline const char *hipGetErrorString(hipError_t error) { return cudaGetErrorString(error); }
inline const char *hipGetErrorName(hipError_t error) { return cudaGetErrorName(error); }

// ---- devices --------------------------------------------------------------
inline hipError_t hipGetDeviceCount(int *count) { return cudaGetDeviceCount(count); }
inline hipError_t hipGetDevice(int *device) { return cudaGetDevice(device); }
inline hipError_t hipSetDevice(int device) { return cudaSetDevice(device); }
inline hipError_t hipDeviceSynchronize() { return cudaDeviceSynchronize(); }
inline hipError_t hipDeviceReset() { return cudaDeviceReset(); }

// HIP's hipDeviceProp_t is its own struct, not cudaDeviceProp: CUDA 13 dropped
// clockRate/memoryClockRate from cudaDeviceProp, and HIP code reads
// gcnArchName. The fields below are the ones HIP and CUDA share plus those
// two; they are filled from cudaGetDeviceProperties and device attributes.
struct hipDeviceProp_t {
  char name[256];
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int clockRate;       // kHz
  int memoryClockRate; // kHz
  int memoryBusWidth;  // bits
  size_t totalConstMem;
  int major;
  int minor;
  int multiProcessorCount;
  int l2CacheSize;
  int maxThreadsPerMultiProcessor;
  size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor;
  size_t sharedMemPerBlockOptin;
  int pciBusID;
  int pciDeviceID;
  int pciDomainID;
  int concurrentKernels;
  int ECCEnabled;
  // On AMD e.g. "gfx942:sramecc+:xnack-"; here "sm_<major><minor>".
  char gcnArchName[256];
};

inline hipError_t hipGetDeviceProperties(hipDeviceProp_t *prop, int device) {
  if (prop == nullptr)
    return hipErrorInvalidValue;
  cudaDeviceProp cuda{};
  if (cudaError_t error = cudaGetDeviceProperties(&cuda, device); error != cudaSuccess)
    return error;
  std::memset(prop, 0, sizeof(*prop));
  std::memcpy(prop->name, cuda.name, sizeof(prop->name) - 1);
  prop->totalGlobalMem = cuda.totalGlobalMem;
  prop->sharedMemPerBlock = cuda.sharedMemPerBlock;
  prop->regsPerBlock = cuda.regsPerBlock;
  prop->warpSize = cuda.warpSize;
  prop->maxThreadsPerBlock = cuda.maxThreadsPerBlock;
  for (int d = 0; d < 3; ++d) {
    prop->maxThreadsDim[d] = cuda.maxThreadsDim[d];
    prop->maxGridSize[d] = cuda.maxGridSize[d];
  }
  if (cudaError_t error = cudaDeviceGetAttribute(&prop->clockRate, cudaDevAttrClockRate, device);
      error != cudaSuccess)
    return error;
  if (cudaError_t error =
          cudaDeviceGetAttribute(&prop->memoryClockRate, cudaDevAttrMemoryClockRate, device);
      error != cudaSuccess)
    return error;
  prop->memoryBusWidth = cuda.memoryBusWidth;
  prop->totalConstMem = cuda.totalConstMem;
  prop->major = cuda.major;
  prop->minor = cuda.minor;
  prop->multiProcessorCount = cuda.multiProcessorCount;
  prop->l2CacheSize = cuda.l2CacheSize;
  prop->maxThreadsPerMultiProcessor = cuda.maxThreadsPerMultiProcessor;
  prop->sharedMemPerMultiprocessor = cuda.sharedMemPerMultiprocessor;
  prop->regsPerMultiprocessor = cuda.regsPerMultiprocessor;
  prop->sharedMemPerBlockOptin = cuda.sharedMemPerBlockOptin;
  prop->pciBusID = cuda.pciBusID;
  prop->pciDeviceID = cuda.pciDeviceID;
  prop->pciDomainID = cuda.pciDomainID;
  prop->concurrentKernels = cuda.concurrentKernels;
  prop->ECCEnabled = cuda.ECCEnabled;
  // Two digits at most each; the buffer is far larger than "sm_NNN".
  char *arch = prop->gcnArchName;
  std::memcpy(arch, "sm_", 3);
  arch += 3;
  for (int part : {cuda.major, cuda.minor}) {
    if (part >= 10)
      *arch++ = static_cast<char>('0' + (part / 10) % 10);
    *arch++ = static_cast<char>('0' + part % 10);
  }
  *arch = '\0';
  return hipSuccess;
}

// ---- memory ---------------------------------------------------------------
using hipMemcpyKind = cudaMemcpyKind;
inline constexpr hipMemcpyKind hipMemcpyHostToHost = cudaMemcpyHostToHost;
inline constexpr hipMemcpyKind hipMemcpyHostToDevice = cudaMemcpyHostToDevice;
inline constexpr hipMemcpyKind hipMemcpyDeviceToHost = cudaMemcpyDeviceToHost;
inline constexpr hipMemcpyKind hipMemcpyDeviceToDevice = cudaMemcpyDeviceToDevice;
inline constexpr hipMemcpyKind hipMemcpyDefault = cudaMemcpyDefault;

// Templated like cudaMalloc so `hipMalloc(&float_ptr, bytes)` needs no cast.
template <typename T> inline hipError_t hipMalloc(T **pointer, size_t bytes) {
  return cudaMalloc(reinterpret_cast<void **>(pointer), bytes);
}
template <typename T> inline hipError_t hipHostMalloc(T **pointer, size_t bytes, unsigned = 0) {
  return cudaMallocHost(reinterpret_cast<void **>(pointer), bytes);
}
inline hipError_t hipFree(void *pointer) { return cudaFree(pointer); }
inline hipError_t hipHostFree(void *pointer) { return cudaFreeHost(pointer); }
inline hipError_t hipMemcpy(void *dst, const void *src, size_t bytes, hipMemcpyKind kind) {
  return cudaMemcpy(dst, src, bytes, kind);
}
inline hipError_t hipMemset(void *dst, int value, size_t bytes) {
  return cudaMemset(dst, value, bytes);
}

// ---- streams and events ---------------------------------------------------
using hipStream_t = cudaStream_t;
using hipEvent_t = cudaEvent_t;
inline constexpr unsigned hipEventDefault = cudaEventDefault;
inline constexpr unsigned hipEventBlockingSync = cudaEventBlockingSync;
inline constexpr unsigned hipEventDisableTiming = cudaEventDisableTiming;

inline hipError_t hipStreamCreate(hipStream_t *stream) { return cudaStreamCreate(stream); }
inline hipError_t hipStreamDestroy(hipStream_t stream) { return cudaStreamDestroy(stream); }
inline hipError_t hipStreamSynchronize(hipStream_t stream) { return cudaStreamSynchronize(stream); }
inline hipError_t hipMemcpyAsync(void *dst, const void *src, size_t bytes, hipMemcpyKind kind,
                                 hipStream_t stream = nullptr) {
  return cudaMemcpyAsync(dst, src, bytes, kind, stream);
}
inline hipError_t hipMemsetAsync(void *dst, int value, size_t bytes, hipStream_t stream = nullptr) {
  return cudaMemsetAsync(dst, value, bytes, stream);
}

inline hipError_t hipEventCreate(hipEvent_t *event) { return cudaEventCreate(event); }
inline hipError_t hipEventCreateWithFlags(hipEvent_t *event, unsigned flags) {
  return cudaEventCreateWithFlags(event, flags);
}
inline hipError_t hipEventDestroy(hipEvent_t event) { return cudaEventDestroy(event); }
inline hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream = nullptr) {
  return cudaEventRecord(event, stream);
}
inline hipError_t hipEventSynchronize(hipEvent_t event) { return cudaEventSynchronize(event); }
inline hipError_t hipEventQuery(hipEvent_t event) { return cudaEventQuery(event); }
inline hipError_t hipEventElapsedTime(float *milliseconds, hipEvent_t start, hipEvent_t stop) {
  return cudaEventElapsedTime(milliseconds, start, stop);
}

// ---- kernel attributes ------------------------------------------------------
// Dynamic LDS beyond 48 KiB must be allowed per kernel before the launch.
using hipFuncAttribute = cudaFuncAttribute;
inline constexpr hipFuncAttribute hipFuncAttributeMaxDynamicSharedMemorySize =
    cudaFuncAttributeMaxDynamicSharedMemorySize;
inline constexpr hipFuncAttribute hipFuncAttributePreferredSharedMemoryCarveout =
    cudaFuncAttributePreferredSharedMemoryCarveout;
inline hipError_t hipFuncSetAttribute(const void *function, hipFuncAttribute attribute, int value) {
  return cudaFuncSetAttribute(function, attribute, value);
}
