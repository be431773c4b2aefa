// Faithful failure on the CPU executor: out-of-bounds and freed-memory
// accesses fault deterministically and fail the launch with the buffer and
// the offset; traps, integer division by zero and asserts fail it too; bad
// launch configurations are refused with HIP's error values; the host API
// checks its pointers. After a failure the process goes on, as a GPU
// context would not, so a test harness can report and continue.
#include "CpuTestSupport.h"

// The assert below must be live in every build type; <cassert> reads NDEBUG
// at each inclusion.
#undef NDEBUG
#include <cassert>

namespace ave::cpu::testing {
namespace {

__global__ void readAt(const float *In, float *Out, long Index) { Out[0] = In[Index]; }
__global__ void writeAt(float *Buffer, long Index) { Buffer[Index] = 1.0f; }

class MemoryTest : public ::testing::Test {
protected:
  ScopedEnv Quiet{"AVE_CPU_QUIET", "1"};
};

TEST_F(MemoryTest, ReadPastTheEndFaults) {
  DeviceBuffer<float> In(1000), Out(1);
  hipLaunchKernelGGL(readAt, dim3(1), dim3(1), 0, 0, In.get(), Out.get(), 1000L);
  LaunchOutcome R = lastLaunch();
  EXPECT_EQ(R.Error, hipErrorIllegalAddress);
  EXPECT_NE(R.Reason.find("0 bytes past the end of the 4000-byte buffer"), std::string::npos)
      << R.Reason;
  EXPECT_NE(R.Reason.find("kernel 'readAt' block (0,0,0): thread (0,0,0)"), std::string::npos)
      << R.Reason;
  // The last element itself is fine (the twin).
  hipLaunchKernelGGL(readAt, dim3(1), dim3(1), 0, 0, In.get(), Out.get(), 999L);
  EXPECT_EQ(lastLaunch().Error, hipSuccess);
}

TEST_F(MemoryTest, WritePastTheEndAndBeforeTheStartFault) {
  DeviceBuffer<float> Buffer(1024); // exactly one page: both neighbours are guard pages
  hipLaunchKernelGGL(writeAt, dim3(1), dim3(1), 0, 0, Buffer.get(), 1030L);
  LaunchOutcome R = lastLaunch();
  EXPECT_EQ(R.Error, hipErrorIllegalAddress);
  EXPECT_NE(R.Reason.find("24 bytes past the end of the 4096-byte buffer"), std::string::npos)
      << R.Reason;
  hipLaunchKernelGGL(writeAt, dim3(1), dim3(1), 0, 0, Buffer.get(), -1L);
  R = lastLaunch();
  EXPECT_EQ(R.Error, hipErrorIllegalAddress);
  EXPECT_NE(R.Reason.find("4 bytes before the start"), std::string::npos) << R.Reason;
}

TEST_F(MemoryTest, UseAfterFreeFaults) {
  float *Gone = nullptr;
  ASSERT_EQ(hipMalloc(&Gone, 4096), hipSuccess);
  ASSERT_EQ(hipFree(Gone), hipSuccess);
  hipLaunchKernelGGL(writeAt, dim3(1), dim3(1), 0, 0, Gone, 0L);
  LaunchOutcome R = lastLaunch();
  EXPECT_EQ(R.Error, hipErrorIllegalAddress);
  EXPECT_NE(R.Reason.find("not in any live hipMalloc buffer"), std::string::npos) << R.Reason;
  EXPECT_EQ(hipFree(Gone), hipErrorInvalidValue); // a double free is refused
  (void)hipGetLastError();
}

TEST_F(MemoryTest, NewBuffersHoldPoison) {
  DeviceBuffer<uint32_t> Fresh(33);
  for (uint32_t V : Fresh.download())
    EXPECT_EQ(V, Poison32);
}

TEST_F(MemoryTest, HostApiChecksDevicePointers) {
  DeviceBuffer<int> Buffer(16);
  std::vector<int> Host(32, 7);
  EXPECT_EQ(hipMemcpy(Buffer.get(), Host.data(), 17 * sizeof(int), hipMemcpyHostToDevice),
            hipErrorInvalidValue); // one element too many
  EXPECT_EQ(hipGetLastError(), hipErrorInvalidValue);
  EXPECT_EQ(hipGetLastError(), hipSuccess); // read once
  EXPECT_EQ(hipMemcpy(Host.data(), Host.data() + 16, 4, hipMemcpyDeviceToHost),
            hipErrorInvalidValue); // not device memory
  EXPECT_EQ(hipMemset(Buffer.get() + 8, 0, 9 * sizeof(int)), hipErrorInvalidValue);
  EXPECT_EQ(hipMemcpy(Buffer.get(), Host.data(), 16 * sizeof(int), hipMemcpyHostToDevice),
            hipSuccess);
  (void)hipGetLastError();
}

__global__ void empty() {}

TEST_F(MemoryTest, BadLaunchConfigurationsAreRefused) {
  struct Case {
    dim3 Grid, Block;
    size_t Shared;
    hipError_t Error;
    const char *Reason;
  } Cases[] = {
      {dim3(1), dim3(1025), 0, hipErrorInvalidConfiguration, "has 1025 threads"},
      {dim3(1), dim3(32, 32, 2), 0, hipErrorInvalidConfiguration, "has 2048 threads"},
      {dim3(1, 65536), dim3(1), 0, hipErrorInvalidConfiguration, "grid (1,65536,1)"},
      {dim3(0), dim3(1), 0, hipErrorInvalidConfiguration, "grid (0,1,1)"},
      {dim3(1), dim3(64), 65537, hipErrorInvalidValue, "65537 bytes of dynamic shared memory"},
  };
  for (const Case &C : Cases) {
    hipLaunchKernelGGL(empty, C.Grid, C.Block, C.Shared, 0);
    hipError_t Error = hipGetLastError();
    EXPECT_EQ(Error, C.Error) << C.Reason;
    EXPECT_NE(std::string(hipGetErrorString(Error)).find(C.Reason), std::string::npos)
        << hipGetErrorString(Error);
    EXPECT_EQ(hipDeviceSynchronize(), hipSuccess); // refused launches leave nothing pending
  }
  // The limits themselves are fine.
  hipLaunchKernelGGL(empty, dim3(1), dim3(1024), 65536, 0);
  EXPECT_EQ(hipGetLastError(), hipSuccess);
  ScopedEnv Wave("AVE_CPU_WAVE_SIZE", "48");
  hipLaunchKernelGGL(empty, dim3(1), dim3(1), 0, 0);
  EXPECT_EQ(hipGetLastError(), hipErrorInvalidValue);
}

__global__ void divide(int *Out, int By) { Out[threadIdx.x] = 100 / (By - int(threadIdx.x)); }
__global__ void trapping(int *Out) {
  if (threadIdx.x == 5)
    __trap();
  Out[threadIdx.x] = 1;
}
__global__ void asserting(int *Out) {
  assert(threadIdx.x != 9 && "thread 9 is not welcome");
  Out[threadIdx.x] = 1;
}

TEST_F(MemoryTest, TrapsDivisionByZeroAndAssertsFailTheLaunch) {
  DeviceBuffer<int> Out(32);
  hipLaunchKernelGGL(divide, dim3(1), dim3(32), 0, 0, Out.get(), 3);
  LaunchOutcome R = lastLaunch();
  EXPECT_EQ(R.Error, hipErrorLaunchFailure);
  EXPECT_NE(R.Reason.find("thread (3,0,0): arithmetic fault"), std::string::npos) << R.Reason;
  hipLaunchKernelGGL(trapping, dim3(1), dim3(32), 0, 0, Out.get());
  R = lastLaunch();
  EXPECT_EQ(R.Error, hipErrorLaunchFailure);
  EXPECT_NE(R.Reason.find("thread (5,0,0): trap"), std::string::npos) << R.Reason;
  hipLaunchKernelGGL(asserting, dim3(1), dim3(32), 0, 0, Out.get());
  R = lastLaunch();
  EXPECT_EQ(R.Error, hipErrorAssert);
  EXPECT_NE(R.Reason.find("thread (9,0,0): abort"), std::string::npos) << R.Reason;
  // The executor carries on.
  hipLaunchKernelGGL(divide, dim3(1), dim3(32), 0, 0, Out.get(), 100);
  EXPECT_EQ(lastLaunch().Error, hipSuccess);
}

// Each GPU thread has a 1 MiB stack with a guard page below it (fibers.h):
// a recursion past it is a fault of that thread, and the next launch runs.
__device__ int deepen(volatile char *Above, int Depth) {
  volatile char Frame[4096];
  Frame[0] = char(Depth);
  Frame[4095] = Above ? Above[0] : 0;
  return Depth == 0 ? Frame[0] : deepen(Frame, Depth - 1) + Frame[4095];
}
__global__ void overflowStack(int *Out, int Depth) {
  Out[threadIdx.x] = threadIdx.x == 2 ? deepen(nullptr, Depth) : 0;
}

TEST_F(MemoryTest, AStackOverflowFailsItsThread) {
  DeviceBuffer<int> Out(4);
  hipLaunchKernelGGL(overflowStack, dim3(1), dim3(4), 0, 0, Out.get(), 100000);
  LaunchOutcome R = lastLaunch();
  EXPECT_EQ(R.Error, hipErrorIllegalAddress);
  EXPECT_NE(R.Reason.find("thread (2,0,0): invalid memory access"), std::string::npos) << R.Reason;
  hipLaunchKernelGGL(overflowStack, dim3(1), dim3(4), 0, 0, Out.get(), 16);
  EXPECT_EQ(lastLaunch().Error, hipSuccess);
}

TEST_F(MemoryTest, AFailureIsReportedOnce) {
  DeviceBuffer<float> In(4), Out(1);
  // Synchronising first: the synchronisation reports it, and the last error.
  hipLaunchKernelGGL(readAt, dim3(1), dim3(1), 0, 0, In.get(), Out.get(), 5000L);
  EXPECT_EQ(hipDeviceSynchronize(), hipErrorIllegalAddress);
  EXPECT_EQ(hipDeviceSynchronize(), hipSuccess);
  EXPECT_EQ(hipGetLastError(), hipErrorIllegalAddress);
  EXPECT_EQ(hipGetLastError(), hipSuccess);
  // Asking for the last error first: no later synchronisation repeats it.
  hipLaunchKernelGGL(readAt, dim3(1), dim3(1), 0, 0, In.get(), Out.get(), 5000L);
  EXPECT_EQ(hipGetLastError(), hipErrorIllegalAddress);
  EXPECT_EQ(hipDeviceSynchronize(), hipSuccess);
  EXPECT_STREQ(hipGetErrorName(hipErrorIllegalAddress), "hipErrorIllegalAddress");
}

TEST_F(MemoryTest, DevicePropertiesDescribeTheExecutor) {
  hipDeviceProp_t Props;
  ScopedEnv Wave("AVE_CPU_WAVE_SIZE", "32");
  ASSERT_EQ(hipGetDeviceProperties(&Props, 0), hipSuccess);
  EXPECT_EQ(Props.warpSize, 32);
  EXPECT_EQ(Props.maxThreadsPerBlock, 1024);
  EXPECT_EQ(Props.sharedMemPerBlock, 65536u);
  EXPECT_STREQ(Props.gcnArchName, "ave-cpu");
  EXPECT_EQ(hipGetDeviceProperties(&Props, 1), hipErrorInvalidDevice);
  (void)hipGetLastError();
  hipEvent_t Start, Stop;
  ASSERT_EQ(hipEventCreate(&Start), hipSuccess);
  ASSERT_EQ(hipEventCreate(&Stop), hipSuccess);
  ASSERT_EQ(hipEventRecord(Start), hipSuccess);
  ASSERT_EQ(hipEventRecord(Stop), hipSuccess);
  float Ms = -1;
  ASSERT_EQ(hipEventElapsedTime(&Ms, Start, Stop), hipSuccess);
  EXPECT_GE(Ms, 0.0f);
  EXPECT_EQ(hipEventDestroy(Start), hipSuccess);
  EXPECT_EQ(hipEventDestroy(Stop), hipSuccess);
}

} // namespace
} // namespace ave::cpu::testing
