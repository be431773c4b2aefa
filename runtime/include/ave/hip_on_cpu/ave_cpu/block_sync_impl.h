// BlockSync's member functions (block_sync.h says what they do and why).
#pragma once

#include "gpu_thread_switch.h"

#include <bit>
#include <cstdio>
#include <cstring>

namespace ave::cpu {

namespace detail {

inline bool sameSite(const std::source_location &A, const std::source_location &B) {
  return A.line() == B.line() && A.column() == B.column() &&
         std::strcmp(A.file_name(), B.file_name()) == 0;
}
inline std::string hexMask(uint64_t Mask) {
  char Text[24];
  std::snprintf(Text, sizeof Text, "0x%llx", static_cast<unsigned long long>(Mask));
  return Text;
}

} // namespace detail

inline void BlockSync::reset(const Shape &S) {
  std::lock_guard<std::mutex> Lock(Mutex);
  Dims = S;
  unsigned N = total();
  Live = N;
  Blocked = 0;
  Exited = 0;
  Threads.assign(N, ThreadState{});
  WarpCount = (N + S.WaveSize - 1) / S.WaveSize;
  while (Warps.size() < WarpCount)
    Warps.emplace_back();
  for (unsigned W = 0; W < WarpCount; ++W) {
    unsigned Lanes = std::min(S.WaveSize, N - W * S.WaveSize);
    Warps[W].Index = W;
    Warps[W].Lanes = Lanes;
    Warps[W].Live = detail::lowLanes(Lanes);
    Warps[W].Groups.clear();
  }
  BarrierArrived = 0;
  BarrierCount = 0;
  BarrierResult = 0;
  BarrierDone = false;
  Failed = false;
  FailureCode = hipSuccess;
  FailureMessage.clear();
}

inline std::string BlockSync::threadName(unsigned Linear) const {
  unsigned X = Linear % Dims.BlockX;
  unsigned Y = (Linear / Dims.BlockX) % Dims.BlockY;
  unsigned Z = Linear / (Dims.BlockX * Dims.BlockY);
  return "thread (" + std::to_string(X) + "," + std::to_string(Y) + "," + std::to_string(Z) + ")";
}

inline std::string BlockSync::siteText(const std::source_location &Site) const {
  const char *File = Site.file_name();
  if (const char *Slash = std::strrchr(File, '/'))
    File = Slash + 1;
  return std::string(File) + ":" + std::to_string(Site.line());
}

inline void BlockSync::failLocked(hipError_t Code, const std::string &Message) {
  if (Failed)
    return;
  Failed = true;
  FailureCode = Code;
  FailureMessage = Message;
}

inline void BlockSync::fail(hipError_t Code, const std::string &Message) {
  std::lock_guard<std::mutex> Lock(Mutex);
  failLocked(Code, Message);
}

inline bool BlockSync::failed() {
  std::lock_guard<std::mutex> Lock(Mutex);
  return Failed;
}

inline hipError_t BlockSync::failureCode() {
  std::lock_guard<std::mutex> Lock(Mutex);
  return FailureCode;
}

inline std::string BlockSync::failureMessage() {
  std::lock_guard<std::mutex> Lock(Mutex);
  return FailureMessage;
}

inline void BlockSync::throwIfFailed(std::unique_lock<std::mutex> &Lock) {
  if (!Failed)
    return;
  Lock.unlock();
  throw BlockAborted{};
}

// The lock is free while the others run: they take it in their own calls.
inline void BlockSync::waitFor(std::unique_lock<std::mutex> &Lock,
                               const std::function<bool()> &Done) {
  while (!Failed && !Done()) {
    Lock.unlock();
    letOtherGpuThreadsRun();
    Lock.lock();
  }
}

// "256 threads wait at __syncthreads() (k.hip:20); 1 returned (first: thread (3,0,0))".
inline std::string BlockSync::waitersLocked() const {
  struct Entry {
    Activity What;
    const char *Name;
    std::source_location Site;
    unsigned Count;
    unsigned First;
  };
  std::vector<Entry> Entries;
  for (unsigned T = 0; T < Threads.size(); ++T) {
    const ThreadState &S = Threads[T];
    if (S.What == Activity::Running)
      continue;
    bool Found = false;
    for (Entry &E : Entries)
      if (E.What == S.What &&
          (S.What == Activity::Exited || (E.Name == S.Name && detail::sameSite(E.Site, S.Site)))) {
        ++E.Count;
        Found = true;
        break;
      }
    if (!Found)
      Entries.push_back({S.What, S.Name, S.Site, 1, T});
  }
  std::string Out;
  for (const Entry &E : Entries) {
    Out += Out.empty() ? "" : "; ";
    Out += std::to_string(E.Count) + (E.Count == 1 ? " thread " : " threads ");
    if (E.What == Activity::Exited)
      Out += "returned";
    else if (E.What == Activity::AtBarrier)
      Out += "wait at __syncthreads() (" + siteText(E.Site) + ")";
    else
      Out += "wait in " + std::string(E.Name) + " (" + siteText(E.Site) + ")";
    Out += " (first: " + threadName(E.First) + ")";
  }
  return Out;
}

inline void BlockSync::checkDeadlockLocked() {
  if (Failed || Live == 0 || Blocked != Live)
    return;
  failLocked(hipErrorLaunchFailure,
             "deadlock: every thread still running waits and none can release the others: " +
                 waitersLocked());
}

inline int BlockSync::barrier(unsigned Linear, BarrierOp Op, int Predicate,
                              const std::source_location &Site) {
  std::unique_lock<std::mutex> Lock(Mutex);
  throwIfFailed(Lock);
  if (Exited > 0) {
    failLocked(hipErrorLaunchFailure,
               threadName(Linear) + " reached __syncthreads() (" + siteText(Site) +
                   ") after threads of the block returned, so the barrier can never complete: " +
                   waitersLocked());
    throwIfFailed(Lock);
  }
  if (BarrierArrived > 0 && (!detail::sameSite(Site, BarrierSite) || Op != BarrierKind)) {
    failLocked(hipErrorLaunchFailure,
               "divergent barriers: " + threadName(Linear) + " reached __syncthreads() at " +
                   siteText(Site) +
                   " while other threads wait at a different one: " + waitersLocked());
    throwIfFailed(Lock);
  }
  if (BarrierArrived == 0) {
    BarrierSite = Site;
    BarrierKind = Op;
    BarrierCount = 0;
  }
  ++BarrierArrived;
  BarrierCount += Predicate != 0;
  if (BarrierArrived == total()) {
    unsigned N = total();
    BarrierResult = Op == BarrierOp::Count ? BarrierCount
                    : Op == BarrierOp::And ? int(BarrierCount == int(N))
                    : Op == BarrierOp::Or  ? int(BarrierCount > 0)
                                           : 0;
    Blocked -= BarrierArrived - 1;
    BarrierArrived = 0;
    ++BarrierGeneration;
    LastBarrierSite = BarrierSite;
    BarrierDone = true;
    for (ThreadState &S : Threads)
      if (S.What == Activity::AtBarrier)
        S.What = Activity::Running;
    return BarrierResult;
  }
  Threads[Linear] = {Activity::AtBarrier, nullptr, Site};
  ++Blocked;
  checkDeadlockLocked();
  uint64_t Generation = BarrierGeneration;
  waitFor(Lock, [&] { return BarrierGeneration != Generation; });
  throwIfFailed(Lock);
  return BarrierResult;
}

inline BlockSync::Group &BlockSync::groupFor(Warp &W, unsigned Linear, bool Masked, uint64_t Mask,
                                             const char *Name, const std::source_location &Site) {
  auto describe = [&](const Group &G) {
    return std::string(G.Name) + " (" + siteText(G.Site) + ")" +
           (G.Masked ? " with mask " + detail::hexMask(G.Mask) : std::string(" (whole warp)"));
  };
  auto me = [&] { // built only for a failure: collectives are frequent
    return threadName(Linear) + " calls " + Name + " (" + siteText(Site) + ")" +
           (Masked ? " with mask " + detail::hexMask(Mask) : std::string(""));
  };
  Group *Free = nullptr;
  for (Group &G : W.Groups) {
    if (!G.InUse) {
      Free = Free ? Free : &G;
      continue;
    }
    // Collectives of other lane sets may be pending at the same time: their
    // lanes may come here later (if they cannot, every lane ends up waiting
    // and checkDeadlockLocked reports it).
    if (Masked != G.Masked || (Masked && G.Mask != Mask))
      continue;
    // The same lanes must meet at the same call; __syncwarp may be reached
    // from different lines (as on sm_70 and later).
    bool SameCall = std::strcmp(G.Name, Name) == 0 &&
                    (detail::sameSite(G.Site, Site) || std::strcmp(Name, "__syncwarp") == 0);
    if (SameCall)
      return G;
    failLocked(hipErrorLaunchFailure, "divergent warp collectives: " + me() +
                                          " while lanes of its warp wait in " + describe(G) +
                                          " (lanes " + detail::hexMask(G.Arrived) + ")");
    throw BlockAborted{}; // the caller's lock is released by its unique_lock
  }
  if (!Free) {
    W.Groups.emplace_back();
    Free = &W.Groups.back();
  }
  Group &G = *Free;
  G.InUse = true;
  G.Masked = Masked;
  G.Mask = Mask;
  G.Arrived = 0;
  G.Name = Name;
  G.Site = Site;
  G.Combine = nullptr;
  G.Shared = nullptr;
  G.Error.clear();
  return G;
}

// Completes G when every lane it needs has arrived. ByArrival: the caller is
// the last lane to arrive (not counted among the blocked threads).
inline bool BlockSync::tryCompleteLocked(Warp &W, Group &G) {
  uint64_t Required = G.Masked ? G.Mask : W.Live;
  if (G.Arrived == 0 || (G.Arrived & Required) != Required)
    return false;
  CollectiveView View;
  View.Slots = G.Slots;
  View.Participants = G.Arrived;
  View.Existing = W.Live;
  View.WaveSize = Dims.WaveSize;
  View.Shared = G.Shared;
  CollectiveError Error;
  G.Combine(View, Error);
  if (Error.Failed)
    failLocked(hipErrorLaunchFailure,
               std::string(G.Name) + " (" + siteText(G.Site) + "): " + Error.Text);
  return true;
}

inline void BlockSync::releaseLocked(Warp &W, Group &G, unsigned Waiters) {
  unsigned Base = W.Index * Dims.WaveSize;
  for (unsigned Lane = 0; Lane < 64; ++Lane)
    if (G.Arrived & detail::laneBit(Lane))
      if (Threads[Base + Lane].What == Activity::InCollective)
        Threads[Base + Lane].What = Activity::Running;
  Blocked -= Waiters;
  G.InUse = false;
  ++G.Generation;
  ++W.Syncs;
}

inline void BlockSync::collective(unsigned Linear, bool Masked, uint64_t Mask, const char *Name,
                                  const std::source_location &Site, CombineFn Combine,
                                  const void *Shared, const LaneSlot &Slot) {
  std::unique_lock<std::mutex> Lock(Mutex);
  throwIfFailed(Lock);
  Warp &W = Warps[Linear / Dims.WaveSize];
  unsigned Lane = Linear % Dims.WaveSize;
  if (Masked) {
    auto where = [&] {
      return std::string(Name) + " (" + siteText(Site) + ") with mask " + detail::hexMask(Mask) +
             ": ";
    };
    if (!(Mask & detail::laneBit(Lane)))
      failLocked(hipErrorLaunchFailure, where() + threadName(Linear) + " (lane " +
                                            std::to_string(Lane) +
                                            ") calls it, but the mask leaves its own lane out");
    else if (Mask & ~detail::lowLanes(W.Lanes))
      failLocked(hipErrorLaunchFailure,
                 where() + "the mask names lanes this warp does not have (it has " +
                     std::to_string(W.Lanes) + " lanes at wave size " +
                     std::to_string(Dims.WaveSize) + ")");
    else if (Mask & ~W.Live)
      failLocked(hipErrorLaunchFailure, where() + "lanes " + detail::hexMask(Mask & ~W.Live) +
                                            " of the mask have returned; " + waitersLocked());
    throwIfFailed(Lock);
  }
  Group &G = groupFor(W, Linear, Masked, Mask, Name, Site);
  if (G.Arrived == 0) {
    G.Combine = Combine;
    G.Shared = Shared;
  }
  G.Slots[Lane] = Slot;
  G.Arrived |= detail::laneBit(Lane);
  if (tryCompleteLocked(W, G)) {
    releaseLocked(W, G, unsigned(std::popcount(G.Arrived)) - 1);
    throwIfFailed(Lock);
    return;
  }
  Threads[Linear] = {Activity::InCollective, Name, Site};
  ++Blocked;
  checkDeadlockLocked();
  std::size_t Index = std::size_t(&G - W.Groups.data());
  uint64_t Generation = G.Generation;
  waitFor(Lock, [&] { return W.Groups[Index].Generation != Generation; });
  throwIfFailed(Lock);
}

inline uint64_t BlockSync::liveLanes(unsigned Linear) {
  std::lock_guard<std::mutex> Lock(Mutex);
  return Warps[Linear / Dims.WaveSize].Live;
}

inline void BlockSync::threadExited(unsigned Linear) {
  std::lock_guard<std::mutex> Lock(Mutex);
  Threads[Linear].What = Activity::Exited;
  ++Exited;
  --Live;
  Warp &W = Warps[Linear / Dims.WaveSize];
  unsigned Lane = Linear % Dims.WaveSize;
  W.Live &= ~detail::laneBit(Lane);
  if (Failed)
    return;
  if (BarrierArrived > 0) {
    failLocked(hipErrorLaunchFailure,
               threadName(Linear) + " returned while other threads wait at __syncthreads() (" +
                   siteText(BarrierSite) +
                   "), so the barrier can never complete: " + waitersLocked());
    return;
  }
  for (Group &G : W.Groups) {
    if (!G.InUse)
      continue;
    if (G.Masked && (G.Mask & detail::laneBit(Lane))) {
      failLocked(hipErrorLaunchFailure, threadName(Linear) + " (lane " + std::to_string(Lane) +
                                            ") returned while lanes " + detail::hexMask(G.Arrived) +
                                            " wait for it in " + G.Name + " (" + siteText(G.Site) +
                                            ") with mask " + detail::hexMask(G.Mask));
      return;
    }
    // A collective of the whole warp no longer waits for this lane.
    if (!G.Masked && tryCompleteLocked(W, G))
      releaseLocked(W, G, unsigned(std::popcount(G.Arrived)));
  }
  checkDeadlockLocked();
}

} // namespace ave::cpu
