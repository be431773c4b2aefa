// The synchronisation state of the block that is running: __syncthreads and
// its _count/_and/_or forms, the warp collectives (shuffles, votes, matrix
// cores), and the bookkeeping that turns a deadlock into a failed launch.
//
// Why not std::barrier: a std::barrier waits forever when a thread never
// arrives. Here every blocking operation goes through this class, so the
// executor always knows how many threads are alive and how many of them
// wait. A waiting thread hands the OS thread to the block's other threads
// (fibers.h) until what it waits for has happened. A barrier completes when
// every thread of the block has arrived at the same __syncthreads (CUDA/HIP
// require that: a barrier under a divergent condition is undefined); a
// thread that returns while others wait, a thread that arrives at a
// different __syncthreads, or all live threads waiting with nobody left to
// release them, each fails the block at once with a message naming the
// threads and source lines involved, instead of hanging.
//
// Warp collectives: the lanes of a warp meet. A collective without a mask
// (__shfl_xor, __ballot, ...) needs every live lane of the warp at the same
// call; a _sync form needs exactly the lanes of its mask. Collectives of
// different lane sets may be pending at once (lanes 0-15 in a masked
// shuffle while the others already wait in the next, whole-warp one). The last lane to
// arrive runs the collective's combine function over every lane's operands
// (each lane's slot points at its own operands and result, which stay valid
// while it waits) and releases the others.
#pragma once

#include "errors.h"
#include "runtime_api.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <source_location>
#include <string>
#include <vector>

namespace ave::cpu {

class BlockSync {
public:
  struct Shape {
    unsigned BlockX = 1, BlockY = 1, BlockZ = 1;
    unsigned WaveSize = 64;
  };

  void reset(const Shape &S);

  int barrier(unsigned Linear, BarrierOp Op, int Predicate, const std::source_location &Site);

  // Mask: the _sync mask, or 0 with Masked == false for "every live lane".
  void collective(unsigned Linear, bool Masked, uint64_t Mask, const char *Name,
                  const std::source_location &Site, CombineFn Combine, const void *Shared,
                  const LaneSlot &Slot);

  void threadExited(unsigned Linear);

  // The lanes of Linear's warp that exist and have not returned.
  uint64_t liveLanes(unsigned Linear);

  // The first failure wins; every waiting thread wakes and unwinds.
  void fail(hipError_t Code, const std::string &Message);
  bool failed();
  hipError_t failureCode();
  std::string failureMessage();

  std::string threadName(unsigned Linear) const;

  // For the race check (race_check.h), read by the running GPU thread: the
  // barriers the block has completed, the last one's site, and the
  // collectives Linear's warp has completed. Two accesses between which
  // neither count moved are unordered.
  uint64_t barrierEpoch() const { return BarrierGeneration; }
  bool anyBarrierDone() const { return BarrierDone; }
  std::string lastBarrierText() const { return siteText(LastBarrierSite); }
  uint64_t warpEpoch(unsigned Linear) const { return Warps[Linear / Dims.WaveSize].Syncs; }

private:
  enum class Activity { Running, AtBarrier, InCollective, Exited };
  struct ThreadState {
    Activity What = Activity::Running;
    const char *Name = nullptr; // the collective's name
    std::source_location Site;
  };
  struct Group {
    bool InUse = false;
    bool Masked = false;
    uint64_t Mask = 0;
    uint64_t Arrived = 0;
    uint64_t Generation = 0;
    const char *Name = nullptr;
    std::source_location Site;
    CombineFn Combine = nullptr;
    const void *Shared = nullptr;
    std::string Error;
    LaneSlot Slots[64];
  };
  struct Warp {
    unsigned Index = 0;
    unsigned Lanes = 0; // lanes that exist (the last warp may be partial)
    uint64_t Live = 0;  // existing lanes that have not exited
    uint64_t Syncs = 0; // collectives completed (never reset: an epoch)
    std::vector<Group> Groups;
  };

  unsigned total() const { return Dims.BlockX * Dims.BlockY * Dims.BlockZ; }
  void failLocked(hipError_t Code, const std::string &Message);
  void throwIfFailed(std::unique_lock<std::mutex> &Lock);
  void waitFor(std::unique_lock<std::mutex> &Lock, const std::function<bool()> &Done);
  void checkDeadlockLocked();
  std::string waitersLocked() const;
  std::string siteText(const std::source_location &Site) const;
  Group &groupFor(Warp &W, unsigned Linear, bool Masked, uint64_t Mask, const char *Name,
                  const std::source_location &Site);
  bool tryCompleteLocked(Warp &W, Group &G);
  void releaseLocked(Warp &W, Group &G, unsigned Waiters);

  std::mutex Mutex;
  Shape Dims;
  unsigned Live = 0;
  unsigned Blocked = 0;
  unsigned Exited = 0;
  std::vector<ThreadState> Threads;
  std::deque<Warp> Warps; // a deque: a waiting lane holds a reference to its group's warp
  unsigned WarpCount = 0;
  // The barrier in progress.
  unsigned BarrierArrived = 0;
  uint64_t BarrierGeneration = 0;
  std::source_location BarrierSite;
  std::source_location LastBarrierSite; // the last completed barrier (BarrierDone)
  bool BarrierDone = false;
  BarrierOp BarrierKind = BarrierOp::Sync;
  int BarrierCount = 0;
  int BarrierResult = 0;
  // The failure, if any.
  bool Failed = false;
  hipError_t FailureCode = hipSuccess;
  std::string FailureMessage;
};

} // namespace ave::cpu

#include "block_sync_impl.h"
