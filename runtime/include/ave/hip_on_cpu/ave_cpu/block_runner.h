// Runs a block's GPU threads (fibers.h) on one worker thread, kept across
// blocks and launches, while the launching thread waits for the block with a
// limit: a block whose threads never return (a spin loop waiting for
// something no thread will do) is reported by the caller instead of hanging
// the process.
//
// The runner is never destroyed: its worker waits on its semaphore until the
// process exits, so no static destructor races a late launch.
#pragma once

#include "fibers.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdlib>
#include <mutex>
#include <semaphore>
#include <thread>

namespace ave::cpu {

class BlockRunner {
public:
  using Body = FiberSet::Body;

  // Runs Run(i) for i in [0, Count), each on its own fiber. Returns false if
  // they had not all returned after Limit.
  bool run(unsigned Count, const Body &Run, std::chrono::milliseconds Limit) {
    std::call_once(Started, [this] { std::thread([this] { loop(); }).detach(); });
    Current = &Run;
    CurrentCount = Count;
    Fibers.resetFinished();
    {
      std::lock_guard<std::mutex> Lock(DoneMutex);
      Finished = false;
    }
    Start.release();
    std::unique_lock<std::mutex> Lock(DoneMutex);
    return Done.wait_for(Lock, Limit, [&] { return Finished; });
  }

  // Threads still inside Run (after a timeout).
  unsigned stillRunning() const { return CurrentCount - Fibers.finished(); }

private:
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

  void loop() {
    installSignalStack();
    for (;;) {
      Start.acquire();
      Fibers.run(CurrentCount, *Current);
      std::lock_guard<std::mutex> Lock(DoneMutex);
      Finished = true;
      Done.notify_all();
    }
  }

  std::once_flag Started;
  std::binary_semaphore Start{0};
  FiberSet Fibers;
  const Body *Current = nullptr;
  unsigned CurrentCount = 0;
  std::mutex DoneMutex;
  std::condition_variable Done;
  bool Finished = false;
};

} // namespace ave::cpu
