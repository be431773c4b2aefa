// The GPU threads of one block as fibers on one OS thread.
//
// Why fibers: a block's threads meet at every __syncthreads and warp
// collective. With one std::thread per GPU thread, each barrier of a
// 256-thread block woke 255 OS threads through one mutex; on a 2-core machine
// a 96x96x96 tiled SGEMM spent 90% of its run in the kernel's scheduler
// (5.4 s, 4.9 s of it system time), and that run is the rewrite pipeline's
// execution stage. Here the threads of a block are ucontext fibers on one
// worker thread. A fiber runs until it must wait (a barrier, a warp
// collective, a failed atomicCAS), then hands over to the next one. The
// scheduler sweeps the fibers in linear order, alternating the direction on
// each sweep: between two barriers the lower threads run first, between the
// next two the higher ones. A run is deterministic, and a missing barrier
// shows the same way on every run, whichever way its threads talk: a thread
// reads a neighbour's element before the neighbour wrote it (poison), or
// after the neighbour overwrote it with the next tile.
//
// A fiber that waits for another thread without any of those (a spin loop
// on a plain or volatile load) never hands over: the block runs into the
// executor's watchdog, which names it (executor.h).
//
// Each fiber has its own stack (mmap, with a guard page below it, so an
// overflow is a fault the executor reports rather than corruption). The
// per-GPU-thread values the kernel reads (threadIdx, Current, ...) are
// thread_locals of the worker thread; a fiber that hands over keeps its own
// on its stack and puts them back when it resumes (gpu_thread_switch.h).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>
#include <vector>

namespace ave::cpu {

class FiberSet;

namespace detail {
// Set while this OS thread runs fibers (the scheduler's set and the fiber
// now running); null on every other thread.
inline thread_local FiberSet *RunningSet = nullptr;
} // namespace detail

class FiberSet {
public:
  using Body = std::function<void(unsigned)>;

  // Runs Run(i) for i in [0, Count), each on its own fiber, until all have
  // returned.
  void run(unsigned Count, const Body &Run) {
    grow(Count);
    Current = &Run;
    for (unsigned I = 0; I < Count; ++I)
      prepare(Slots[I]);
    unsigned Left = Count;
    detail::RunningSet = this;
    for (bool Forward = true; Left > 0; Forward = !Forward)
      for (unsigned K = 0; K < Count; ++K) {
        unsigned I = Forward ? K : Count - 1 - K;
        if (Slots[I].Done)
          continue;
        Running = I;
        swapcontext(&Scheduler, &Slots[I].Context);
        if (Slots[I].Done) {
          --Left;
          Finished.fetch_add(1, std::memory_order_relaxed);
        }
      }
    detail::RunningSet = nullptr;
  }

  // From a fiber: lets the other fibers of the block run, and returns when
  // the scheduler comes back to this one. From any other thread: nothing.
  static void yield() {
    FiberSet *Set = detail::RunningSet;
    if (!Set)
      return;
    swapcontext(&Set->Slots[Set->Running].Context, &Set->Scheduler);
  }

  // Fibers that have returned in the current run (read by another thread).
  unsigned finished() const { return Finished.load(std::memory_order_relaxed); }
  void resetFinished() { Finished.store(0, std::memory_order_relaxed); }

private:
  static constexpr std::size_t StackBytes = std::size_t(1) << 20;

  struct Slot {
    ucontext_t Context;
    char *Stack = nullptr; // the usable part, above the guard page
    bool Done = false;
  };

  void grow(unsigned Count) {
    if (Slots.size() >= Count)
      return;
    Slots.reserve(Count); // Slots never move while fibers run: grow first
    const std::size_t Page = std::size_t(sysconf(_SC_PAGESIZE));
    while (Slots.size() < Count) {
      void *Base = mmap(nullptr, StackBytes + Page, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
      if (Base == MAP_FAILED) {
        std::fprintf(stderr, "ave-cpu: cannot map a %zu-byte stack for a GPU thread\n", StackBytes);
        std::_Exit(125);
      }
      mprotect(Base, Page, PROT_NONE); // the guard page: stacks grow down
      Slots.emplace_back();
      Slots.back().Stack = static_cast<char *>(Base) + Page;
    }
  }

  void prepare(Slot &S) {
    getcontext(&S.Context);
    S.Context.uc_stack.ss_sp = S.Stack;
    S.Context.uc_stack.ss_size = StackBytes;
    S.Context.uc_link = &Scheduler; // where a fiber goes when its body returns
    S.Done = false;
    makecontext(&S.Context, &FiberSet::entry, 0);
  }

  static void entry() {
    FiberSet *Set = detail::RunningSet;
    unsigned Index = Set->Running;
    (*Set->Current)(Index);
    Set->Slots[Index].Done = true;
  }

  std::vector<Slot> Slots;
  ucontext_t Scheduler;
  const Body *Current = nullptr;
  unsigned Running = 0;
  std::atomic<unsigned> Finished{0};
};

} // namespace ave::cpu
