// hipError_t with HIP's own numeric values, its names and strings, and the
// executor's error state: the last error (hipGetLastError) and the error a
// failed kernel leaves for the next synchronising call. A failed launch also
// keeps its detailed reason (which kernel, which block, what went wrong), and
// hipGetErrorString returns that reason for the failure's code, so a caller
// that prints hipGetErrorString(e) prints why.
#pragma once

#include <mutex>
#include <string>

enum hipError_t {
  hipSuccess = 0,
  hipErrorInvalidValue = 1,
  hipErrorOutOfMemory = 2,
  hipErrorMemoryAllocation = 2,
  hipErrorNotInitialized = 3,
  hipErrorInvalidConfiguration = 9,
  hipErrorInvalidSymbol = 13,
  hipErrorInvalidDevicePointer = 17,
  hipErrorInvalidMemcpyDirection = 21,
  hipErrorInvalidDeviceFunction = 98,
  hipErrorNoDevice = 100,
  hipErrorInvalidDevice = 101,
  hipErrorInvalidHandle = 400,
  hipErrorInvalidResourceHandle = 400,
  hipErrorNotReady = 600,
  hipErrorIllegalAddress = 700,
  hipErrorLaunchOutOfResources = 701,
  hipErrorLaunchTimeOut = 702,
  hipErrorAssert = 710,
  hipErrorLaunchFailure = 719,
  hipErrorNotSupported = 801,
  hipErrorUnknown = 999,
};

namespace ave::cpu {

inline const char *errorName(hipError_t Error) {
  switch (Error) {
  case hipSuccess:
    return "hipSuccess";
  case hipErrorInvalidValue:
    return "hipErrorInvalidValue";
  case hipErrorOutOfMemory:
    return "hipErrorOutOfMemory";
  case hipErrorNotInitialized:
    return "hipErrorNotInitialized";
  case hipErrorInvalidConfiguration:
    return "hipErrorInvalidConfiguration";
  case hipErrorInvalidSymbol:
    return "hipErrorInvalidSymbol";
  case hipErrorInvalidDevicePointer:
    return "hipErrorInvalidDevicePointer";
  case hipErrorInvalidMemcpyDirection:
    return "hipErrorInvalidMemcpyDirection";
  case hipErrorInvalidDeviceFunction:
    return "hipErrorInvalidDeviceFunction";
  case hipErrorNoDevice:
    return "hipErrorNoDevice";
  case hipErrorInvalidDevice:
    return "hipErrorInvalidDevice";
  case hipErrorInvalidHandle:
    return "hipErrorInvalidHandle";
  case hipErrorNotReady:
    return "hipErrorNotReady";
  case hipErrorIllegalAddress:
    return "hipErrorIllegalAddress";
  case hipErrorLaunchOutOfResources:
    return "hipErrorLaunchOutOfResources";
  case hipErrorLaunchTimeOut:
    return "hipErrorLaunchTimeOut";
  case hipErrorAssert:
    return "hipErrorAssert";
  case hipErrorLaunchFailure:
    return "hipErrorLaunchFailure";
  case hipErrorNotSupported:
    return "hipErrorNotSupported";
  case hipErrorUnknown:
    return "hipErrorUnknown";
  }
  return "hipErrorUnknown";
}

inline const char *errorText(hipError_t Error) {
  switch (Error) {
  case hipSuccess:
    return "no error";
  case hipErrorInvalidValue:
    return "invalid argument";
  case hipErrorOutOfMemory:
    return "out of memory";
  case hipErrorInvalidConfiguration:
    return "invalid configuration argument";
  case hipErrorInvalidDevicePointer:
    return "invalid device pointer";
  case hipErrorInvalidDevice:
    return "invalid device ordinal";
  case hipErrorInvalidHandle:
    return "invalid resource handle";
  case hipErrorNotReady:
    return "device not ready";
  case hipErrorIllegalAddress:
    return "an illegal memory access was encountered";
  case hipErrorLaunchTimeOut:
    return "the launch timed out";
  case hipErrorAssert:
    return "device-side assert triggered";
  case hipErrorLaunchFailure:
    return "unspecified launch failure";
  case hipErrorNotSupported:
    return "operation not supported";
  default:
    return errorName(Error);
  }
}

// The host-side error state. HIP keeps it per host thread; the executor runs
// kernels synchronously, so one state serves the process.
class ErrorState {
public:
  // A failed API call or launch: returned (and cleared) by hipGetLastError.
  hipError_t record(hipError_t Error) {
    std::lock_guard<std::mutex> Lock(Mutex);
    if (Error != hipSuccess)
      Last = Error;
    return Error;
  }
  // A kernel that failed while running: hipGetLastError and the next
  // synchronising call (hipDeviceSynchronize, hipStreamSynchronize,
  // hipEventSynchronize) report it once each.
  void recordKernelFailure(hipError_t Error, std::string Reason) {
    std::lock_guard<std::mutex> Lock(Mutex);
    Last = Error;
    Pending = Error;
    DetailCode = Error;
    Detail = errorText(Error) + std::string(": ") + std::move(Reason);
  }
  // A launch refused before it ran (bad configuration): like record, with
  // the reason kept for hipGetErrorString.
  void recordLaunchError(hipError_t Error, std::string Reason) {
    std::lock_guard<std::mutex> Lock(Mutex);
    Last = Error;
    DetailCode = Error;
    Detail = errorText(Error) + std::string(": ") + std::move(Reason);
  }
  hipError_t takeLast() {
    std::lock_guard<std::mutex> Lock(Mutex);
    hipError_t Error = Last;
    Last = hipSuccess;
    return Error;
  }
  hipError_t peekLast() {
    std::lock_guard<std::mutex> Lock(Mutex);
    return Last;
  }
  hipError_t takePending() {
    std::lock_guard<std::mutex> Lock(Mutex);
    hipError_t Error = Pending;
    Pending = hipSuccess;
    return Error;
  }
  // The text for `Error`: the detailed reason of the latest kernel failure
  // with this code, else the generic text.
  const char *text(hipError_t Error) {
    std::lock_guard<std::mutex> Lock(Mutex);
    if (Error == DetailCode && !Detail.empty())
      return Detail.c_str();
    return errorText(Error);
  }

private:
  std::mutex Mutex;
  hipError_t Last = hipSuccess;
  hipError_t Pending = hipSuccess;
  hipError_t DetailCode = hipSuccess;
  std::string Detail;
};

inline ErrorState &errors() {
  static ErrorState *State = new ErrorState; // never destroyed: used until exit
  return *State;
}

} // namespace ave::cpu
