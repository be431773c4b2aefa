#include "ave/support/LargeStack.h"

#include "ave/support/InterruptCleanup.h"

#include <algorithm>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <pthread.h>
#include <unistd.h>
#include <vector>

namespace ave::support {

namespace {

// The lowest address of the worker's stack: a fault within GuardBytes below Low is the
// stack running out (the guard page, or a frame larger than it).
std::uintptr_t StackLow = 0;
constexpr std::uintptr_t GuardBytes = 1 << 20;
struct sigaction Previous[2];
constexpr int Faults[2] = {SIGSEGV, SIGBUS};

// The file noted by noteCurrentInput, read by the handler.
char CurrentInput[4096];

bool isStackExhaustion(const void *Address) {
  auto At = reinterpret_cast<std::uintptr_t>(Address);
  return StackLow != 0 && At < StackLow + 4096 && At + GuardBytes >= StackLow;
}

void writeAll(const char *Text) {
  size_t Left = std::strlen(Text);
  while (Left > 0) {
    ssize_t N = write(STDERR_FILENO, Text, Left);
    if (N <= 0)
      return;
    Text += N;
    Left -= static_cast<size_t>(N);
  }
}

extern "C" void onFault(int Sig, siginfo_t *Info, void *Context) {
  if (Info && isStackExhaustion(Info->si_addr)) {
    writeAll(CurrentInput[0] ? CurrentInput : "ave-rewrite");
    writeAll(": error: the input is nested too deeply: parsing or analysing it used up the "
             "tool's 1 GiB stack\n");
    cleanUpAfterFatalSignal();
    _exit(2);
  }
  // Any other fault: whoever handled it before (LLVM's stack-trace printer).
  const struct sigaction &Old = Previous[Sig == SIGSEGV ? 0 : 1];
  if ((Old.sa_flags & SA_SIGINFO) && Old.sa_sigaction) {
    sigaction(Sig, &Old, nullptr);
    Old.sa_sigaction(Sig, Info, Context);
    return;
  }
  if (Old.sa_handler != SIG_DFL && Old.sa_handler != SIG_IGN) {
    sigaction(Sig, &Old, nullptr);
    Old.sa_handler(Sig);
    return;
  }
  signal(Sig, SIG_DFL);
  raise(Sig);
}

struct Work {
  const std::function<int()> *fn;
  int result = 2;
};

void installFaultHandlers(std::vector<char> &AltStack) {
  stack_t Alt{};
  Alt.ss_sp = AltStack.data();
  Alt.ss_size = AltStack.size();
  sigaltstack(&Alt, nullptr);
  struct sigaction Action {};
  Action.sa_sigaction = onFault;
  Action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&Action.sa_mask);
  for (int I = 0; I < 2; ++I)
    sigaction(Faults[I], &Action, &Previous[I]);
}

extern "C" void *runWork(void *Arg) {
  auto *W = static_cast<Work *>(Arg);
  pthread_attr_t Attr;
  if (pthread_getattr_np(pthread_self(), &Attr) == 0) {
    void *Base = nullptr;
    size_t Size = 0;
    if (pthread_attr_getstack(&Attr, &Base, &Size) == 0) {
      StackLow = reinterpret_cast<std::uintptr_t>(Base);
    }
    pthread_attr_destroy(&Attr);
  }
  std::vector<char> AltStack(std::max<size_t>(SIGSTKSZ, 64 * 1024));
  installFaultHandlers(AltStack);
  W->result = (*W->fn)();
  // Faults after this point are not ours to explain.
  for (int I = 0; I < 2; ++I)
    sigaction(Faults[I], &Previous[I], nullptr);
  StackLow = 0;
  stack_t Off{};
  Off.ss_flags = SS_DISABLE;
  sigaltstack(&Off, nullptr);
  return nullptr;
}

} // namespace

void noteCurrentInput(const std::string &File) {
  size_t N = std::min(File.size(), sizeof CurrentInput - 1);
  std::memcpy(CurrentInput, File.data(), N);
  CurrentInput[N] = 0;
}

int runOnLargeStack(const std::function<int()> &Fn) {
  Work W{&Fn};
  pthread_attr_t Attr;
  pthread_t Thread;
  bool Started = pthread_attr_init(&Attr) == 0 &&
                 pthread_attr_setstacksize(&Attr, LargeStackBytes) == 0 &&
                 pthread_create(&Thread, &Attr, runWork, &W) == 0;
  pthread_attr_destroy(&Attr);
  if (!Started)
    return Fn();
  pthread_join(Thread, nullptr);
  return W.result;
}

} // namespace ave::support
