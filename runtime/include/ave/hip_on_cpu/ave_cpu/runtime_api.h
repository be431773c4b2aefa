// The line between the light headers every kernel translation unit parses
// and the executor's implementation (runtime_impl.h). Kernel code, the warp
// functions and the host API call these functions; their definitions are
// weak, emitted by every translation unit that includes the implementation
// (the default), so a single-file program needs nothing else, and a
// multi-file program may define AVE_CPU_DECLARATIONS_ONLY in all but one
// file to skip parsing the implementation's standard headers there.
#pragma once

#include "errors.h"
#include "platform.h"

#include <cstddef>
#include <cstdint>
#include <source_location>

struct hipDeviceProp_t;

namespace ave::cpu {

namespace detail {
inline constexpr uint64_t laneBit(unsigned Lane) { return uint64_t(1) << Lane; }
inline constexpr uint64_t lowLanes(unsigned Count) {
  return Count >= 64 ? ~uint64_t(0) : (uint64_t(1) << Count) - 1;
}
} // namespace detail

// Thrown in a GPU thread to unwind it when its block has failed.
struct BlockAborted {};

// One lane's part in a warp collective.
struct LaneSlot {
  const void *In = nullptr; // this lane's operands
  void *Out = nullptr;      // where its result goes
  int64_t Arg = 0;          // a per-lane integer (a shuffle's source lane)
};

// What a combine function sees: every lane's slot and who takes part.
struct CollectiveView {
  const LaneSlot *Slots = nullptr; // indexed by lane
  uint64_t Participants = 0;       // lanes whose slots are filled
  uint64_t Existing = 0;           // lanes of the warp that exist and have not returned
  unsigned WaveSize = 64;
  const void *Shared = nullptr; // the first arriving lane's call-wide data
};

// Why a collective could not be computed (the block then fails).
struct CollectiveError {
  bool Failed = false;
  char Text[512] = {};
};

using CombineFn = void (*)(const CollectiveView &, CollectiveError &);

enum class BarrierOp { Sync, Count, And, Or };

struct KernelLaunch {
  const char *Name = "";
  dim3 Grid, Block;
  std::size_t DynamicShared = 0;
  void (*Invoke)(void *Context) = nullptr;
  void *Context = nullptr;
};

// ---- host side ----
hipError_t recordError(hipError_t Error); // sets the last error unless hipSuccess
hipError_t takeLastError();
hipError_t peekLastError();
hipError_t takePendingError(); // a kernel failure, once, for a synchronising call
const char *errorString(hipError_t Error);
hipError_t allocate(void **Out, std::size_t Bytes, bool Host);
hipError_t release(void *Pointer, bool Host);
bool isDeviceRange(const void *Pointer, std::size_t Bytes);
hipError_t deviceProperties(hipDeviceProp_t *Prop);
double nowSeconds(); // a steady clock
hipError_t launch(const KernelLaunch &Launch);
void *dynamicSharedBase();

// HIP_DYNAMIC_SHARED's pointer: the launch's dynamic shared memory.
template <class T> T *dynamicShared() { return static_cast<T *>(dynamicSharedBase()); }

// ---- device side (the calling thread must be a GPU thread) ----
int barrier(BarrierOp Op, int Predicate, const std::source_location &Site);
void collective(bool Masked, uint64_t Mask, const char *Name, const std::source_location &Site,
                CombineFn Combine, const void *Shared, const LaneSlot &Slot);
uint64_t liveLanes();
// Lets the block's other GPU threads run (a spin-loop idiom: a failed
// atomicCAS, an atomic that changes nothing); a no-op outside a kernel.
void yieldThread();
[[noreturn]] void failBlock(hipError_t Code, const char *Message);

} // namespace ave::cpu
