// Warp collectives on the CPU executor at wave sizes 32 and 64: every
// shuffle kind and width against an independent oracle (the PTX ISA's shfl
// definition with its segment clamp), the _sync forms and their masks,
// votes, poison for lanes that do not take part, and the failures a
// collective must report instead of hanging.
#include "CpuTestSupport.h"

#include <hip/hip_fp16.h>

namespace ave::cpu::testing {
namespace {

enum class Mode { Idx, Up, Down, Xor };

// PTX's shfl: the source lane j, or the caller's own lane when the clamp
// rejects j. segMask selects the width-sized segment of the lane.
int ptxSource(Mode M, int Lane, int B, int Width, int Wave) {
  int SegMask = ~(Width - 1) & (Wave - 1);
  int Clamp = M == Mode::Up ? 0 : Wave - 1;
  int MaxLane = (Lane & SegMask) | (Clamp & ~SegMask);
  int MinLane = Lane & SegMask;
  int J = 0;
  bool Valid = false;
  switch (M) {
  case Mode::Up:
    J = Lane - B, Valid = J >= MaxLane;
    break;
  case Mode::Down:
    J = Lane + B, Valid = J <= MaxLane;
    break;
  case Mode::Xor:
    J = Lane ^ B, Valid = J <= MaxLane;
    break;
  case Mode::Idx:
    J = MinLane | (B & (Wave - 1) & ~SegMask), Valid = J <= MaxLane;
    break;
  }
  return Valid ? J : Lane;
}

struct Config {
  Mode M;
  int B, Width;
};

std::vector<Config> configs(int Wave) {
  std::vector<Config> Out;
  for (int Width = 1; Width <= Wave; Width *= 2)
    for (int B : {0, 1, 3, Width / 2, Width - 1, Width + 1, Wave - 1, 37 % Wave})
      for (Mode M : {Mode::Idx, Mode::Up, Mode::Down, Mode::Xor})
        if (B >= 0 && B < Wave)
          Out.push_back({M, B, Width});
  return Out;
}

__global__ void shuffleAll(const Config *Configs, int Count, int *Out, int Sync) {
  int T = int(threadIdx.x);
  int Value = 1000 * int(blockIdx.x) + T;
  uint64_t Full = ~0ull;
  for (int C = 0; C < Count; ++C) {
    Config Cfg = Configs[C];
    int R = 0;
    switch (Cfg.M) {
    case Mode::Idx:
      R = Sync ? __shfl_sync(Full, Value, Cfg.B, Cfg.Width) : __shfl(Value, Cfg.B, Cfg.Width);
      break;
    case Mode::Up:
      R = Sync ? __shfl_up_sync(Full, Value, unsigned(Cfg.B), Cfg.Width)
               : __shfl_up(Value, unsigned(Cfg.B), Cfg.Width);
      break;
    case Mode::Down:
      R = Sync ? __shfl_down_sync(Full, Value, unsigned(Cfg.B), Cfg.Width)
               : __shfl_down(Value, unsigned(Cfg.B), Cfg.Width);
      break;
    case Mode::Xor:
      R = Sync ? __shfl_xor_sync(Full, Value, Cfg.B, Cfg.Width)
               : __shfl_xor(Value, Cfg.B, Cfg.Width);
      break;
    }
    Out[(C * int(gridDim.x) + int(blockIdx.x)) * int(blockDim.x) + T] = R;
  }
}

class WarpTest : public ::testing::TestWithParam<int> {
protected:
  int wave() const { return GetParam(); }
  ScopedEnv Wave{"AVE_CPU_WAVE_SIZE", std::to_string(GetParam())};
  ScopedEnv Quiet{"AVE_CPU_QUIET", "1"};
};

TEST_P(WarpTest, EveryShuffleKindAndWidthMatchesPtx) {
  std::vector<Config> Cfgs = configs(wave());
  const int Blocks = 2, Threads = 2 * wave();
  std::vector<unsigned char> Raw(Cfgs.size() * sizeof(Config));
  std::memcpy(Raw.data(), Cfgs.data(), Raw.size());
  DeviceBuffer<unsigned char> Table(Raw);
  DeviceBuffer<int> Out(Cfgs.size() * Blocks * Threads);
  for (int Sync : {0, 1}) {
    hipLaunchKernelGGL(shuffleAll, dim3(Blocks), dim3(Threads), 0, 0,
                       reinterpret_cast<const Config *>(Table.get()), int(Cfgs.size()), Out.get(),
                       Sync);
    ASSERT_EQ(lastLaunch().Error, hipSuccess);
    std::vector<int> V = Out.download();
    for (size_t C = 0; C < Cfgs.size(); ++C)
      for (int Blk = 0; Blk < Blocks; ++Blk)
        for (int T = 0; T < Threads; ++T) {
          int Lane = T % wave(), WarpBase = T - Lane;
          int Want =
              1000 * Blk + WarpBase + ptxSource(Cfgs[C].M, Lane, Cfgs[C].B, Cfgs[C].Width, wave());
          ASSERT_EQ(V[(C * Blocks + Blk) * Threads + T], Want)
              << "mode " << int(Cfgs[C].M) << " b " << Cfgs[C].B << " width " << Cfgs[C].Width
              << " thread " << T << (Sync ? " (_sync)" : "");
        }
  }
}

__global__ void wideValues(uint64_t *Out64, double *OutD, __half *OutH) {
  unsigned T = threadIdx.x;
  uint64_t V = (uint64_t(T) << 40) | T;
  Out64[T] = __shfl_xor(V, 1);
  OutD[T] = __shfl_down(double(T) + 0.5, 1);
  OutH[T] = __shfl(__float2half(float(T)), 0);
}

TEST_P(WarpTest, SixtyFourBitAndHalfValuesMoveWhole) {
  unsigned Threads = unsigned(wave());
  DeviceBuffer<uint64_t> A(Threads);
  DeviceBuffer<double> B(Threads);
  DeviceBuffer<__half> C(Threads);
  hipLaunchKernelGGL(wideValues, dim3(1), dim3(Threads), 0, 0, A.get(), B.get(), C.get());
  ASSERT_EQ(lastLaunch().Error, hipSuccess);
  std::vector<uint64_t> Av = A.download();
  std::vector<double> Bv = B.download();
  std::vector<__half> Cv = C.download();
  for (unsigned T = 0; T < Threads; ++T) {
    unsigned X = T ^ 1;
    EXPECT_EQ(Av[T], (uint64_t(X) << 40) | X);
    EXPECT_EQ(Bv[T], (T + 1 < Threads ? T + 1 : T) + 0.5);
    EXPECT_EQ(float(Cv[T]), 0.0f);
  }
}

// Lane 3 of every 4 returns first; the others read their xor-1 neighbour, so
// lanes 2, 6, ... read a lane that is gone. The first __syncwarp completes
// only once those lanes have returned; the second keeps the rest alive until
// every lane has read __activemask.
__global__ void readReturnedLane(unsigned *Out, unsigned long long *Active) {
  unsigned T = threadIdx.x;
  if (T % 4 == 3)
    return;
  __syncwarp();
  unsigned long long Mask = __activemask();
  __syncwarp();
  Out[T] = __shfl_xor(T + 100, 1);
  if (T == 0)
    *Active = Mask;
}

TEST_P(WarpTest, ReturnedLanesReadAsPoison) {
  unsigned Threads = unsigned(wave());
  DeviceBuffer<unsigned> Out(Threads);
  DeviceBuffer<unsigned long long> Active(1);
  hipLaunchKernelGGL(readReturnedLane, dim3(1), dim3(Threads), 0, 0, Out.get(), Active.get());
  ASSERT_EQ(lastLaunch().Error, hipSuccess);
  std::vector<unsigned> V = Out.download();
  unsigned long long Expected = 0;
  for (unsigned T = 0; T < Threads; ++T) {
    if (T % 4 == 3)
      continue;
    Expected |= 1ull << T;
    EXPECT_EQ(V[T], T % 4 == 2 ? Poison32 : (T ^ 1) + 100) << T;
  }
  EXPECT_EQ(Active.download()[0], Expected);
}

__global__ void partialWarp(unsigned *Out, int *Size) {
  unsigned T = threadIdx.x;
  Out[T] = __shfl_down(T, 8);
  if (T == 0)
    *Size = warpSize;
}

TEST_P(WarpTest, LanesBeyondAPartialWarpReadAsPoison) {
  unsigned Threads = unsigned(wave() + 16); // the second warp has 16 lanes
  DeviceBuffer<unsigned> Out(Threads);
  DeviceBuffer<int> Size(1);
  hipLaunchKernelGGL(partialWarp, dim3(1), dim3(Threads), 0, 0, Out.get(), Size.get());
  ASSERT_EQ(lastLaunch().Error, hipSuccess);
  EXPECT_EQ(Size.download()[0], wave());
  std::vector<unsigned> V = Out.download();
  for (unsigned T = 0; T < Threads; ++T) {
    unsigned Lane = T % unsigned(wave()), Source = Lane + 8 < unsigned(wave()) ? T + 8 : T;
    EXPECT_EQ(V[T], Source < Threads ? Source : Poison32) << T;
  }
}

// Two groups of one warp in different _sync collectives at once: lanes below
// 16 swap pairs, the rest shift down by one within their own mask.
__global__ void disjointMasks(unsigned *Out) {
  unsigned Lane = __lane_id();
  uint64_t Low = 0xFFFF, High = ~0ull << 16;
  if (Lane < 16)
    Out[threadIdx.x] = __shfl_xor_sync(Low, Lane, 1);
  else
    Out[threadIdx.x] = __shfl_down_sync(High, Lane, 1);
}

TEST_P(WarpTest, DisjointMasksProceedIndependently) {
  unsigned Threads = unsigned(wave());
  DeviceBuffer<unsigned> Out(Threads);
  hipLaunchKernelGGL(disjointMasks, dim3(1), dim3(Threads), 0, 0, Out.get());
  ASSERT_EQ(lastLaunch().Error, hipSuccess);
  std::vector<unsigned> V = Out.download();
  for (unsigned L = 0; L < Threads; ++L)
    EXPECT_EQ(V[L], L < 16 ? L ^ 1 : (L + 1 < Threads ? L + 1 : L)) << L;
}

__global__ void votes(unsigned long long *Out) {
  unsigned L = __lane_id();
  unsigned long long Ballot = __ballot(L % 3 == 0);
  int Any = __any(L == 5), None = __any(0);
  int All = __all(L < 64), NotAll = __all(L != 7);
  unsigned long long Part = 0;
  if (L >= 4 && L < 8)
    Part = __ballot_sync(0xF0ull, L != 6) | (uint64_t(__all_sync(0xF0ull, L >= 4)) << 32);
  if (L == 4) {
    Out[0] = Ballot;
    Out[1] = Any;
    Out[2] = None;
    Out[3] = All;
    Out[4] = NotAll;
    Out[5] = Part;
  }
}

TEST_P(WarpTest, VotesCoverTheTakingPartLanes) {
  DeviceBuffer<unsigned long long> Out(6);
  hipLaunchKernelGGL(votes, dim3(1), dim3(wave()), 0, 0, Out.get());
  ASSERT_EQ(lastLaunch().Error, hipSuccess);
  unsigned long long Every3 = 0;
  for (int L = 0; L < wave(); L += 3)
    Every3 |= 1ull << L;
  EXPECT_EQ(Out.download(),
            (std::vector<unsigned long long>{Every3, 1, 0, 1, 0, 0xB0ull | (1ull << 32)}));
}

__global__ void warpStaged(int *Out) {
  __shared__ int Slots[128];
  unsigned T = threadIdx.x;
  Slots[T] = int(T) * 2;
  __syncwarp();
  unsigned Base = T - __lane_id();
  Out[T] = Slots[Base + (__lane_id() + 1) % unsigned(warpSize)];
}

TEST_P(WarpTest, SyncwarpOrdersMemoryWithinTheWarp) {
  unsigned Threads = 2 * unsigned(wave());
  DeviceBuffer<int> Out(Threads);
  hipLaunchKernelGGL(warpStaged, dim3(1), dim3(Threads), 0, 0, Out.get());
  ASSERT_EQ(lastLaunch().Error, hipSuccess);
  std::vector<int> V = Out.download();
  for (unsigned T = 0; T < Threads; ++T) {
    unsigned Base = T - T % unsigned(wave());
    EXPECT_EQ(V[T], int(Base + (T % unsigned(wave()) + 1) % unsigned(wave())) * 2);
  }
}

// Legal orders of collectives of different lane sets: the low half does an
// extra masked shuffle (nested masks, 0xF inside 0xFF) while the rest of the
// warp already waits in the next, whole-warp shuffle; __syncwarp from two
// lines.
__global__ void staggeredCollectives(int *Out) {
  int L = int(__lane_id()), V = L;
  if (L < 8) {
    if (L < 4)
      V += __shfl_xor_sync(0xFull, V, 1);
    V += __shfl_down_sync(0xFFull, V, 4, 8);
  }
  V += __shfl_xor(V, 1);
  if (L % 2)
    __syncwarp();
  else
    __syncwarp();
  Out[threadIdx.x] = V;
}

TEST_P(WarpTest, CollectivesOfDifferentLaneSetsMayOverlap) {
  int Wave = wave();
  DeviceBuffer<int> Out(Wave);
  hipLaunchKernelGGL(staggeredCollectives, dim3(1), dim3(Wave), 0, 0, Out.get());
  ASSERT_EQ(lastLaunch().Error, hipSuccess);
  std::vector<int> Step(Wave), Want(Wave);
  for (int L = 0; L < Wave; ++L)
    Step[L] = L < 4 ? L + (L ^ 1) : L;
  std::vector<int> Second = Step;
  for (int L = 0; L < 8; ++L)
    Second[L] = Step[L] + (L + 4 < 8 ? Step[L + 4] : Step[L]);
  for (int L = 0; L < Wave; ++L)
    Want[L] = Second[L] + Second[L ^ 1];
  EXPECT_EQ(Out.download(), Want);
}

// ---- failures ----

void expectFailure(const char *Substring) {
  LaunchOutcome R = lastLaunch();
  EXPECT_EQ(R.Error, hipErrorLaunchFailure);
  EXPECT_NE(R.Reason.find(Substring), std::string::npos) << R.Reason;
}

__global__ void divergentShuffle(int *Out) {
  int L = int(__lane_id());
  if (L < 16)
    Out[threadIdx.x] = __shfl_xor(L, 1);
  else
    Out[threadIdx.x] = __shfl_xor(L, 2);
}

TEST_P(WarpTest, DivergentCollectivesFail) {
  DeviceBuffer<int> Out(wave());
  hipLaunchKernelGGL(divergentShuffle, dim3(1), dim3(wave()), 0, 0, Out.get());
  expectFailure("divergent warp collectives");
}

__global__ void maskWithoutSelf(int *Out) {
  Out[threadIdx.x] = __shfl_sync(0x1ull, int(threadIdx.x), 0);
}

TEST_P(WarpTest, MaskLeavingTheCallerOutFails) {
  DeviceBuffer<int> Out(wave());
  hipLaunchKernelGGL(maskWithoutSelf, dim3(1), dim3(wave()), 0, 0, Out.get());
  expectFailure("the mask leaves its own lane out");
}

__global__ void maskBeyondWarp(int *Out) {
  Out[threadIdx.x] = __shfl_sync(0xFFFFFull, int(threadIdx.x), 0);
}

TEST_P(WarpTest, MaskNamingMissingLanesFails) {
  DeviceBuffer<int> Out(16);
  hipLaunchKernelGGL(maskBeyondWarp, dim3(1), dim3(16), 0, 0, Out.get());
  expectFailure("the mask names lanes this warp does not have");
}

__global__ void maskWithReturnedLane(int *Out) {
  if (threadIdx.x == 1)
    return;
  Out[threadIdx.x] = __shfl_sync(0xFull, int(threadIdx.x), 0);
}

TEST_P(WarpTest, MaskWaitingForAReturnedLaneFails) {
  DeviceBuffer<int> Out(4);
  hipLaunchKernelGGL(maskWithReturnedLane, dim3(1), dim3(4), 0, 0, Out.get());
  expectFailure("returned");
}

__global__ void badWidth(int *Out) { Out[threadIdx.x] = __shfl_xor(int(threadIdx.x), 1, 3); }

TEST_P(WarpTest, WidthThatIsNoPowerOfTwoFails) {
  DeviceBuffer<int> Out(wave());
  hipLaunchKernelGGL(badWidth, dim3(1), dim3(wave()), 0, 0, Out.get());
  expectFailure("width 3 is not a power of two");
}

// Lanes 0 and 1 wait in a collective whose mask names lane 2, which waits at
// the barrier with the rest of the block: nobody can proceed.
__global__ void shuffleAgainstBarrier(int *Out) {
  if (threadIdx.x < 2)
    Out[threadIdx.x] = __shfl_sync(0x7ull, 1, 0);
  __syncthreads();
}

TEST_P(WarpTest, CollectiveAndBarrierDeadlockIsReported) {
  DeviceBuffer<int> Out(2 * wave());
  hipLaunchKernelGGL(shuffleAgainstBarrier, dim3(1), dim3(2 * wave()), 0, 0, Out.get());
  LaunchOutcome R = lastLaunch();
  EXPECT_EQ(R.Error, hipErrorLaunchFailure);
  EXPECT_NE(R.Reason.find("deadlock"), std::string::npos) << R.Reason;
  EXPECT_NE(R.Reason.find("2 threads wait in __shfl_sync"), std::string::npos) << R.Reason;
  EXPECT_NE(R.Reason.find("wait at __syncthreads()"), std::string::npos) << R.Reason;
}

INSTANTIATE_TEST_SUITE_P(WaveSizes, WarpTest, ::testing::Values(32, 64),
                         [](const ::testing::TestParamInfo<int> &I) {
                           return "Wave" + std::to_string(I.param);
                         });

} // namespace
} // namespace ave::cpu::testing
