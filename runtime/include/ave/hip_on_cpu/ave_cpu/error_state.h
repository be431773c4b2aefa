// The executor's error state: the last error (hipGetLastError) and the error
// a failed kernel leaves for the next synchronising call. A failed launch
// also keeps its detailed reason (which kernel, which block, what went
// wrong), and hipGetErrorString returns that reason for the failure's code,
// so a caller that prints hipGetErrorString(e) prints why.
#pragma once

#include "errors.h"

#include <mutex>
#include <string>

namespace ave::cpu {

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
  // A kernel that failed while running: reported by hipGetLastError or, if
  // that is not asked first, by the next synchronising call
  // (hipDeviceSynchronize, hipStreamSynchronize, hipEventSynchronize).
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
  // A kernel failure read here is not reported again by the next
  // synchronising call: the caller has seen it.
  hipError_t takeLast() {
    std::lock_guard<std::mutex> Lock(Mutex);
    hipError_t Error = Last;
    Last = hipSuccess;
    if (Pending == Error)
      Pending = hipSuccess;
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
