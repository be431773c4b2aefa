// Hardware faults in kernel code become failed launches: a SIGSEGV/SIGBUS
// (a guard page: an index past a buffer), SIGFPE (integer division by zero),
// SIGILL/SIGTRAP (__builtin_trap) or SIGABRT (a failed assert) raised on a GPU
// thread jumps back to the executor, which fails the block with a message
// naming the kernel, block, thread and the address's place relative to the
// buffers, or the trap's cause (an array index out of bounds). The same signal on any other thread
// goes to the handler that was installed before (by default: the process dies as usual).
#pragma once

#include "local_memory.h"
#include "memory.h"
#include "thread_context.h"

#include <csignal>
#include <mutex>
#include <string>

namespace ave::cpu {

namespace detail {

inline constexpr int FaultSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGABRT};

inline struct sigaction *previousActions() {
  static struct sigaction Previous[64];
  return Previous;
}

inline void onFault(int Signal, siginfo_t *Info, void *Context) {
  ThreadContext &T = Current;
  if (T.FaultArmed) {
    T.FaultArmed = false;
    T.FaultSignal = Signal;
    T.FaultAddress = Info ? Info->si_addr : nullptr;
    siglongjmp(T.FaultJump, 1);
  }
  // Not kernel code: hand the signal to whoever had it before.
  struct sigaction &Previous = previousActions()[Signal];
  if ((Previous.sa_flags & SA_SIGINFO) && Previous.sa_sigaction) {
    Previous.sa_sigaction(Signal, Info, Context);
    return;
  }
  if (Previous.sa_handler != SIG_DFL && Previous.sa_handler != SIG_IGN) {
    Previous.sa_handler(Signal);
    return;
  }
  // Default action: restore it; a synchronous fault re-executes and dies,
  // abort() raises again.
  sigaction(Signal, &Previous, nullptr);
}

} // namespace detail

inline void installFaultHandlers() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    for (int Signal : detail::FaultSignals) {
      struct sigaction Action {};
      Action.sa_sigaction = detail::onFault;
      Action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
      sigemptyset(&Action.sa_mask);
      sigaction(Signal, &Action, &detail::previousActions()[Signal]);
    }
  });
}

inline hipError_t faultCode(int Signal) {
  switch (Signal) {
  case SIGSEGV:
  case SIGBUS:
    return hipErrorIllegalAddress;
  case SIGABRT:
    return hipErrorAssert;
  default:
    return hipErrorLaunchFailure;
  }
}

// A trap's cause, from the instruction at Address (SIGILL reports the
// instruction's own address). clang's array-bounds check (ave-cpu-c++ turns it
// on) traps with `ud1 0x12(%eax),%eax`: 0x12 is its out-of-bounds kind. Its
// local-bounds check and __builtin_trap both use `ud2`, as do g++'s checks.
inline std::string trapText(const void *Address) {
#if defined(__x86_64__) || defined(__i386__)
  const auto *Code = static_cast<const unsigned char *>(Address);
  if (Code && Code[0] == 0x67 && Code[1] == 0x0f && Code[2] == 0xb9 && Code[3] == 0x40 &&
      Code[4] == 0x12)
    return "array index out of bounds (an index past an array's declared size; "
           "the executor's bounds check)";
#else
  (void)Address;
#endif
  return "trap (__builtin_trap or __trap, or an array index out of bounds: the executor's "
         "bounds check)";
}

inline std::string faultText(int Signal, void *Address) {
  switch (Signal) {
  case SIGSEGV:
  case SIGBUS: {
    std::string Where;
    LocalMemory &Lds = localMemory();
    if (Lds.contains(Address))
      Where = "byte " + std::to_string(Lds.offsetOf(Address)) +
              " of dynamic shared memory, past the " + std::to_string(Lds.requested()) +
              " bytes the launch asked for";
    else
      Where = deviceMemory().describe(reinterpret_cast<uintptr_t>(Address));
    return "invalid memory access at " + DeviceMemory::hex(reinterpret_cast<uintptr_t>(Address)) +
           " (" + Where + ")";
  }
  case SIGFPE:
    return "arithmetic fault (SIGFPE: an integer division by zero or INT_MIN / -1)";
  case SIGILL:
    return trapText(Address);
  case SIGTRAP: // its address is not the instruction's
    return trapText(nullptr);
  case SIGABRT:
    return "abort (a failed assert, or abort())";
  default:
    return "signal " + std::to_string(Signal);
  }
}

} // namespace ave::cpu
