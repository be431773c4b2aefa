// HIP atomics on the CPU executor: every thread of several blocks hits the
// same words at once (the executor's threads really run concurrently), and
// the totals must come out exact.
#include "CpuTestSupport.h"

namespace ave::cpu::testing {
namespace {

constexpr int Blocks = 4, Threads = 256, Total = Blocks * Threads;

struct Counters {
  int AddInt, SubInt, MinInt, MaxInt, AndInt, OrInt, XorInt;
  unsigned AddU, MinU, MaxU, Inc, Dec;
  unsigned long long AddU64, MaxU64, CasU64;
  float AddF, MinF, MaxF;
  double AddD, MaxD;
  int Exch;
};

__global__ void hammer(Counters *C, int *ExchSeen) {
  int T = int(blockIdx.x * blockDim.x + threadIdx.x);
  atomicAdd(&C->AddInt, 2);
  atomicSub(&C->SubInt, 3);
  atomicMin(&C->MinInt, 500 - T);
  atomicMax(&C->MaxInt, T * 2);
  atomicAnd(&C->AndInt, ~(1 << (T % 31)));
  atomicOr(&C->OrInt, 1 << (T % 31));
  atomicXor(&C->XorInt, 1 << (T % 8));
  atomicAdd(&C->AddU, 5u);
  atomicMin(&C->MinU, unsigned(T) + 7);
  atomicMax(&C->MaxU, unsigned(T) * 3);
  atomicInc(&C->Inc, 99u);
  atomicDec(&C->Dec, 99u);
  atomicAdd(&C->AddU64, 1ull << 33);
  atomicMax(&C->MaxU64, (unsigned long long)T << 40);
  // A lock-free increment through compare-and-swap.
  unsigned long long Old = C->CasU64, Seen;
  do {
    Seen = Old;
    Old = atomicCAS(&C->CasU64, Seen, Seen + 1);
  } while (Old != Seen);
  atomicAdd(&C->AddF, 1.0f);
  atomicMin(&C->MinF, -float(T));
  atomicMax(&C->MaxF, float(T) * 0.5f);
  atomicAdd(&C->AddD, 0.25);
  atomicMax(&C->MaxD, double(T));
  ExchSeen[T] = atomicExch(&C->Exch, T);
}

TEST(AtomicsTest, ConcurrentUpdatesAreExact) {
  Counters Start{};
  Start.MinInt = 1000;
  Start.AndInt = -1;
  Start.MinU = ~0u;
  Start.MinF = 0.0f;
  Start.Exch = -1;
  std::vector<unsigned char> Raw(sizeof(Counters));
  std::memcpy(Raw.data(), &Start, sizeof Start);
  DeviceBuffer<unsigned char> Buffer(Raw);
  DeviceBuffer<int> Seen(Total);
  hipLaunchKernelGGL(hammer, dim3(Blocks), dim3(Threads), 0, 0,
                     reinterpret_cast<Counters *>(Buffer.get()), Seen.get());
  ASSERT_EQ(lastLaunch().Error, hipSuccess);
  Counters C;
  std::vector<unsigned char> After = Buffer.download();
  std::memcpy(&C, After.data(), sizeof C);
  EXPECT_EQ(C.AddInt, 2 * Total);
  EXPECT_EQ(C.SubInt, -3 * Total);
  EXPECT_EQ(C.MinInt, 500 - (Total - 1));
  EXPECT_EQ(C.MaxInt, 2 * (Total - 1));
  EXPECT_EQ(C.AndInt, int(0x80000000u));
  EXPECT_EQ(C.OrInt, 0x7FFFFFFF);
  EXPECT_EQ(C.XorInt, 0); // each bit flipped Total / 8 times, an even number
  EXPECT_EQ(C.AddU, 5u * Total);
  EXPECT_EQ(C.MinU, 7u);
  EXPECT_EQ(C.MaxU, 3u * (Total - 1));
  EXPECT_EQ(C.Inc, unsigned(Total % 100)); // counts 0..99 and wraps
  // 0 -> 99, then down by one per call: after Total calls, 99 - (Total - 1) % 100.
  EXPECT_EQ(C.Dec, unsigned(99 - (Total - 1) % 100));
  EXPECT_EQ(C.AddU64, (unsigned long long)Total << 33);
  EXPECT_EQ(C.MaxU64, (unsigned long long)(Total - 1) << 40);
  EXPECT_EQ(C.CasU64, (unsigned long long)Total);
  EXPECT_EQ(C.AddF, float(Total));
  EXPECT_EQ(C.MinF, -float(Total - 1));
  EXPECT_EQ(C.MaxF, float(Total - 1) * 0.5f);
  EXPECT_EQ(C.AddD, 0.25 * Total);
  EXPECT_EQ(C.MaxD, double(Total - 1));
  // Exchange: every value was handed on exactly once, so the old values seen
  // plus the final one are -1 and every thread id.
  std::vector<int> Values = Seen.download();
  Values.push_back(C.Exch);
  std::sort(Values.begin(), Values.end());
  for (int I = 0; I <= Total; ++I)
    ASSERT_EQ(Values[I], I - 1);
}

__global__ void incDecSequence(unsigned *Out) {
  unsigned Word = 0;
  for (int I = 0; I < 6; ++I)
    Out[I] = atomicInc(&Word, 3u); // 0 1 2 3 0 1
  Word = 1;
  for (int I = 0; I < 6; ++I)
    Out[6 + I] = atomicDec(&Word, 3u); // 1 0 3 2 1 0
  Word = 7;
  Out[12] = atomicDec(&Word, 3u); // above the limit: becomes the limit
  Out[13] = Word;
}

TEST(AtomicsTest, IncAndDecWrapAsHipDefines) {
  DeviceBuffer<unsigned> Out(14);
  hipLaunchKernelGGL(incDecSequence, dim3(1), dim3(1), 0, 0, Out.get());
  ASSERT_EQ(lastLaunch().Error, hipSuccess);
  EXPECT_EQ(Out.download(), (std::vector<unsigned>{0, 1, 2, 3, 0, 1, 1, 0, 3, 2, 1, 0, 7, 3}));
}

// Shared-memory atomics: a block histogram.
__global__ void histogram(const int *In, unsigned *Out) {
  __shared__ unsigned Bins[8];
  if (threadIdx.x < 8)
    Bins[threadIdx.x] = 0;
  __syncthreads();
  atomicAdd(&Bins[In[blockIdx.x * blockDim.x + threadIdx.x] % 8], 1u);
  __syncthreads();
  if (threadIdx.x < 8)
    atomicAdd(&Out[threadIdx.x], Bins[threadIdx.x]);
}

TEST(AtomicsTest, SharedMemoryHistogram) {
  std::vector<int> In(Total);
  std::vector<unsigned> Want(8, 0);
  for (int I = 0; I < Total; ++I) {
    In[I] = (I * 37) % 101;
    ++Want[In[I] % 8];
  }
  DeviceBuffer<int> A(In);
  DeviceBuffer<unsigned> Out(std::vector<unsigned>(8, 0));
  hipLaunchKernelGGL(histogram, dim3(Blocks), dim3(Threads), 0, 0, A.get(), Out.get());
  ASSERT_EQ(lastLaunch().Error, hipSuccess);
  EXPECT_EQ(Out.download(), Want);
}

} // namespace
} // namespace ave::cpu::testing
