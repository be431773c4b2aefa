// HIP's host runtime API for the CPU executor: errors, the one device and
// its properties, memory (guarded host mappings, ave_cpu/memory.h), streams
// and events. Kernels run synchronously at launch, so streams order nothing
// and events time host wall-clock: timings from here are no GPU timings.
// The names mirror hip_on_cuda's hip_runtime_api.h, so a harness driver
// builds against either; names not listed are absent on purpose.
#pragma once

#include "../ave_cpu/errors.h"
#include "../ave_cpu/platform.h"
#include "../ave_cpu/runtime_api.h"

#include <cstddef>
#include <cstring>

// ---- errors ---------------------------------------------------------------
inline hipError_t hipGetLastError() { return ave::cpu::takeLastError(); }
inline hipError_t hipPeekAtLastError() { return ave::cpu::peekLastError(); }
inline const char *hipGetErrorName(hipError_t Error) { return ave::cpu::errorName(Error); }
inline const char *hipGetErrorString(hipError_t Error) { return ave::cpu::errorString(Error); }

// ---- the device -------------------------------------------------------------
inline hipError_t hipGetDeviceCount(int *Count) {
  if (!Count)
    return ave::cpu::recordError(hipErrorInvalidValue);
  *Count = 1;
  return hipSuccess;
}
inline hipError_t hipGetDevice(int *Device) {
  if (!Device)
    return ave::cpu::recordError(hipErrorInvalidValue);
  *Device = 0;
  return hipSuccess;
}
inline hipError_t hipSetDevice(int Device) {
  return Device == 0 ? hipSuccess : ave::cpu::recordError(hipErrorInvalidDevice);
}
inline hipError_t hipDeviceSynchronize() { return ave::cpu::takePendingError(); }
inline hipError_t hipDeviceReset() { return hipSuccess; }

struct hipDeviceProp_t {
  char name[256];
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int clockRate;       // kHz; 0: no GPU clock
  int memoryClockRate; // kHz; 0
  int memoryBusWidth;
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
  char gcnArchName[256]; // "ave-cpu"
};

inline hipError_t hipGetDeviceProperties(hipDeviceProp_t *Prop, int Device) {
  if (!Prop)
    return ave::cpu::recordError(hipErrorInvalidValue);
  if (Device != 0)
    return ave::cpu::recordError(hipErrorInvalidDevice);
  return ave::cpu::deviceProperties(Prop);
}

// ---- memory -----------------------------------------------------------------
enum hipMemcpyKind {
  hipMemcpyHostToHost = 0,
  hipMemcpyHostToDevice = 1,
  hipMemcpyDeviceToHost = 2,
  hipMemcpyDeviceToDevice = 3,
  hipMemcpyDefault = 4,
};

template <typename T> inline hipError_t hipMalloc(T **Pointer, size_t Bytes) {
  return ave::cpu::allocate(reinterpret_cast<void **>(Pointer), Bytes, false);
}
template <typename T> inline hipError_t hipMallocManaged(T **Pointer, size_t Bytes, unsigned = 1) {
  return hipMalloc(Pointer, Bytes);
}
template <typename T> inline hipError_t hipHostMalloc(T **Pointer, size_t Bytes, unsigned = 0) {
  return ave::cpu::allocate(reinterpret_cast<void **>(Pointer), Bytes, true);
}
inline hipError_t hipFree(void *Pointer) { return ave::cpu::release(Pointer, false); }
inline hipError_t hipHostFree(void *Pointer) { return ave::cpu::release(Pointer, true); }

// A device-side range must lie inside one live hipMalloc buffer.
inline hipError_t hipMemcpy(void *Dst, const void *Src, size_t Bytes, hipMemcpyKind Kind) {
  bool Ok = (Bytes == 0 || (Dst && Src)) && Kind >= hipMemcpyHostToHost && Kind <= hipMemcpyDefault;
  if (Ok && (Kind == hipMemcpyHostToDevice || Kind == hipMemcpyDeviceToDevice))
    Ok = ave::cpu::isDeviceRange(Dst, Bytes);
  if (Ok && (Kind == hipMemcpyDeviceToHost || Kind == hipMemcpyDeviceToDevice))
    Ok = ave::cpu::isDeviceRange(Src, Bytes);
  if (!Ok)
    return ave::cpu::recordError(hipErrorInvalidValue);
  if (Bytes)
    std::memmove(Dst, Src, Bytes);
  return hipSuccess;
}
inline hipError_t hipMemset(void *Dst, int Value, size_t Bytes) {
  if (!ave::cpu::isDeviceRange(Dst, Bytes))
    return ave::cpu::recordError(hipErrorInvalidValue);
  if (Bytes)
    std::memset(Dst, Value, Bytes);
  return hipSuccess;
}
template <class T>
inline hipError_t hipMemcpyToSymbol(T &Symbol, const void *Src, size_t Bytes, size_t Offset = 0,
                                    hipMemcpyKind = hipMemcpyHostToDevice) {
  if (Offset + Bytes > sizeof(T) || (Bytes && !Src))
    return ave::cpu::recordError(hipErrorInvalidValue);
  std::memcpy(reinterpret_cast<unsigned char *>(&Symbol) + Offset, Src, Bytes);
  return hipSuccess;
}
template <class T>
inline hipError_t hipMemcpyFromSymbol(void *Dst, const T &Symbol, size_t Bytes, size_t Offset = 0,
                                      hipMemcpyKind = hipMemcpyDeviceToHost) {
  if (Offset + Bytes > sizeof(T) || (Bytes && !Dst))
    return ave::cpu::recordError(hipErrorInvalidValue);
  std::memcpy(Dst, reinterpret_cast<const unsigned char *>(&Symbol) + Offset, Bytes);
  return hipSuccess;
}
#define HIP_SYMBOL(symbol) symbol

// ---- streams and events -----------------------------------------------------
struct ihipStream_t {};
struct ihipEvent_t {
  double Seconds = 0;
  bool Recorded = false;
};
using hipStream_t = ihipStream_t *;
using hipEvent_t = ihipEvent_t *;
inline constexpr unsigned hipEventDefault = 0;
inline constexpr unsigned hipEventBlockingSync = 1;
inline constexpr unsigned hipEventDisableTiming = 2;
inline constexpr unsigned hipStreamDefault = 0;
inline constexpr unsigned hipStreamNonBlocking = 1;

inline hipError_t hipStreamCreate(hipStream_t *Stream) {
  if (!Stream)
    return ave::cpu::recordError(hipErrorInvalidValue);
  *Stream = new ihipStream_t;
  return hipSuccess;
}
inline hipError_t hipStreamCreateWithFlags(hipStream_t *Stream, unsigned) {
  return hipStreamCreate(Stream);
}
inline hipError_t hipStreamDestroy(hipStream_t Stream) {
  delete Stream;
  return hipSuccess;
}
inline hipError_t hipStreamSynchronize(hipStream_t) { return ave::cpu::takePendingError(); }
inline hipError_t hipMemcpyAsync(void *Dst, const void *Src, size_t Bytes, hipMemcpyKind Kind,
                                 hipStream_t = nullptr) {
  return hipMemcpy(Dst, Src, Bytes, Kind);
}
inline hipError_t hipMemsetAsync(void *Dst, int Value, size_t Bytes, hipStream_t = nullptr) {
  return hipMemset(Dst, Value, Bytes);
}

inline hipError_t hipEventCreate(hipEvent_t *Event) {
  if (!Event)
    return ave::cpu::recordError(hipErrorInvalidValue);
  *Event = new ihipEvent_t;
  return hipSuccess;
}
inline hipError_t hipEventCreateWithFlags(hipEvent_t *Event, unsigned) {
  return hipEventCreate(Event);
}
inline hipError_t hipEventDestroy(hipEvent_t Event) {
  delete Event;
  return hipSuccess;
}
inline hipError_t hipEventRecord(hipEvent_t Event, hipStream_t = nullptr) {
  if (!Event)
    return ave::cpu::recordError(hipErrorInvalidHandle);
  Event->Seconds = ave::cpu::nowSeconds();
  Event->Recorded = true;
  return hipSuccess;
}
inline hipError_t hipEventSynchronize(hipEvent_t Event) {
  if (!Event)
    return ave::cpu::recordError(hipErrorInvalidHandle);
  return ave::cpu::takePendingError();
}
inline hipError_t hipEventQuery(hipEvent_t Event) {
  return Event ? hipSuccess : ave::cpu::recordError(hipErrorInvalidHandle);
}
inline hipError_t hipEventElapsedTime(float *Milliseconds, hipEvent_t Start, hipEvent_t Stop) {
  if (!Milliseconds || !Start || !Stop)
    return ave::cpu::recordError(hipErrorInvalidValue);
  if (!Start->Recorded || !Stop->Recorded)
    return ave::cpu::recordError(hipErrorInvalidHandle);
  *Milliseconds = float((Stop->Seconds - Start->Seconds) * 1e3);
  return hipSuccess;
}

#if !defined(AVE_CPU_DECLARATIONS_ONLY)
#include "../ave_cpu/runtime_impl.h"
#endif
