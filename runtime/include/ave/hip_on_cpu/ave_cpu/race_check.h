// Data races on shared memory, found while the kernel runs (a program built
// with AVE_CPU_RACES=1: ave-cpu-c++ adds the flags and defines
// AVE_CPU_RACE_CHECK).
//
// Why: a block's threads run one at a time, in one order, so a missing
// barrier changes the output only when that order happens to expose it
// (runtime/README.md, "What is not modelled"). A race that the schedule
// hides passes, and a checker's "race" verdict could not be confirmed by
// execution. Here every plain load and store of kernel code is seen:
// clang's ThreadSanitizer instrumentation (-fsanitize=thread) calls
// __tsan_readN/__tsan_writeN before each one, and this file defines those
// functions itself; ThreadSanitizer's runtime is not linked
// (-fno-sanitize-link-runtime). Accesses outside shared memory return at
// once.
//
// The rule, from the CUDA/HIP memory model for shared memory: two accesses
// to the same byte by different threads of a block, at least one a write,
// race unless a __syncthreads() completed between them, or (lanes of one
// warp) a warp collective of that warp completed between them. Two writes
// of the same bytes are benign, as in the analysis' ave-lds-race. Each byte
// keeps its last writer and its last reader with the barrier and warp
// epochs (block_sync.h) of that access; an access races with them when
// neither epoch has moved since. Keeping one reader per byte may miss a
// race (a write after two readers where the last one is the writer itself),
// and a collective of some other lanes of the same warp hides one: a race
// may be missed, but every race reported is one. Atomics, memcpy/memset and
// the executor's own poisoning are not instrumented (a plain access racing
// an atomic is not reported). The first race fails the launch
// (hipErrorLaunchFailure) with the threads, the offset and the barrier.
// With AVE_CPU_UNWRITTEN_READS=1 at run time, a read of a byte no thread of
// the block has written fails the launch too (a GPU returns what an earlier
// kernel left there; the soundness fuzzer confirms lds-read-written
// verdicts with it).
#pragma once

#if defined(AVE_CPU_RACE_CHECK)

#include "block_sync.h"
#include "local_memory.h"
#include "thread_context.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#define AVE_CPU_NO_RACE_CHECK __attribute__((no_sanitize("thread")))

namespace ave::cpu {

class RaceCheck {
public:
  // Before each block: the shared memory it may touch, every byte unaccessed.
  void reset(BlockSync &Running, std::size_t DynamicBytes) {
    Block = &Running;
    StaticBase = reinterpret_cast<std::uintptr_t>(__start_ave_shared);
    StaticBytes = __start_ave_shared ? std::size_t(__stop_ave_shared - __start_ave_shared) : 0;
    DynamicBase = reinterpret_cast<std::uintptr_t>(localMemory().dynamicBase());
    DynamicSize = DynamicBase ? DynamicBytes : 0;
    CellCount = StaticBytes + DynamicSize;
    if (CellCount > Capacity) {
      delete[] CellData;
      CellData = new Cell[CellCount];
      Capacity = CellCount;
    }
    std::fill(CellData, CellData + CellCount, Cell{});
    Reported = false;
    const char *Unwritten = std::getenv("AVE_CPU_UNWRITTEN_READS");
    UnwrittenReads = Unwritten && std::strcmp(Unwritten, "1") == 0;
    Waiting.Active = false;
  }

  // After the block's threads returned: a write that raced only with
  // another write is judged now if no later access judged it.
  AVE_CPU_NO_RACE_CHECK void finish() { judgeWaitingWrite(); }

  AVE_CPU_NO_RACE_CHECK void access(const void *Address, std::size_t Size, bool Write) {
    std::uintptr_t A = reinterpret_cast<std::uintptr_t>(Address);
    std::size_t Index = 0;
    if (A - StaticBase < StaticBytes)
      Index = A - StaticBase;
    else if (A - DynamicBase < DynamicSize)
      Index = StaticBytes + (A - DynamicBase);
    else
      return;
    ThreadContext &T = Current;
    if (!T.Block || Reported)
      return;
    judgeWaitingWrite();
    Stamp Now{T.Linear + 1, uint32_t(T.Block->barrierEpoch()),
              uint32_t(T.Block->warpEpoch(T.Linear))};
    std::size_t End = Index + Size < CellCount ? Index + Size : CellCount;
    const Stamp *OtherWriter = nullptr;
    for (std::size_t I = Index; I < End; ++I) {
      Cell &C = CellData[I];
      if (Write && conflicts(C.Reader, Now, T.WaveSize))
        return report(T.Linear, I, Write, C.Reader, false);
      if (!Write && UnwrittenReads && C.Writer.Thread == 0)
        return reportUnwritten(T.Linear, I);
      if (conflicts(C.Writer, Now, T.WaveSize)) {
        if (!Write || End - Index > sizeof Waiting.Before)
          return report(T.Linear, I, Write, C.Writer, true);
        OtherWriter = &C.Writer;
      }
    }
    if (OtherWriter)
      wait(T.Linear, Index, End, *OtherWriter);
    for (std::size_t I = Index; I < End; ++I)
      (Write ? CellData[I].Writer : CellData[I].Reader) = Now;
  }

private:
  struct Stamp {
    uint32_t Thread = 0; // linear index + 1; 0: nobody
    uint32_t Barrier = 0;
    uint32_t WarpSync = 0;
  };
  struct Cell {
    Stamp Writer, Reader;
  };
  // A write that races only with another thread's write: benign if it
  // stores the bytes that are already there (two threads writing the same
  // value, as the analysis' ave-lds-race allows). The hook runs before the
  // store, so the bytes are compared at the next access (or the block's end).
  struct WaitingWrite {
    bool Active = false;
    unsigned Thread = 0;
    std::size_t Index = 0, Size = 0;
    Stamp Other;
    unsigned char Before[16] = {};
  };

  AVE_CPU_NO_RACE_CHECK static bool conflicts(const Stamp &Before, const Stamp &Now,
                                              unsigned WaveSize) {
    if (Before.Thread == 0 || Before.Thread == Now.Thread || Before.Barrier != Now.Barrier)
      return false;
    bool SameWarp = (Before.Thread - 1) / WaveSize == (Now.Thread - 1) / WaveSize;
    return !SameWarp || Before.WarpSync == Now.WarpSync;
  }

  AVE_CPU_NO_RACE_CHECK unsigned char *byteAt(std::size_t Index) const {
    return reinterpret_cast<unsigned char *>(
        Index < StaticBytes ? StaticBase + Index : DynamicBase + (Index - StaticBytes));
  }

  AVE_CPU_NO_RACE_CHECK void wait(unsigned Thread, std::size_t Index, std::size_t End,
                                  const Stamp &Other) {
    Waiting.Active = true;
    Waiting.Thread = Thread;
    Waiting.Index = Index;
    Waiting.Size = End - Index;
    Waiting.Other = Other;
    for (std::size_t I = 0; I < Waiting.Size; ++I)
      Waiting.Before[I] = byteAt(Index + I)[0];
  }

  AVE_CPU_NO_RACE_CHECK void judgeWaitingWrite() {
    if (!Waiting.Active)
      return;
    Waiting.Active = false;
    for (std::size_t I = 0; I < Waiting.Size; ++I)
      if (byteAt(Waiting.Index + I)[0] != Waiting.Before[I])
        return report(Waiting.Thread, Waiting.Index + I, true, Waiting.Other, true);
  }

  void report(unsigned Thread, std::size_t Index, bool Write, const Stamp &Other, bool OtherWrote) {
    Reported = true;
    std::string Where = where(Index);
    std::string Since = Block->anyBarrierDone()
                            ? "since the __syncthreads() at " + Block->lastBarrierText()
                            : "before the first __syncthreads()";
    std::string What = Write && OtherWrote ? " wrote (a different value)"
                       : OtherWrote        ? " wrote"
                                           : " read";
    Block->fail(hipErrorLaunchFailure, "data race on shared memory: " + Block->threadName(Thread) +
                                           (Write ? " writes " : " reads ") + Where + ", which " +
                                           Block->threadName(Other.Thread - 1) + What +
                                           " with no barrier or warp collective between them (" +
                                           Since + ")");
  }

  std::string where(std::size_t Index) const {
    return Index < StaticBytes
               ? "byte " + std::to_string(Index) + " of static __shared__ memory"
               : "byte " + std::to_string(Index - StaticBytes) + " of dynamic shared memory";
  }

  void reportUnwritten(unsigned Thread, std::size_t Index) {
    Reported = true;
    Block->fail(hipErrorLaunchFailure,
                "read of shared memory no thread wrote: " + Block->threadName(Thread) + " reads " +
                    where(Index) + ", which no thread of the block wrote before");
  }

  BlockSync *Block = nullptr;
  WaitingWrite Waiting;
  bool UnwrittenReads = false; // AVE_CPU_UNWRITTEN_READS=1
  std::uintptr_t StaticBase = 0, DynamicBase = 0;
  std::size_t StaticBytes = 0, DynamicSize = 0;
  // A plain array, never freed: the hooks must not call instrumented code,
  // and a kernel may run until the process exits.
  Cell *CellData = nullptr;
  std::size_t CellCount = 0, Capacity = 0;
  bool Reported = false;
};

// Constant-initialised and trivially destroyed: no guard variable for the
// uninstrumented hooks to read.
inline RaceCheck TheRaceCheck;

AVE_CPU_NO_RACE_CHECK inline RaceCheck &raceCheck() { return TheRaceCheck; }

} // namespace ave::cpu

// ThreadSanitizer's entry points that the instrumentation calls (the flags
// ave-cpu-c++ passes turn off function entry/exit, atomics and memory
// intrinsics). Weak: every translation unit with the implementation may
// carry them.
#define AVE_CPU_RACE_HOOK extern "C" __attribute__((weak, no_sanitize("thread")))
#define AVE_CPU_RACE_ACCESS(Size)                                                                  \
  AVE_CPU_RACE_HOOK void __tsan_read##Size(void *Address) {                                        \
    ave::cpu::raceCheck().access(Address, Size, false);                                            \
  }                                                                                                \
  AVE_CPU_RACE_HOOK void __tsan_write##Size(void *Address) {                                       \
    ave::cpu::raceCheck().access(Address, Size, true);                                             \
  }                                                                                                \
  AVE_CPU_RACE_HOOK void __tsan_unaligned_read##Size(void *Address) {                              \
    ave::cpu::raceCheck().access(Address, Size, false);                                            \
  }                                                                                                \
  AVE_CPU_RACE_HOOK void __tsan_unaligned_write##Size(void *Address) {                             \
    ave::cpu::raceCheck().access(Address, Size, true);                                             \
  }
AVE_CPU_RACE_ACCESS(1)
AVE_CPU_RACE_ACCESS(2)
AVE_CPU_RACE_ACCESS(4)
AVE_CPU_RACE_ACCESS(8)
AVE_CPU_RACE_ACCESS(16)
AVE_CPU_RACE_HOOK void __tsan_read_range(void *Address, unsigned long Size) {
  ave::cpu::raceCheck().access(Address, Size, false);
}
AVE_CPU_RACE_HOOK void __tsan_write_range(void *Address, unsigned long Size) {
  ave::cpu::raceCheck().access(Address, Size, true);
}
AVE_CPU_RACE_HOOK void __tsan_init() {}
AVE_CPU_RACE_HOOK void __tsan_vptr_update(void **, void *) {}
AVE_CPU_RACE_HOOK void __tsan_vptr_read(void **) {}

#endif
