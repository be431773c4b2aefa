// What the CPU executor's unit tests share: environment settings scoped to
// one test, device buffers, and running one launch to get its error and the
// reason the executor gives for it.
#pragma once

#include <cstdlib>
#include <cstring>
#include <gtest/gtest.h>
#include <hip/hip_runtime.h>
#include <string>
#include <vector>

namespace ave::cpu::testing {

// Sets an environment variable for the lifetime of the object.
class ScopedEnv {
public:
  ScopedEnv(const char *Name, const std::string &Value) : Name(Name) {
    if (const char *Old = std::getenv(Name))
      Previous = Old, HadValue = true;
    setenv(Name, Value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (HadValue)
      setenv(Name, Previous.c_str(), 1);
    else
      unsetenv(Name);
  }

private:
  const char *Name;
  std::string Previous;
  bool HadValue = false;
};

// A hipMalloc'd buffer of N elements.
template <class T> class DeviceBuffer {
public:
  explicit DeviceBuffer(size_t N) : N(N) {
    EXPECT_EQ(hipMalloc(&Pointer, N * sizeof(T)), hipSuccess);
  }
  DeviceBuffer(const std::vector<T> &Values) : DeviceBuffer(Values.size()) { upload(Values); }
  ~DeviceBuffer() { EXPECT_EQ(hipFree(Pointer), hipSuccess); }
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;

  T *get() const { return Pointer; }
  void upload(const std::vector<T> &Values) {
    ASSERT_EQ(hipMemcpy(Pointer, Values.data(), N * sizeof(T), hipMemcpyHostToDevice), hipSuccess);
  }
  std::vector<T> download() const {
    std::vector<T> Values(N);
    EXPECT_EQ(hipMemcpy(Values.data(), Pointer, N * sizeof(T), hipMemcpyDeviceToHost), hipSuccess);
    return Values;
  }

private:
  T *Pointer = nullptr;
  size_t N;
};

// The error of the launch just made (consumed), and the executor's reason.
struct LaunchOutcome {
  hipError_t Error;
  std::string Reason;
};
inline LaunchOutcome lastLaunch() {
  hipError_t Error = hipGetLastError();
  hipError_t Pending = hipDeviceSynchronize();
  EXPECT_TRUE(Pending == hipSuccess || Pending == Error)
      << hipGetErrorName(Pending) << " after " << hipGetErrorName(Error);
  return {Error, Error == hipSuccess ? "" : hipGetErrorString(Error)};
}

inline uint32_t bitsOf(float F) {
  uint32_t U;
  std::memcpy(&U, &F, 4);
  return U;
}

// The executor's poison: every byte 0xFF.
constexpr uint32_t Poison32 = 0xFFFFFFFFu;

} // namespace ave::cpu::testing
