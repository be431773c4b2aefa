// The std::threads that run a block's GPU threads, kept across blocks and
// launches: a block of N threads wakes pool threads 0..N-1 (each through its
// own semaphore, so a small block after a large one wakes only what it
// needs; the pool grows to the largest block seen), and the launching thread
// waits until all of them have returned, or until the watchdog's limit.
//
// The pool is never destroyed: its threads wait on their semaphores until the
// process exits, so no static destructor races a late launch.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdlib>
#include <functional>
#include <memory>
#include <mutex>
#include <semaphore>
#include <thread>
#include <vector>

namespace ave::cpu {

class ThreadPool {
public:
  using Body = std::function<void(unsigned)>;

  // Runs Run(i) for i in [0, Count), each on its own pool thread, all at
  // once. Returns false if they had not all returned after Limit.
  bool run(unsigned Count, const Body &Run, std::chrono::milliseconds Limit) {
    grow(Count);
    Current = &Run;
    Remaining.store(Count);
    for (unsigned I = 0; I < Count; ++I)
      Workers[I]->Start.release();
    std::unique_lock<std::mutex> Lock(DoneMutex);
    return Done.wait_for(Lock, Limit, [&] { return Remaining.load() == 0; });
  }

  // Threads still inside Run (after a timeout).
  unsigned stillRunning() const { return Remaining.load(); }

private:
  struct Worker {
    std::binary_semaphore Start{0};
  };

  void grow(unsigned Count) {
    while (Workers.size() < Count) {
      Workers.push_back(std::make_unique<Worker>());
      Worker *W = Workers.back().get();
      std::thread([this, W, Index = unsigned(Workers.size() - 1)] { loop(*W, Index); }).detach();
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

  void loop(Worker &W, unsigned Index) {
    installSignalStack();
    for (;;) {
      W.Start.acquire();
      (*Current)(Index);
      if (Remaining.fetch_sub(1) == 1) {
        std::lock_guard<std::mutex> Lock(DoneMutex);
        Done.notify_all();
      }
    }
  }

  std::vector<std::unique_ptr<Worker>> Workers;
  const Body *Current = nullptr;
  std::atomic<unsigned> Remaining{0};
  std::mutex DoneMutex;
  std::condition_variable Done;
};

} // namespace ave::cpu
