// Runs a kernel launch: checks the launch configuration as a GPU runtime
// would, then runs the grid's blocks one after another (linear order, or a
// seeded shuffle), each block's threads as fibers on the block runner's
// worker thread (fibers.h), with fresh poisoned shared memory and a fresh
// BlockSync. The first block that fails (deadlock, divergent barrier, fault,
// trap) ends the launch: its reason, naming the kernel and block, is printed
// and kept for hipGetErrorString.
#pragma once

#include "block_runner.h"
#include "block_sync.h"
#include "error_state.h"
#include "faults.h"
#include "local_memory.h"
#include "platform.h"
#include "race_check.h"
#include "runtime_api.h"
#include "settings.h"
#include "thread_context.h"

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

namespace ave::cpu {

class Executor {
public:
  static Executor &instance() {
    static Executor *Instance = new Executor; // never destroyed (block_runner.h says why)
    return *Instance;
  }

  hipError_t launch(const KernelLaunch &L) {
    if (Current.Block)
      return reject(hipErrorNotSupported, L, "a kernel launched from inside a kernel");
    std::lock_guard<std::mutex> Serial(LaunchMutex);
    std::string Reason;
    Settings S = readSettings(Reason);
    if (!Reason.empty())
      return reject(hipErrorInvalidValue, L, Reason);
    if (hipError_t Code = checkConfiguration(L, S, Reason); Code != hipSuccess)
      return reject(Code, L, Reason);
    if (!localMemory().prepare(L.DynamicShared))
      return reject(hipErrorOutOfMemory, L, "cannot map dynamic shared memory");
    installFaultHandlers();
    uint64_t Blocks = uint64_t(L.Grid.x) * L.Grid.y * L.Grid.z;
    std::vector<uint64_t> Order;
    if (S.Shuffle)
      Order = shuffled(Blocks, S.ShuffleSeed);
    for (uint64_t I = 0; I < Blocks; ++I) {
      uint64_t Index = S.Shuffle ? Order[I] : I;
      uint3 Block{unsigned(Index % L.Grid.x), unsigned(Index / L.Grid.x % L.Grid.y),
                  unsigned(Index / (uint64_t(L.Grid.x) * L.Grid.y))};
      if (hipError_t Code = runBlock(L, S, Block); Code != hipSuccess)
        return Code; // recorded by runBlock
    }
    return hipSuccess;
  }

private:
  // 0..Count-1 in a seeded order: Fisher-Yates over splitmix64, the same on
  // every standard library (std::shuffle's algorithm is unspecified).
  static std::vector<uint64_t> shuffled(uint64_t Count, uint64_t Seed) {
    std::vector<uint64_t> Order(Count);
    std::iota(Order.begin(), Order.end(), uint64_t(0));
    uint64_t State = Seed;
    for (uint64_t I = Count; I > 1; --I) {
      uint64_t Z = (State += 0x9E3779B97F4A7C15ull);
      Z = (Z ^ (Z >> 30)) * 0xBF58476D1CE4E5B9ull;
      Z = (Z ^ (Z >> 27)) * 0x94D049BB133111EBull;
      std::swap(Order[I - 1], Order[(Z ^ (Z >> 31)) % I]);
    }
    return Order;
  }

  static std::string coordinates(uint3 V) {
    return "(" + std::to_string(V.x) + "," + std::to_string(V.y) + "," + std::to_string(V.z) + ")";
  }

  hipError_t reject(hipError_t Code, const KernelLaunch &L, const std::string &Reason) {
    errors().recordLaunchError(Code, "kernel '" + std::string(L.Name) + "': " + Reason);
    return Code;
  }

  static hipError_t checkConfiguration(const KernelLaunch &L, const Settings &S,
                                       std::string &Reason) {
    const dim3 &G = L.Grid, &B = L.Block;
    if (G.x < 1 || G.y < 1 || G.z < 1 || G.x > 2147483647u || G.y > 65535 || G.z > 65535) {
      Reason = "grid " + coordinates(G) + " is outside [1, 2^31-1] x [1, 65535] x [1, 65535]";
      return hipErrorInvalidConfiguration;
    }
    uint64_t Threads = uint64_t(B.x) * B.y * B.z;
    if (B.x < 1 || B.y < 1 || B.z < 1 || B.x > 1024 || B.y > 1024 || B.z > 1024 || Threads > 1024) {
      Reason = "block " + coordinates(B) + " has " + std::to_string(Threads) +
               " threads; a block has 1 to 1024";
      return hipErrorInvalidConfiguration;
    }
    if (L.DynamicShared > S.LdsBytes) {
      Reason = "the launch asks for " + std::to_string(L.DynamicShared) +
               " bytes of dynamic shared memory; the limit is " + std::to_string(S.LdsBytes);
      return hipErrorInvalidValue;
    }
    return hipSuccess;
  }

  hipError_t runBlock(const KernelLaunch &L, const Settings &S, uint3 Block) {
    Sync.reset({L.Block.x, L.Block.y, L.Block.z, S.WaveSize});
    localMemory().poison();
#if defined(AVE_CPU_RACE_CHECK)
    raceCheck().reset(Sync, localMemory().requested());
#endif
    unsigned Threads = L.Block.x * L.Block.y * L.Block.z;
    BlockRunner::Body Body = [&](unsigned Linear) { runThread(L, S, Block, Linear); };
    auto Limit = std::chrono::milliseconds(int64_t(S.TimeoutSeconds * 1000));
    std::string Where = "kernel '" + std::string(L.Name) + "' block " + coordinates(Block);
    if (!Runner.run(Threads, Body, Limit)) {
      std::fprintf(stderr,
                   "ave-cpu: %s: still running after %g s: %u of its %u threads have not "
                   "returned (a loop waiting for something no thread will do? A block's "
                   "threads run one at a time and hand over only at a barrier, a warp "
                   "collective or an atomic that changes nothing: a thread spinning on a "
                   "plain or volatile load waits forever); exiting\n",
                   Where.c_str(), S.TimeoutSeconds, Runner.stillRunning(), Threads);
      std::fflush(stderr);
      std::_Exit(124);
    }
#if defined(AVE_CPU_RACE_CHECK)
    raceCheck().finish();
#endif
    if (!Sync.failed())
      return hipSuccess;
    std::string Message = Where + ": " + Sync.failureMessage();
    if (!S.Quiet)
      std::fprintf(stderr, "ave-cpu: %s\n", Message.c_str());
    errors().recordKernelFailure(Sync.failureCode(), Message);
    return Sync.failureCode();
  }

  void runThread(const KernelLaunch &L, const Settings &S, uint3 Block, unsigned Linear) {
    ThreadContext &T = Current;
    threadIdx = {Linear % L.Block.x, Linear / L.Block.x % L.Block.y,
                 Linear / (L.Block.x * L.Block.y)};
    blockIdx = Block;
    blockDim = L.Block;
    gridDim = L.Grid;
    warpSize = int(S.WaveSize);
    T.Block = &Sync;
    T.Linear = Linear;
    T.WaveSize = S.WaveSize;
    T.Warp = Linear / S.WaveSize;
    T.Lane = Linear % S.WaveSize;
    if (sigsetjmp(T.FaultJump, 1) == 0) {
      T.FaultArmed = true;
      try {
        L.Invoke(L.Context);
      } catch (const BlockAborted &) {
      } catch (...) {
        Sync.fail(hipErrorLaunchFailure, Sync.threadName(Linear) + " threw a C++ exception");
      }
      T.FaultArmed = false;
    } else {
      Sync.fail(faultCode(T.FaultSignal),
                Sync.threadName(Linear) + ": " + faultText(T.FaultSignal, T.FaultAddress));
    }
    T.Block = nullptr;
    Sync.threadExited(Linear);
  }

  std::mutex LaunchMutex;
  BlockRunner Runner;
  BlockSync Sync;
};

} // namespace ave::cpu
