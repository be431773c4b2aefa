// hipError_t with HIP's own numeric values, and its names and strings.
#pragma once

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

} // namespace ave::cpu
