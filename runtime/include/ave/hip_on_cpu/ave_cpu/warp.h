// Warp-level functions: the shuffles (__shfl, __shfl_up, __shfl_down,
// __shfl_xor, their _sync forms with a lane mask), the votes (__ballot,
// __any, __all and _sync forms), __activemask, __syncwarp and the lane
// helpers. Each shuffle or vote is a collective of the warp (block_sync.h):
// the lanes meet, and every lane gets the value of its source lane. The
// source lane follows HIP's definition (amd_warp_functions.h), which agrees
// with CUDA's for every width: a power of two up to warpSize that splits
// the warp into segments; __shfl reads lane (src mod width) of the caller's
// segment, __shfl_up/down/xor read their own value when the source falls
// outside the segment (xor may read an earlier segment). A source lane that
// does not take part (returned, beyond a partial warp, outside the mask)
// gives poison (0xFF bytes), as its value is undefined on a GPU.
#pragma once

#include "runtime_api.h"
#include "thread_context.h"

#include <bit>
#include <cstdio>
#include <cstring>
#include <source_location>
#include <type_traits>

namespace ave::cpu {

namespace detail {

inline void combineShuffle(const CollectiveView &View, CollectiveError &) {
  std::size_t Size = *static_cast<const std::size_t *>(View.Shared);
  for (unsigned Lane = 0; Lane < 64; ++Lane) {
    if (!(View.Participants & laneBit(Lane)))
      continue;
    int64_t Source = View.Slots[Lane].Arg;
    if (Source >= 0 && Source < 64 && (View.Participants & laneBit(unsigned(Source))))
      std::memcpy(View.Slots[Lane].Out, View.Slots[Source].In, Size);
    else
      std::memset(View.Slots[Lane].Out, 0xFF, Size);
  }
}

struct VoteResult {
  uint64_t Votes = 0;        // lanes whose predicate was non-zero
  uint64_t Participants = 0; // lanes that voted
};

inline void combineBallot(const CollectiveView &View, CollectiveError &) {
  VoteResult Result;
  Result.Participants = View.Participants;
  for (unsigned Lane = 0; Lane < 64; ++Lane)
    if ((View.Participants & laneBit(Lane)) && *static_cast<const int *>(View.Slots[Lane].In))
      Result.Votes |= laneBit(Lane);
  for (unsigned Lane = 0; Lane < 64; ++Lane)
    if (View.Participants & laneBit(Lane))
      *static_cast<VoteResult *>(View.Slots[Lane].Out) = Result;
}

inline void combineNothing(const CollectiveView &, CollectiveError &) {}

inline uint64_t effectiveMask(uint64_t Mask) { return Mask & lowLanes(Current.WaveSize); }

// Fails the block when Width is not a power of two in [1, warpSize].
inline void checkWidth(const char *Name, int Width, const std::source_location &Site) {
  if (Width >= 1 && Width <= int(Current.WaveSize) && std::has_single_bit(unsigned(Width)))
    return;
  char Text[512];
  std::snprintf(Text, sizeof Text,
                "%s (%s:%u): width %d is not a power of two between 1 and warpSize (%u)", Name,
                Site.file_name(), unsigned(Site.line()), Width, Current.WaveSize);
  failBlock(hipErrorLaunchFailure, Text);
}

template <class T>
T shuffle(const char *Name, bool Masked, uint64_t Mask, T Value, int64_t Source,
          const std::source_location &Site) {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 16,
                "warp shuffles move trivially copyable values of at most 16 bytes");
  static constexpr std::size_t Size = sizeof(T);
  T Result;
  LaneSlot Slot{&Value, &Result, Source};
  collective(Masked, effectiveMask(Mask), Name, Site, combineShuffle, &Size, Slot);
  return Result;
}

inline int64_t sourceIndex(int SrcLane, int Width) {
  int Self = int(Current.Lane);
  return (SrcLane & (Width - 1)) + (Self & ~(Width - 1));
}
inline int64_t sourceUp(unsigned Delta, int Width) {
  int64_t Self = Current.Lane, Source = Self - int64_t(Delta);
  return Source < (Self & ~int64_t(Width - 1)) ? Self : Source;
}
inline int64_t sourceDown(unsigned Delta, int Width) {
  int64_t Self = Current.Lane;
  return (Self & (Width - 1)) + int64_t(Delta) >= Width ? Self : Self + int64_t(Delta);
}
inline int64_t sourceXor(int LaneMask, int Width) {
  int64_t Self = Current.Lane, Source = Self ^ int64_t(LaneMask);
  return Source >= ((Self + Width) & ~int64_t(Width - 1)) ? Self : Source;
}

inline VoteResult vote(const char *Name, bool Masked, uint64_t Mask, int Predicate,
                       const std::source_location &Site) {
  VoteResult Result;
  LaneSlot Slot{&Predicate, &Result, 0};
  collective(Masked, effectiveMask(Mask), Name, Site, combineBallot, nullptr, Slot);
  return Result;
}

} // namespace detail

} // namespace ave::cpu

// The functions below are HIP's names; Site defaults to the caller's line.
#define AVE_CPU_SITE std::source_location Site = std::source_location::current()

template <class T> T __shfl(T Var, int SrcLane, int Width = warpSize, AVE_CPU_SITE) {
  ave::cpu::detail::checkWidth("__shfl", Width, Site);
  return ave::cpu::detail::shuffle("__shfl", false, 0, Var,
                                   ave::cpu::detail::sourceIndex(SrcLane, Width), Site);
}
template <class T> T __shfl_up(T Var, unsigned Delta, int Width = warpSize, AVE_CPU_SITE) {
  ave::cpu::detail::checkWidth("__shfl_up", Width, Site);
  return ave::cpu::detail::shuffle("__shfl_up", false, 0, Var,
                                   ave::cpu::detail::sourceUp(Delta, Width), Site);
}
template <class T> T __shfl_down(T Var, unsigned Delta, int Width = warpSize, AVE_CPU_SITE) {
  ave::cpu::detail::checkWidth("__shfl_down", Width, Site);
  return ave::cpu::detail::shuffle("__shfl_down", false, 0, Var,
                                   ave::cpu::detail::sourceDown(Delta, Width), Site);
}
template <class T> T __shfl_xor(T Var, int LaneMask, int Width = warpSize, AVE_CPU_SITE) {
  ave::cpu::detail::checkWidth("__shfl_xor", Width, Site);
  return ave::cpu::detail::shuffle("__shfl_xor", false, 0, Var,
                                   ave::cpu::detail::sourceXor(LaneMask, Width), Site);
}

template <class M, class T>
T __shfl_sync(M Mask, T Var, int SrcLane, int Width = warpSize, AVE_CPU_SITE) {
  ave::cpu::detail::checkWidth("__shfl_sync", Width, Site);
  return ave::cpu::detail::shuffle("__shfl_sync", true, uint64_t(Mask), Var,
                                   ave::cpu::detail::sourceIndex(SrcLane, Width), Site);
}
template <class M, class T>
T __shfl_up_sync(M Mask, T Var, unsigned Delta, int Width = warpSize, AVE_CPU_SITE) {
  ave::cpu::detail::checkWidth("__shfl_up_sync", Width, Site);
  return ave::cpu::detail::shuffle("__shfl_up_sync", true, uint64_t(Mask), Var,
                                   ave::cpu::detail::sourceUp(Delta, Width), Site);
}
template <class M, class T>
T __shfl_down_sync(M Mask, T Var, unsigned Delta, int Width = warpSize, AVE_CPU_SITE) {
  ave::cpu::detail::checkWidth("__shfl_down_sync", Width, Site);
  return ave::cpu::detail::shuffle("__shfl_down_sync", true, uint64_t(Mask), Var,
                                   ave::cpu::detail::sourceDown(Delta, Width), Site);
}
template <class M, class T>
T __shfl_xor_sync(M Mask, T Var, int LaneMask, int Width = warpSize, AVE_CPU_SITE) {
  ave::cpu::detail::checkWidth("__shfl_xor_sync", Width, Site);
  return ave::cpu::detail::shuffle("__shfl_xor_sync", true, uint64_t(Mask), Var,
                                   ave::cpu::detail::sourceXor(LaneMask, Width), Site);
}

inline unsigned long long __ballot(int Predicate, AVE_CPU_SITE) {
  return ave::cpu::detail::vote("__ballot", false, 0, Predicate, Site).Votes;
}
inline int __any(int Predicate, AVE_CPU_SITE) {
  return ave::cpu::detail::vote("__any", false, 0, Predicate, Site).Votes != 0;
}
inline int __all(int Predicate, AVE_CPU_SITE) {
  ave::cpu::detail::VoteResult R = ave::cpu::detail::vote("__all", false, 0, Predicate, Site);
  return R.Votes == R.Participants;
}
template <class M> unsigned long long __ballot_sync(M Mask, int Predicate, AVE_CPU_SITE) {
  return ave::cpu::detail::vote("__ballot_sync", true, uint64_t(Mask), Predicate, Site).Votes;
}
template <class M> int __any_sync(M Mask, int Predicate, AVE_CPU_SITE) {
  return ave::cpu::detail::vote("__any_sync", true, uint64_t(Mask), Predicate, Site).Votes != 0;
}
template <class M> int __all_sync(M Mask, int Predicate, AVE_CPU_SITE) {
  ave::cpu::detail::VoteResult R =
      ave::cpu::detail::vote("__all_sync", true, uint64_t(Mask), Predicate, Site);
  return R.Votes == R.Participants;
}

inline void __syncwarp(AVE_CPU_SITE) {
  ave::cpu::collective(false, 0, "__syncwarp", Site, ave::cpu::detail::combineNothing, nullptr,
                       ave::cpu::LaneSlot{});
}
template <class M> void __syncwarp(M Mask, AVE_CPU_SITE) {
  ave::cpu::collective(true, ave::cpu::detail::effectiveMask(uint64_t(Mask)), "__syncwarp", Site,
                       ave::cpu::detail::combineNothing, nullptr, ave::cpu::LaneSlot{});
}

// The lanes of the caller's warp that have not returned. Not a collective:
// the executor has no lockstep, so "active" cannot mean "in this branch".
inline unsigned long long __activemask() { return ave::cpu::liveLanes(); }

inline unsigned __lane_id() { return ave::cpu::Current.Lane; }
inline unsigned long long __lanemask_lt() { return (1ull << __lane_id()) - 1; }
inline unsigned long long __lanemask_le() { return (2ull << __lane_id()) - 1; }
inline unsigned long long __lanemask_eq() { return 1ull << __lane_id(); }
inline unsigned long long __lanemask_gt() {
  return ave::cpu::detail::lowLanes(ave::cpu::Current.WaveSize) & ~__lanemask_le();
}
inline unsigned long long __lanemask_ge() {
  return ave::cpu::detail::lowLanes(ave::cpu::Current.WaveSize) & ~__lanemask_lt();
}
