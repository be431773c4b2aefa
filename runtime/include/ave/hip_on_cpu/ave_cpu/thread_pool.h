// The std::threads that run a block's GPU threads, kept across blocks and
// launches: a block of N threads wakes N pool threads (the pool grows to the
// largest block seen) and the launching thread waits until all of them have
// returned, or until the watchdog's time limit passes.
//
// The pool is never destroyed: its threads wait on a condition variable until
// the process exits, so no static destructor races a late launch.
#pragma once

#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace ave::cpu {

class ThreadPool {
public:
  using Body = std::function<void(unsigned)>;

  // Runs Run(i) for i in [0, Count), each on its own pool thread, all at
  // once. Returns false if they had not all returned after Limit.
  bool run(unsigned Count, const Body &Run, std::chrono::milliseconds Limit) {
    std::unique_lock<std::mutex> Lock(Mutex);
    grow(Count);
    Current = &Run;
    Active = Count;
    Remaining = Count;
    ++Generation;
    Start.notify_all();
    return Done.wait_for(Lock, Limit, [&] { return Remaining == 0; });
  }

  // Threads still inside Run (after a timeout).
  unsigned stillRunning() {
    std::lock_guard<std::mutex> Lock(Mutex);
    return Remaining;
  }

private:
  void grow(unsigned Count) {
    while (Workers.size() < Count) {
      unsigned Index = unsigned(Workers.size());
      Workers.emplace_back([this, Index] { loop(Index); });
      Workers.back().detach();
    }
  }

  // An alternate signal stack, so a stack overflow in kernel code still
  // reaches the fault handler.
  static void installSignalStack() {
    static constexpr std::size_t Bytes = 64 * 1024;
    stack_t Stack{};
    Stack.ss_sp = std::malloc(Bytes);
    Stack.ss_size = Bytes;
    if (Stack.ss_sp)
      sigaltstack(&Stack, nullptr);
  }

  void loop(unsigned Index) {
    installSignalStack();
    uint64_t Seen = 0;
    std::unique_lock<std::mutex> Lock(Mutex);
    for (;;) {
      Start.wait(Lock, [&] { return Generation != Seen; });
      Seen = Generation;
      if (Index >= Active)
        continue;
      const Body *Run = Current;
      Lock.unlock();
      (*Run)(Index);
      Lock.lock();
      if (--Remaining == 0)
        Done.notify_all();
    }
  }

  std::mutex Mutex;
  std::condition_variable Start, Done;
  std::vector<std::thread> Workers; // detached; kept for their count
  const Body *Current = nullptr;
  unsigned Active = 0;
  unsigned Remaining = 0;
  uint64_t Generation = 0;
};

} // namespace ave::cpu
