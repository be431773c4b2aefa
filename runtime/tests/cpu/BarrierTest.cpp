// __syncthreads and the block's shared memory on the CPU executor: barriers
// order shared memory, the _count/_and/_or reductions, per-block poisoned
// LDS (static in templates, helpers and several kernels; dynamic with the
// launch's size), and the failures that must not hang: a thread returning
// while others wait, divergent barriers, a spinning block (watchdog).
#include "CpuTestSupport.h"

#include <atomic>
#include <cmath>
#include <set>

namespace ave::cpu::testing {
namespace {

__global__ void reverseInBlock(const int *In, int *Out) {
  __shared__ int Tile[256];
  unsigned T = threadIdx.x, Base = blockIdx.x * blockDim.x;
  Tile[T] = In[Base + T];
  __syncthreads();
  Out[Base + T] = Tile[blockDim.x - 1 - T];
}

TEST(BarrierTest, SyncthreadsOrdersSharedMemory) {
  const int Blocks = 4, Threads = 256;
  std::vector<int> In(Blocks * Threads);
  for (size_t I = 0; I < In.size(); ++I)
    In[I] = int(I * 7 + 3);
  DeviceBuffer<int> A(In), B(In.size());
  hipLaunchKernelGGL(reverseInBlock, dim3(Blocks), dim3(Threads), 0, 0, A.get(), B.get());
  ASSERT_EQ(lastLaunch().Error, hipSuccess);
  std::vector<int> Out = B.download();
  for (int Blk = 0; Blk < Blocks; ++Blk)
    for (int T = 0; T < Threads; ++T)
      ASSERT_EQ(Out[Blk * Threads + T], In[Blk * Threads + Threads - 1 - T]);
}

__global__ void barrierReductions(int *Out) {
  unsigned T = threadIdx.x + blockDim.x * threadIdx.y;
  int Count = __syncthreads_count(T % 3 == 0);
  int All = __syncthreads_and(T < 1000);
  int NoneAll = __syncthreads_and(T != 5);
  int Any = __syncthreads_or(T == 77);
  int NoneAny = __syncthreads_or(0);
  if (T == 0) {
    Out[0] = Count;
    Out[1] = All;
    Out[2] = NoneAll;
    Out[3] = Any;
    Out[4] = NoneAny;
  }
}

TEST(BarrierTest, CountAndOrReduceOverTheBlock) {
  DeviceBuffer<int> Out(5);
  hipLaunchKernelGGL(barrierReductions, dim3(1), dim3(10, 20), 0, 0, Out.get());
  ASSERT_EQ(lastLaunch().Error, hipSuccess);
  EXPECT_EQ(Out.download(), (std::vector<int>{67, 1, 0, 1, 0})); // ceil(200 / 3) = 67
}

// Thread t writes Tile[t] only for t < blockIdx.x; every thread reads its own
// slot, so slots no thread of this block wrote must read as poison, whatever
// an earlier block left there.
__global__ void readUnwritten(unsigned *Out) {
  __shared__ unsigned Tile[64];
  unsigned T = threadIdx.x;
  if (T < blockIdx.x)
    Tile[T] = 1000 + T;
  __syncthreads();
  Out[blockIdx.x * 64 + T] = Tile[T];
}

TEST(BarrierTest, SharedMemoryIsPerBlockAndPoisoned) {
  DeviceBuffer<unsigned> Out(4 * 64);
  hipLaunchKernelGGL(readUnwritten, dim3(4), dim3(64), 0, 0, Out.get());
  ASSERT_EQ(lastLaunch().Error, hipSuccess);
  std::vector<unsigned> V = Out.download();
  for (unsigned B = 0; B < 4; ++B)
    for (unsigned T = 0; T < 64; ++T)
      ASSERT_EQ(V[B * 64 + T], T < B ? 1000 + T : Poison32) << "block " << B << " thread " << T;
}

template <class T> __device__ T staged(T Value) {
  __shared__ T Slot[2];
  if (threadIdx.x == 0)
    Slot[0] = Value;
  __syncthreads();
  return Slot[threadIdx.x % 2]; // Slot[1] is never written
}

template <class T> __global__ void templatedStage(T *Out) { Out[threadIdx.x] = staged<T>(T(42)); }

__device__ float helperShared() {
  __shared__ float Scratch[4];
  return Scratch[threadIdx.x % 4];
}
__global__ void helperKernel(float *Out) { Out[threadIdx.x] = helperShared(); }

TEST(BarrierTest, PoisonReachesTemplatesHelpersAndEveryKernel) {
  DeviceBuffer<float> F(2);
  DeviceBuffer<double> D(2);
  DeviceBuffer<float> H(4);
  for (int Round = 0; Round < 2; ++Round) { // the second round sees poison again
    hipLaunchKernelGGL(templatedStage<float>, dim3(1), dim3(2), 0, 0, F.get());
    ASSERT_EQ(lastLaunch().Error, hipSuccess);
    hipLaunchKernelGGL(HIP_KERNEL_NAME(templatedStage<double>), dim3(1), dim3(2), 0, 0, D.get());
    ASSERT_EQ(lastLaunch().Error, hipSuccess);
    hipLaunchKernelGGL(helperKernel, dim3(1), dim3(4), 0, 0, H.get());
    ASSERT_EQ(lastLaunch().Error, hipSuccess);
    std::vector<float> Fv = F.download();
    std::vector<double> Dv = D.download();
    EXPECT_EQ(Fv[0], 42.0f);
    EXPECT_EQ(bitsOf(Fv[1]), Poison32);
    EXPECT_EQ(Dv[0], 42.0);
    uint64_t DBits;
    std::memcpy(&DBits, &Dv[1], 8);
    EXPECT_EQ(DBits, ~uint64_t(0));
    for (float V : H.download())
      EXPECT_EQ(bitsOf(V), Poison32);
  }
}

HIP_DYNAMIC_SHARED(float, NamespaceDynamic)

__global__ void dynamicShared(unsigned *Out, unsigned Written, unsigned Read, unsigned Stride) {
  HIP_DYNAMIC_SHARED(unsigned, Dynamic)
  unsigned T = threadIdx.x;
  if (T < Written)
    Dynamic[T] = T * 3;
  __syncthreads();
  Out[T] = T < Read ? Dynamic[T * Stride] : unsigned((void *)Dynamic == (void *)NamespaceDynamic);
}

TEST(BarrierTest, DynamicSharedMemoryHasTheLaunchSizeAndPoison) {
  DeviceBuffer<unsigned> Out(64);
  hipLaunchKernelGGL(dynamicShared, dim3(1), dim3(64), 40 * sizeof(unsigned), 0, Out.get(), 30u,
                     40u, 1u);
  ASSERT_EQ(lastLaunch().Error, hipSuccess);
  std::vector<unsigned> V = Out.download();
  for (unsigned T = 0; T < 64; ++T)
    EXPECT_EQ(V[T], T < 30 ? T * 3 : T < 40 ? Poison32 : 1u) << T;
}

TEST(BarrierTest, DynamicSharedMemoryPastTheLaunchSizeFaults) {
  ScopedEnv Quiet("AVE_CPU_QUIET", "1");
  DeviceBuffer<unsigned> Out(256);
  // 16 bytes asked for; reading up to byte 16 * 255 * 4 reaches past the
  // first page, which is all the launch gets.
  hipLaunchKernelGGL(dynamicShared, dim3(1), dim3(256), 16, 0, Out.get(), 4u, 256u, 16u);
  LaunchOutcome R = lastLaunch();
  EXPECT_EQ(R.Error, hipErrorIllegalAddress);
  EXPECT_NE(R.Reason.find("dynamic shared memory, past the 16 bytes"), std::string::npos)
      << R.Reason;
}

__global__ void earlyReturn(int *Out) {
  if (threadIdx.x == 3)
    return;
  __syncthreads();
  Out[threadIdx.x] = 1;
}

TEST(BarrierTest, ReturnWhileOthersWaitFailsInsteadOfHanging) {
  ScopedEnv Quiet("AVE_CPU_QUIET", "1");
  DeviceBuffer<int> Out(64);
  hipLaunchKernelGGL(earlyReturn, dim3(2), dim3(64), 0, 0, Out.get());
  LaunchOutcome R = lastLaunch();
  EXPECT_EQ(R.Error, hipErrorLaunchFailure);
  EXPECT_NE(R.Reason.find("kernel 'earlyReturn' block (0,0,0)"), std::string::npos) << R.Reason;
  EXPECT_NE(R.Reason.find("__syncthreads()"), std::string::npos) << R.Reason;
  EXPECT_NE(R.Reason.find("thread (3,0,0)"), std::string::npos) << R.Reason;
  EXPECT_NE(R.Reason.find("BarrierTest.cpp:"), std::string::npos) << R.Reason;
}

__global__ void divergentBarriers(int *Out) {
  if (threadIdx.x < 32)
    __syncthreads();
  else
    __syncthreads();
  Out[threadIdx.x] = 1;
}

TEST(BarrierTest, DivergentBarriersFail) {
  ScopedEnv Quiet("AVE_CPU_QUIET", "1");
  DeviceBuffer<int> Out(64);
  hipLaunchKernelGGL(divergentBarriers, dim3(1), dim3(64), 0, 0, Out.get());
  LaunchOutcome R = lastLaunch();
  EXPECT_EQ(R.Error, hipErrorLaunchFailure);
  EXPECT_NE(R.Reason.find("divergent barriers"), std::string::npos) << R.Reason;
}

// The correct twins: a barrier inside a helper reached from a loop with the
// same trip count everywhere, and a return after the last barrier.
__device__ void syncStep(int *Tile, int Step) {
  Tile[threadIdx.x] = Step;
  __syncthreads();
}
__global__ void helperBarrierLoop(int *Out) {
  __shared__ int Tile[128];
  int Sum = 0;
  for (int Step = 0; Step < 5; ++Step) {
    syncStep(Tile, Step);
    Sum += Tile[(threadIdx.x + 1) % 128];
    __syncthreads();
  }
  if (threadIdx.x % 2)
    return;
  Out[threadIdx.x / 2] = Sum;
}

TEST(BarrierTest, BarrierInHelperAndReturnAfterTheLastOneAreFine) {
  DeviceBuffer<int> Out(64);
  hipLaunchKernelGGL(helperBarrierLoop, dim3(3), dim3(128), 0, 0, Out.get());
  ASSERT_EQ(lastLaunch().Error, hipSuccess);
  for (int V : Out.download())
    EXPECT_EQ(V, 0 + 1 + 2 + 3 + 4);
}

// A thread may wait for another thread of its block with no barrier between
// them, spinning on an atomic: thread 1 waits for a flag thread 0 sets, and
// thread 0 waits for thread 1's answer. The executor runs one thread at a
// time; the spin-loop atomics (an atomic read, a failed atomicCAS) hand over.
__global__ void handshake(int *Flags) {
  if (threadIdx.x == 1) {
    while (atomicAdd(&Flags[0], 0) == 0) {
    }
    atomicExch(&Flags[1], 1);
  } else {
    atomicExch(&Flags[0], 1);
    while (atomicCAS(&Flags[1], 1, 2) != 1) {
    }
  }
}

TEST(BarrierTest, ThreadsOfABlockHandOverInSpinLoops) {
  DeviceBuffer<int> Flags(std::vector<int>{0, 0});
  hipLaunchKernelGGL(handshake, dim3(1), dim3(2), 0, 0, Flags.get());
  ASSERT_EQ(lastLaunch().Error, hipSuccess);
  EXPECT_EQ(Flags.download(), (std::vector<int>{1, 2}));
}

// Between two barriers the lower threads run first, between the next two
// the higher ones (fibers.h): a read of a neighbour's element without the
// barrier before it sees poison in one direction or the other.
__global__ void readNeighbours(float *Out) {
  __shared__ float Row[64];
  unsigned T = threadIdx.x;
  Row[T] = float(T);
  float Left = Row[(T + 63) % 64]; // no barrier: a race
  __syncthreads();
  Row[T] = float(T) + 100.0f;
  float Right = Row[(T + 1) % 64]; // no barrier: a race
  Out[T] = Left + Right;
}

TEST(BarrierTest, AMissingBarrierShowsInBothDirections) {
  DeviceBuffer<float> Out(64);
  hipLaunchKernelGGL(readNeighbours, dim3(1), dim3(64), 0, 0, Out.get());
  ASSERT_EQ(lastLaunch().Error, hipSuccess);
  std::vector<float> V = Out.download();
  // Thread 0 reads thread 63's element before thread 63 ran (poison), and in
  // the second phase thread 63 reads thread 0's before thread 0 ran (the
  // first phase's value, not the second's).
  EXPECT_TRUE(std::isnan(V[0]));
  EXPECT_EQ(V[63], 62.0f + 0.0f);
  EXPECT_EQ(V[10], 9.0f + 111.0f) << "thread 10 ran after thread 9 and after thread 11";
}

__global__ void spinForever(int *Flag) {
  std::atomic_ref<int> F(*Flag);
  while (F.load() == 0) {
  }
}

TEST(BarrierDeathTest, WatchdogEndsASpinningBlock) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        setenv("AVE_CPU_TIMEOUT", "0.3", 1);
        int *Flag = nullptr;
        (void)hipMalloc(&Flag, sizeof(int));
        (void)hipMemset(Flag, 0, sizeof(int));
        hipLaunchKernelGGL(spinForever, dim3(1), dim3(4), 0, 0, Flag);
      },
      ::testing::ExitedWithCode(124), "kernel 'spinForever' block \\(0,0,0\\): still running");
}

__global__ void recordOrder(int *Counter, int *Order) {
  if (threadIdx.x == 0)
    Order[std::atomic_ref<int>(*Counter).fetch_add(1)] = int(blockIdx.x + gridDim.x * blockIdx.y);
}

TEST(BarrierTest, BlocksRunInLinearOrShuffledOrder) {
  const int Blocks = 24;
  std::vector<int> Linear, Shuffled;
  for (const char *Order : {"linear", "shuffle:7"}) {
    ScopedEnv Env("AVE_CPU_BLOCK_ORDER", Order);
    DeviceBuffer<int> Counter(std::vector<int>{0}), Seen(Blocks);
    hipLaunchKernelGGL(recordOrder, dim3(6, 4), dim3(2), 0, 0, Counter.get(), Seen.get());
    ASSERT_EQ(lastLaunch().Error, hipSuccess);
    (std::string(Order) == "linear" ? Linear : Shuffled) = Seen.download();
  }
  for (int I = 0; I < Blocks; ++I)
    EXPECT_EQ(Linear[I], I);
  EXPECT_EQ(std::set<int>(Shuffled.begin(), Shuffled.end()).size(), size_t(Blocks));
  EXPECT_NE(Shuffled, Linear);
}

} // namespace
} // namespace ave::cpu::testing
